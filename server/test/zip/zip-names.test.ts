import { describe, expect, it } from 'vitest';
import { UniqueNames, safeSegment } from '../../src/services/downloads/zip-names.js';

describe('zip entry names', () => {
  it('never lets a name act as a separator, a parent, the current folder or a control sequence', () => {
    expect(safeSegment('..')).toBe('__');
    expect(safeSegment('.')).toBe('_');
    expect(safeSegment('a/../b')).toBe('a_.._b');
    expect(safeSegment('C:\\Windows\\evil.dll')).toBe('C__Windows_evil.dll');
    expect(safeSegment('C:evil.dll')).toBe('C_evil.dll');
    expect(safeSegment('/etc/passwd')).toBe('_etc_passwd');
    expect(safeSegment('line\nbreak\u0000')).toBe('line_break_');
    expect(safeSegment('   ')).toBe('_');
    expect(safeSegment('Ünïcødé 😀.txt')).toBe('Ünïcødé 😀.txt');
  });

  it('numbers equal names before the extension, case-insensitively', () => {
    const sut = new UniqueNames();
    expect(['a.txt', 'a.txt', 'A.TXT', 'a (1).txt', 'a'].map((n) => sut.claim(n))).toEqual([
      'a.txt',
      'a (1).txt',
      'A (2).TXT',
      'a (1) (1).txt',
      'a',
    ]);
  });

  it('numbers folders after their whole name and dotfiles after theirs', () => {
    const sut = new UniqueNames();
    expect(sut.claim('v1.2', true)).toBe('v1.2');
    expect(sut.claim('v1.2', true)).toBe('v1.2 (1)');
    expect(sut.claim('.env')).toBe('.env');
    expect(sut.claim('.env')).toBe('.env (1)');
  });
});
