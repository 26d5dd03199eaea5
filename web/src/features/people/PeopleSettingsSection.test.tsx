import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import type { PeopleSettings } from './people.api';
import { answerSettings } from './people-fixtures';

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
  onRequest('GET', '/user-service/user-detailed', { status: 200, data: { ...testUser, createdAt: '2025-01-01T00:00:00.000Z' } });
});

/** Answers PUT with the setting changed (turning off forgets every scanned photo). */
function answerUpdates() {
  onRequest('PUT', '/people-service/settings', (request) => {
    const { enabled } = request.body as { enabled: boolean };
    const settings: PeopleSettings = enabled
      ? { enabled, scannedPhotos: 0, pendingPhotos: 9 }
      : { enabled, scannedPhotos: 0, pendingPhotos: 0 };
    answerSettings(settings);
    return { status: 200, data: settings };
  });
}

async function openPeopleSettings() {
  renderApp('/settings', { user: testUser });
  fireEvent.click(await screen.findByRole('button', { name: 'People in photos' }));
  await screen.findByRole('heading', { name: 'People in photos' });
  return screen.findByRole('switch', { name: 'People in photos' });
}

describe('settings: people in photos', () => {
  it('shows the switch on with how many photos are processed and waiting', async () => {
    answerSettings({ scannedPhotos: 12, pendingPhotos: 3 });
    const toggle = await openPeopleSettings();
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('12 photos processed, 3 waiting')).toBeTruthy();
    expect(screen.getByText(/Only you see them/)).toBeTruthy();
  });

  it('asks before turning off, and turns off only once confirmed', async () => {
    answerSettings({ scannedPhotos: 12, pendingPhotos: 3 });
    answerUpdates();
    const toggle = await openPeopleSettings();
    fireEvent.click(toggle);
    const dialog = screen.getByRole('dialog', { name: 'Turn off people?' });
    expect(within(dialog).getByText('The faces found in your photos and the names you gave will be deleted.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo('PUT', '/people-service/settings')).toHaveLength(0);
    expect(toggle.getAttribute('aria-checked')).toBe('true');

    fireEvent.click(toggle);
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Turn off people?' })).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'People in photos' }).getAttribute('aria-checked')).toBe('false'));
    expect(requestsTo('PUT', '/people-service/settings').map((r) => r.body)).toEqual([{ enabled: false }]);
    expect(screen.queryByText(/processed/)).toBeNull();
  });

  it('turns on at once, without a question', async () => {
    answerSettings({ enabled: false, scannedPhotos: 0, pendingPhotos: 0 });
    answerUpdates();
    const toggle = await openPeopleSettings();
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    await screen.findByText('0 photos processed, 9 waiting');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsTo('PUT', '/people-service/settings').map((r) => r.body)).toEqual([{ enabled: true }]);
  });

  it('says when the setting could not be changed, and keeps it as it was', async () => {
    answerSettings({ enabled: false });
    onRequest('PUT', '/people-service/settings', { status: 500, data: errorBody('INTERNAL') });
    const toggle = await openPeopleSettings();
    fireEvent.click(toggle);
    expect(await screen.findByText('The setting could not be changed')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'People in photos' }).getAttribute('aria-checked')).toBe('false');
  });
});
