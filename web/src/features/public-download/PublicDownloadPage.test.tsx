import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferredReply, errorBody, onRequest } from '../../test/http-mock';
import { renderApp } from '../../test/render-app';

const INFO = '/file-service/public/info/f1/tok';

describe('public download page', () => {
  it('shows a spinner, then the filename with "Copy name", link type, size, upload date and Download', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(() => Promise.resolve()) }, configurable: true });
    const pending = deferredReply({
      status: 200,
      data: { _id: 'f1', filename: 'plan.pdf', length: 1536, uploadDate: '2025-03-05T14:07:00', metadata: { linkType: 'one', size: 1536 } },
    });
    onRequest('GET', INFO, pending.reply);
    renderApp('/public-download/f1/tok');
    expect(await screen.findByRole('status', { name: 'Loading file' })).toBeTruthy();
    pending.release();
    expect((await screen.findByTestId('popup-filename')).textContent).toBe('plan.pdf');
    expect(screen.getByTestId('fact-link-type').textContent).toBe('Temporary');
    expect(screen.getByTestId('fact-size').textContent).toBe('1.5 KB');
    expect(screen.getByTestId('fact-upload-date').textContent).toBe('03/05/2025 02:07pm');
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/file-service/public/download/f1/tok');
    fireEvent.click(screen.getByRole('button', { name: 'Copy name' }));
    expect(await screen.findByText('Filename Copied')).toBeTruthy();
    expect(navigator.clipboard.writeText).toHaveBeenCalledWith('plan.pdf');
  });

  it('says "Error getting public file" when the link does not work', async () => {
    onRequest('GET', INFO, { status: 404, data: errorBody('FILE_NOT_FOUND') });
    renderApp('/public-download/f1/tok');
    expect(await screen.findByText('Error getting public file')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
  });
});
