import { describe, expect, it } from 'vitest';
import { badgeColor, extensionBadge, shortenMiddle } from './file-name';
import { formatDateTime, formatDay, formatListDate } from './format-date';
import { formatBytes } from './format-size';

describe('dates', () => {
  const afternoon = new Date(2025, 0, 5, 15, 7);
  const midnight = new Date(2024, 11, 31, 0, 4);
  const noon = new Date(2026, 6, 14, 12, 30);

  it('lists show MM/DD/YY hh:mma', () => {
    expect(formatListDate(afternoon)).toBe('01/05/25 03:07pm');
    expect(formatListDate(midnight)).toBe('12/31/24 12:04am');
    expect(formatListDate(noon)).toBe('07/14/26 12:30pm');
  });

  it('the detail panel shows MM/DD/YYYY and the details popup MM/DD/YYYY hh:mma', () => {
    expect(formatDay(afternoon)).toBe('01/05/2025');
    expect(formatDateTime(midnight)).toBe('12/31/2024 12:04am');
  });

  it('reads ISO strings in local time', () => {
    expect(formatListDate(afternoon.toISOString())).toBe('01/05/25 03:07pm');
  });
});

describe('sizes in byte units up to PB', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [5 * 1024 ** 2 + 1024 ** 2 / 4, '5.25 MB'],
    [1024 ** 3, '1 GB'],
    [3.333 * 1024 ** 4, '3.33 TB'],
    [1024 ** 5, '1 PB'],
    [2048 * 1024 ** 5, '2048 PB'],
    [-5, '0 B'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('extension badges', () => {
  it.each([
    ['report.pdf', 4, 'PDF'],
    ['notes.markdown', 4, 'MARK'],
    ['notes.markdown', 3, 'MAR'],
    ['archive.tar.gz', 4, 'GZ'],
    ['photo.JpEg', 4, 'JPEG'],
    ['photo.jpeg', 3, 'JPE'],
    ['README', 4, 'UNK'],
    ['.bashrc', 4, 'UNK'],
    ['trailing.', 4, 'UNK'],
  ])('%s (max %d) → %s', (name, max, badge) => {
    expect(extensionBadge(name, max)).toBe(badge);
  });

  it('defaults to 4 characters and gives every badge a stable colour', () => {
    expect(extensionBadge('a.docx')).toBe('DOCX');
    expect(badgeColor('a.pdf')).toBe(badgeColor('b.PDF'));
    expect(badgeColor('x.qqq')).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('middle ellipsis', () => {
  it('keeps names up to the limit', () => {
    const name = 'a'.repeat(66);
    expect(shortenMiddle(name, 66)).toBe(name);
  });

  it('shortens longer names to exactly the limit, keeping both ends', () => {
    const name = `${'start-'.repeat(10)}${'x'.repeat(40)}-the-end.pdf`;
    const short = shortenMiddle(name, 66);
    expect(short).toHaveLength(66);
    expect(short.startsWith('start-start-')).toBe(true);
    expect(short.endsWith('-the-end.pdf')).toBe(true);
    expect(short).toContain('...');
  });
});
