import { describe, expect, it } from 'vitest';
import { AnswerCache } from '../src/http/answer-cache.js';

const body = (text: string) => Buffer.from(text);

describe('AnswerCache', () => {
  it('serves an answer only for the version it was made at', () => {
    const sut = new AnswerCache(10_000);
    sut.set('a', 3, body('three'));
    expect(sut.get('a', 3)?.toString()).toBe('three');
    expect(sut.get('a', 4)).toBeUndefined();
    // Once a newer version was asked for, the older answer is gone for good.
    expect(sut.get('a', 3)).toBeUndefined();
    expect(sut.size).toBe(0);
    expect(sut.usedBytes).toBe(0);
  });

  it('keeps a newer answer when a slower request made an older one', () => {
    const sut = new AnswerCache(10_000);
    sut.set('a', 5, body('five'));
    sut.set('a', 4, body('four'));
    expect(sut.get('a', 4)).toBeUndefined();
    expect(sut.get('a', 5)?.toString()).toBe('five');
  });

  it('drops the least recently used answers past its byte budget', () => {
    const sut = new AnswerCache(1_000, 1_000);
    const kb = (c: string) => body(c.repeat(300));
    sut.set('a', 1, kb('a'));
    sut.set('b', 1, kb('b'));
    expect(sut.get('a', 1)).toBeDefined(); // a is now the most recently used
    sut.set('c', 1, kb('c'));
    expect(sut.get('b', 1)).toBeUndefined();
    expect(sut.get('a', 1)).toBeDefined();
    expect(sut.get('c', 1)).toBeDefined();
    expect(sut.usedBytes).toBeLessThanOrEqual(1_000);
  });

  it('does not keep an answer bigger than its per-answer limit', () => {
    const sut = new AnswerCache(10_000, 100);
    sut.set('big', 1, body('x'.repeat(101)));
    expect(sut.get('big', 1)).toBeUndefined();
    expect(sut.usedBytes).toBe(0);
  });

  it('remembers the keys asked for, each apart', () => {
    const sut = new AnswerCache(10_000);
    expect(sut.askedBefore('alice\nfile-list\nfresh=1')).toBe(false);
    expect(sut.askedBefore('alice\nfile-list\nfresh=2')).toBe(false);
    expect(sut.askedBefore('alice\nfile-list\nfresh=1')).toBe(true);
    expect(sut.askedBefore('alice\nfile-list\nfresh=2')).toBe(true);
    expect(sut.askedBefore('bob\nfile-list\nfresh=1')).toBe(false);
    expect(sut.askedBefore('')).toBe(false);
    expect(sut.askedBefore('')).toBe(true);
  });

  it('accounts replaced answers exactly', () => {
    const sut = new AnswerCache(10_000);
    sut.set('a', 1, body('one'));
    const used = sut.usedBytes;
    sut.set('a', 2, body('two'));
    expect(sut.usedBytes).toBe(used);
    expect(sut.size).toBe(1);
  });
});
