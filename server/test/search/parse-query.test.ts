import { describe, expect, it } from 'vitest';
import { parseDate } from '../../src/search/query/dates.js';
import { parseQuery } from '../../src/search/query/parse-query.js';
import { nameWords } from '../../src/search/text/words.js';

// Friday 21 November 2026, 15:00 UTC.
const NOW = Date.UTC(2026, 10, 21, 15);
const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

function range(query: string) {
  const found = parseDate(query, NOW);
  return found
    ? { from: new Date(found.range.from).toISOString().slice(0, 10), to: new Date(found.range.to).toISOString().slice(0, 10) }
    : null;
}

describe('dates in queries', () => {
  it.each([
    ['invoice last month', '2026-10-01', '2026-11-01'],
    ['photos last week', '2026-11-09', '2026-11-16'],
    ['this year', '2026-01-01', '2027-01-01'],
    ['last year', '2025-01-01', '2026-01-01'],
    ['trip in 2024', '2024-01-01', '2025-01-01'],
    ['last summer', '2026-06-01', '2026-09-01'],
    ['winter 2023', '2023-12-01', '2024-03-01'],
    ['in march', '2026-03-01', '2026-04-01'],
    ['december', '2025-12-01', '2026-01-01'],
    ['march 2025', '2025-03-01', '2025-04-01'],
    ['yesterday', '2026-11-20', '2026-11-21'],
  ])('%s → [%s, %s)', (query, from, to) => {
    expect(range(query)).toEqual({ from, to });
  });

  it('reads rolling windows up to now', () => {
    const past = parseDate('scans from the past 3 months', NOW);
    expect(past?.range).toEqual({ from: day(2026, 8, 21), to: NOW + 1 });
    expect(past?.rest).toBe('scans from');
    expect(parseDate('since march', NOW)?.range).toEqual({ from: day(2026, 3, 1), to: NOW + 1 });
    expect(parseDate('since 2020', NOW)?.range.from).toBe(day(2020, 1, 1));
  });

  it('falls back to chrono for absolute dates', () => {
    expect(range('receipt from 5 march 2025')).toEqual({ from: '2025-03-05', to: '2025-03-06' });
  });

  it('leaves queries without dates alone', () => {
    expect(parseDate('driver license', NOW)).toBeNull();
    expect(parseDate('marketing plan', NOW)).toBeNull();
  });
});

describe('query understanding', () => {
  it('splits off dates and media words', () => {
    const q = parseQuery("last month's invoice", NOW);
    expect(q.terms).toEqual(['invoice']);
    expect(q.dateRange).toEqual({ from: day(2026, 10, 1), to: day(2026, 11, 1) });
    expect(parseQuery('family vacation video', NOW)).toMatchObject({ terms: ['family', 'vacation'], kinds: ['video'] });
    expect(parseQuery('pictures of my cat', NOW)).toMatchObject({ terms: ['cat'], kinds: ['photo'] });
    expect(parseQuery('pdf receipts', NOW)).toMatchObject({ terms: ['receipts'], kinds: ['document', 'scan'], pdfOnly: true });
    expect(parseQuery('scanned documents', NOW)).toMatchObject({ terms: [], kinds: ['scan'] });
  });

  it('recognises places', () => {
    expect(parseQuery('photo in a city', NOW)).toMatchObject({ terms: [], kinds: ['photo'], anyPlace: true, place: null });
    expect(parseQuery('photos in Paris', NOW)).toMatchObject({ place: 'paris', terms: ['paris'], kinds: ['photo'] });
    expect(parseQuery('pictures from new york last summer', NOW)).toMatchObject({ place: 'new york', kinds: ['photo'] });
  });

  it('recognises folder intent', () => {
    expect(parseQuery('tax folder', NOW)).toMatchObject({ terms: ['tax'], foldersOnly: true });
  });

  it("keeps words like driver's license for retrieval", () => {
    expect(parseQuery("driver's license", NOW).terms).toEqual(['driver', 'license']);
    expect(parseQuery('the job contract', NOW).terms).toEqual(['job', 'contract']);
  });
});

describe('name words', () => {
  it('splits camelCase, snake_case and digits', () => {
    expect(nameWords('taxReturn2024_final-v2.pdf')).toEqual(['tax', 'return', '2024', 'final', 'v', '2', 'pdf']);
    expect(nameWords('IMG_2041.JPG')).toEqual(['img', '2041', 'jpg']);
    expect(nameWords('PDFReport')).toEqual(['pdf', 'report']);
  });
});
