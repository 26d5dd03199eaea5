import { describe, expect, it } from 'vitest';
import type { FileVersionRow } from '../../src/db/repositories/file-version.repository.js';
import { decideFile, type ContentThen } from '../../src/services/versions/restore-as-of.service.js';

const AT = 1_000_000;

function version(sha256: string, uploadedAt: number, replacedAt: number): FileVersionRow {
  return {
    id: `v-${sha256}`,
    fileId: 'f',
    ownerId: 'o',
    size: 3,
    contentType: 'text/plain',
    sha256,
    crc32: null,
    storageKey: `k-${sha256}`,
    wrappedKey: 'w',
    uploadedAt,
    replacedAt,
    authorId: null,
    via: null,
  };
}

const file = (over: Partial<{ uploadedAt: number; createdAt: number; sha256: string; size: number; trashedAt: number | null }> = {}) => ({
  uploadedAt: AT + 10,
  createdAt: AT - 100,
  sha256: 'now',
  size: 3,
  trashedAt: null,
  ...over,
});

const then = (v: FileVersionRow | undefined, sha256 = v?.sha256 ?? 'gone'): ContentThen => ({ sha256, size: 3, version: v });

describe('restore as it was: the decision for one file', () => {
  it('a file unchanged since then keeps its content', () => {
    expect(decideFile(file({ uploadedAt: AT }), undefined, AT)).toEqual({ kind: 'keep' });
    expect(decideFile(file({ uploadedAt: AT - 1 }), undefined, AT)).toEqual({ kind: 'keep' });
  });

  it('a file changed since gets back the version it had then', () => {
    const v = version('then', AT - 50, AT + 10);
    expect(decideFile(file(), then(v), AT)).toEqual({ kind: 'revert', version: v });
  });

  it('a file already holding its content of then (a second run) keeps it', () => {
    expect(decideFile(file({ sha256: 'then' }), then(version('then', AT - 50, AT + 10)), AT)).toEqual({ kind: 'keep' });
    // Its earlier time recorded by a first run, the bytes the file's own again: no version holds them.
    expect(decideFile(file({ sha256: 'then' }), then(undefined, 'then'), AT)).toEqual({ kind: 'keep' });
  });

  it('same hash but another size is another content', () => {
    const v = version('then', AT - 50, AT + 10);
    expect(decideFile(file({ sha256: 'then', size: 4 }), then(v), AT)).toEqual({ kind: 'revert', version: v });
  });

  it('a file changed since whose content of then is no longer kept is left as it is', () => {
    expect(decideFile(file(), undefined, AT)).toEqual({ kind: 'not-recoverable' });
    // Known bytes whose blob retention let go.
    expect(decideFile(file(), then(undefined, 'then'), AT)).toEqual({ kind: 'not-recoverable' });
  });

  it('a file made since goes to the trash, unless it is there already', () => {
    expect(decideFile(file({ createdAt: AT + 1 }), undefined, AT)).toEqual({ kind: 'trash' });
    expect(decideFile(file({ createdAt: AT + 1, trashedAt: AT + 5 }), undefined, AT)).toEqual({ kind: 'keep' });
    // Made at that very moment: it existed then.
    expect(decideFile(file({ createdAt: AT, uploadedAt: AT }), undefined, AT)).toEqual({ kind: 'keep' });
  });
});
