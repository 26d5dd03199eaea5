import type { FileDto } from '@nimbus/common';
import { describe, expect, it } from 'vitest';
import { nextFileCursor } from './paging';

const file = (n: number): FileDto => ({
  _id: `id-${n}`,
  filename: `file-${n}.txt`,
  length: n,
  uploadDate: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
  metadata: {
    owner: 'u',
    parent: '/',
    size: n,
    contentType: 'text/plain',
    hasThumbnail: false,
    thumbnailID: '',
    isVideo: false,
    trashed: false,
  },
});
const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => file(from + i));

describe('the next-page rule', () => {
  it('continues after the last file of full pages, with its date, name and id', () => {
    expect(nextFileCursor([page(0, 50)], 50)).toEqual({
      startAtDate: file(49).uploadDate,
      startAtName: 'file-49.txt',
      startAtId: 'id-49',
    });
    expect(nextFileCursor([page(0, 50), page(50, 50)], 50)?.startAtId).toBe('id-99');
  });

  it('stops when the last page is shorter than the page size', () => {
    expect(nextFileCursor([page(0, 50), page(50, 20)], 50)).toBeUndefined();
    expect(nextFileCursor([page(0, 49)], 50)).toBeUndefined();
  });

  it('stops when any loaded page is short, even if a later one is full', () => {
    expect(nextFileCursor([page(0, 30), page(30, 50)], 50)).toBeUndefined();
  });

  it('stops on an empty page or no pages', () => {
    expect(nextFileCursor([], 50)).toBeUndefined();
    expect(nextFileCursor([[]], 50)).toBeUndefined();
    expect(nextFileCursor([page(0, 100)], 100)?.startAtName).toBe('file-99.txt');
  });
});
