import type { AdminModelStatusDto } from '@nimbus/common';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ModelStatusText } from './ModelStatusText';

const model = (over: Partial<AdminModelStatusDto>): AdminModelStatusDto => ({
  name: 'Xenova/clip-vit-base-patch32',
  state: 'ready',
  bytesDone: 0,
  bytesTotal: 0,
  error: null,
  ...over,
});

describe('the AI model in the admin overview', () => {
  it.each([
    [model({ state: 'ready', bytesDone: 150e6, bytesTotal: 150e6 }), 'clip-vit-base-patch32 — ready'],
    [model({ state: 'downloading', bytesDone: 43.9e6, bytesTotal: 100e6 }), 'clip-vit-base-patch32 — downloading 43 %'],
    [model({ state: 'downloading', bytesDone: 0, bytesTotal: 0 }), 'clip-vit-base-patch32 — downloading 0 %'],
    [
      model({ state: 'failed', error: 'cannot reach huggingface.co: ENOTFOUND' }),
      'clip-vit-base-patch32 — failed: cannot reach huggingface.co: ENOTFOUND',
    ],
    [model({ state: 'missing' }), 'clip-vit-base-patch32 — not downloaded yet'],
    [model({ name: null, state: 'off' }), 'Off'],
  ])('shows %j as "%s"', (status, text) => {
    render(<ModelStatusText model={status} />);
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.queryByText(/bundled model meanwhile/) !== null).toBe(['failed', 'downloading', 'missing'].includes(status.state));
  });
});
