import type { FolderDto } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RESUMABLE_MIN_BYTES } from '../../api/resumable-uploads.api';
import { makeFolder, mockDrive } from '../../test/drive-fixtures';
import { requests } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

// The tus exchange itself is the browser test's; here: into which folder a big upload is started.
const resumable = vi.hoisted(() => ({ started: [] as { name: string; parent: string }[] }));
vi.mock('../../api/resumable-uploads.api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/resumable-uploads.api')>()),
  startResumableUpload: (_owner: string, file: File, parent: string) => {
    resumable.started.push({ name: file.name, parent });
    return { pause: vi.fn(), resume: vi.fn(), cancel: vi.fn(), done: new Promise(() => undefined) };
  },
}));

const owner = { id: 'acc-owner', email: 'owner@example.com' };

describe('uploading into a folder shared with the account as editor', () => {
  it('starts a big (resumable) upload with the shared folder as parent, without checking the quota of the account', async () => {
    const shared: FolderDto = {
      ...makeFolder('Team plans', { owner: owner.id }),
      _id: 'shared-root',
      shared: { role: 'editor', owner, rootId: 'shared-root', rootType: 'folder' },
    };
    mockDrive({ info: [shared] });
    renderApp(`/folder/${shared._id}`, { user: testUser });
    await screen.findByTestId('shared-by');
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('button', { name: 'ADD NEW' }));
    const big = new File([new Uint8Array(RESUMABLE_MIN_BYTES)], 'film.mov');
    fireEvent.change(screen.getAllByTestId('upload-files-input')[0]!, { target: { files: [big] } });
    await waitFor(() => expect(resumable.started).toEqual([{ name: 'film.mov', parent: 'shared-root' }]));
    // The bytes count against the owner's quota, which the server checks; the account's own is not asked for.
    expect(requests.filter((r) => r.url.startsWith('/user-service/storage'))).toHaveLength(0);
  });
});
