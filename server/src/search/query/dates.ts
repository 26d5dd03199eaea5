import { createRequire } from 'node:module';

type Chrono = typeof import('chrono-node');
let loaded: Chrono | null = null;
/** The date parser (about 13 MB resident) loads with the first search that needs it, not at start. */
function chrono(): Chrono {
  loaded ??= createRequire(import.meta.url)('chrono-node') as Chrono;
  return loaded;
}

/** Half-open interval [from, to) in epoch milliseconds. */
export interface DateRange {
  from: number;
  to: number;
}

export interface DateMatch {
  range: DateRange;
  /** The query text with the date phrase removed. */
  rest: string;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)`;
const UNIT = '(day|week|month|year)s?';
const SEASONS: Record<string, number> = { spring: 2, summer: 5, fall: 8, autumn: 8, winter: 11 };
const DAY = 86_400_000;

const utc = (y: number, m: number, d = 1) => Date.UTC(y, m, d);
const monthIndex = (name: string) => MONTHS.findIndex((m) => m.startsWith(name.slice(0, 3)));

function startOfWeek(now: number): number {
  const d = new Date(now);
  const day = (d.getUTCDay() + 6) % 7; // Monday first
  return utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day);
}

function period(unit: string, now: number, offset: number): DateRange {
  const d = new Date(now);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  if (unit.startsWith('day')) return { from: utc(y, m, day + offset), to: utc(y, m, day + offset + 1) };
  if (unit.startsWith('week')) return { from: startOfWeek(now) + offset * 7 * DAY, to: startOfWeek(now) + (offset + 1) * 7 * DAY };
  if (unit.startsWith('month')) return { from: utc(y, m + offset), to: utc(y, m + offset + 1) };
  return { from: utc(y + offset, 0), to: utc(y + offset + 1, 0) };
}

function back(unit: string, count: number, now: number): DateRange {
  const d = new Date(now);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  const from = unit.startsWith('day')
    ? now - count * DAY
    : unit.startsWith('week')
      ? now - count * 7 * DAY
      : unit.startsWith('month')
        ? utc(y, m - count, day)
        : utc(y - count, m, day);
  return { from, to: now + 1 };
}

/** The season's range; `last` picks the latest one already over, otherwise the latest begun. */
function season(name: string, now: number, year: number | null, last: boolean): DateRange {
  const start = SEASONS[name] as number;
  const range = (y: number) => ({ from: utc(y, start), to: utc(y, start + 3) });
  if (year !== null) return range(year);
  let y = new Date(now).getUTCFullYear();
  while (range(y).from > now || (last && range(y).to > now)) y--;
  return range(y);
}

/** The named month in `year`, or its latest occurrence that has begun. */
function month(index: number, now: number, year: number | null): DateRange {
  let y = year ?? new Date(now).getUTCFullYear();
  if (year === null && utc(y, index) > now) y--;
  return { from: utc(y, index), to: utc(y, index + 1) };
}

const oneDay = (y: number, m: number, d: number): DateRange => ({ from: utc(y, m, d), to: utc(y, m, d + 1) });

/** A day in the given year, or its latest occurrence that has begun. */
function dayOf(monthIdx: number, date: number, now: number, year: number | null): DateRange {
  let y = year ?? new Date(now).getUTCFullYear();
  if (year === null && utc(y, monthIdx, date) > now) y--;
  return oneDay(y, monthIdx, date);
}

type Rule = [RegExp, (m: RegExpMatchArray, now: number) => DateRange];

const RULES: Rule[] = [
  [/\b(today)\b/, (_m, now) => period('day', now, 0)],
  [/\b(yesterday)\b/, (_m, now) => period('day', now, -1)],
  [
    new RegExp(`\\b(?:(?:in|over|during) )?(?:the )?(?:past|last|previous) (\\d+|a few|few|couple of|two|three|six) ${UNIT}\\b`),
    (m, now) => {
      const n = { 'a few': 3, few: 3, 'couple of': 2, two: 2, three: 3, six: 6 }[m[1] as string] ?? Number(m[1]);
      return back(m[2] as string, n, now);
    },
  ],
  [new RegExp(`\\b(?:this|current) ${UNIT}\\b`), (m, now) => period(m[1] as string, now, 0)],
  [new RegExp(`\\b(?:last|previous|past) ${UNIT}\\b`), (m, now) => period(m[1] as string, now, -1)],
  [
    new RegExp(`\\b(last|this|past)? ?(spring|summer|fall|autumn|winter)(?: (?:of )?((?:19|20)\\d\\d))?\\b`),
    (m, now) => season(m[2] as string, now, m[3] ? Number(m[3]) : null, m[1] === 'last' || m[1] === 'past'),
  ],
  [
    new RegExp(`\\bsince ${MONTH}(?: ((?:19|20)\\d\\d))?\\b`),
    (m, now) => ({ from: month(monthIndex(m[1] as string), now, m[2] ? Number(m[2]) : null).from, to: now + 1 }),
  ],
  [/\bsince ((?:19|20)\d\d)\b/, (m, now) => ({ from: utc(Number(m[1]), 0), to: now + 1 })],
  [/\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b/, (m) => oneDay(Number(m[1]), Number(m[2]) - 1, Number(m[3]))],
  [
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH},?(?: ((?:19|20)\\d\\d))?\\b`),
    (m, now) => dayOf(monthIndex(m[2] as string), Number(m[1]), now, m[3] ? Number(m[3]) : null),
  ],
  [
    new RegExp(`\\b${MONTH} (\\d{1,2})(?:st|nd|rd|th)?(?:,? ((?:19|20)\\d\\d))?\\b`),
    (m, now) => dayOf(monthIndex(m[1] as string), Number(m[2]), now, m[3] ? Number(m[3]) : null),
  ],
  [
    new RegExp(`\\b(?:in |from |during )?${MONTH}(?: ((?:19|20)\\d\\d))?\\b`),
    (m, now) => month(monthIndex(m[1] as string), now, m[2] ? Number(m[2]) : null),
  ],
  [/\b(?:in |from |during )?((?:19|20)\d\d)\b/, (m) => ({ from: utc(Number(m[1]), 0), to: utc(Number(m[1]) + 1, 0) })],
];

/**
 * Finds one date phrase in a lower-cased query: our rules first (chrono gets "last week",
 * "past 3 months", "since March", seasons and bare years wrong), then chrono for absolute dates.
 */
export function parseDate(query: string, now: number): DateMatch | null {
  for (const [pattern, toRange] of RULES) {
    const m = query.match(pattern);
    if (m && m.index !== undefined) return { range: toRange(m, now), rest: cut(query, m.index, m[0].length) };
  }
  const [found] = chrono().parse(query, { instant: new Date(now), timezone: 0 }, { forwardDate: false });
  if (!found) return null;
  const from = found.start.date().getTime();
  const end = found.end?.date().getTime();
  const dayOnly = !found.start.isCertain('hour');
  const range = {
    from: dayOnly ? from - (from % DAY) : from,
    to: end !== undefined ? end + DAY : (dayOnly ? from - (from % DAY) : from) + DAY,
  };
  return { range, rest: cut(query, found.index, found.text.length) };
}

function cut(text: string, index: number, length: number): string {
  return `${text.slice(0, index)} ${text.slice(index + length)}`.replace(/\s+/g, ' ').trim();
}
