/**
 * Dates in many notations -> ISO 8601 `YYYY-MM-DD`.
 *
 * Rules: `YYYY-MM-DD` (also `/` and `.`) is year-month-day; dotted numeric dates are always
 * day-first (nobody writes month-first with dots); `/` and `-` numeric dates are day-first or
 * month-first by the `dayFirst` option, unless a value above 12 settles it. Two-digit years
 * 00-69 mean 20xx and 70-99 mean 19xx (a fixed pivot, so results do not drift with the clock).
 */
import { MONTH_NAME_SOURCE, WEEKDAY_SOURCE, monthFromName } from './date-names.js';
import { compileUserRegex } from '../../lib/user-regex/index.js';
import { allMatches } from './text.js';

/** Options for {@link parseDate} and {@link findDates}. */
export interface DateOptions {
  /**
   * Read ambiguous `03/05/2024` as day-first (3 May). Default: true (most of the world);
   * generic extraction passes a value inferred from the document, see {@link inferDayFirst}.
   */
  dayFirst?: boolean;
  /** strftime-like formats tried first, e.g. `%d.%m.%Y`, `%B %d, %Y`. Default: none. */
  formats?: readonly string[];
}

/** A date located in a longer text. `ambiguous` means day/month order came from `dayFirst`. */
export interface FoundDate {
  iso: string;
  raw: string;
  index: number;
  ambiguous: boolean;
}

const ISO_RE =
  /(?<![\p{N}./-])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\p{N}])(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/gu;
const NUMERIC_RE = /(?<![\p{N}./-])(\d{1,2})([./-])\s?(\d{1,2})\2\s?(\d{4}|\d{2})(?![\p{N}]|[.,]\d)/gu;
const DAY_MONTH_NAME_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])(\\d{1,2})(?:st|nd|rd|th|er|º)?\\.?(?:\\s*(?:of|de)\\s+|[\\s\\-/.]+)(${MONTH_NAME_SOURCE})\\.?(?![\\p{L}])(?:\\s*(?:de|,)\\s*|[\\s\\-/.,]+)'?(\\d{4}|\\d{2})(?![\\p{N}])(?!,?\\s\\d{4}(?![\\p{N}]))`,
  'giu',
);
const MONTH_NAME_DAY_RE = new RegExp(
  `(?<![\\p{L}])(${MONTH_NAME_SOURCE})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?![\\p{N}]),?\\s+(\\d{4})(?![\\p{N}])`,
  'giu',
);
const RESIDUE_RE = new RegExp(
  `(?<![\\p{L}])(?:${WEEKDAY_SOURCE}|the|on|le|den|am|el)\\.?(?![\\p{L}])|\\d{1,2}:\\d{2}(?::\\d{2})?\\s*(?:am|pm)?|[\\s,.;:()\\[\\]]+`,
  'giu',
);

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function expandYear(y: string): number {
  const n = Number(y);
  if (y.length === 4) return n;
  return n < 70 ? 2000 + n : 1900 + n;
}

/** `YYYY-MM-DD` for a real calendar day between 1900 and 2199, else null. */
export function isoDate(y: number, m: number, d: number): string | null {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return null;
  if (y < 1900 || y > 2199 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Whether an ISO date can be a document's own date: from 1980 to next year. A date far ahead is
 * a reference number read as a date ("2031-0523"), or a validity date, not when it was issued.
 */
export function plausibleDocumentDate(iso: string, now: Date = new Date()): boolean {
  const y = Number(iso.slice(0, 4));
  return y >= 1980 && y <= now.getUTCFullYear() + 1;
}

/** Finds every recognisable date in `text`, in order, without overlaps. */
export function findDates(text: string, opts: DateOptions = {}): FoundDate[] {
  const dayFirst = opts.dayFirst ?? true;
  const found: FoundDate[] = [];
  for (const m of allMatches(ISO_RE, text)) {
    const iso = isoDate(Number(m[1]), Number(m[3]), Number(m[4]));
    if (iso) found.push({ iso, raw: m[0], index: m.index ?? 0, ambiguous: false });
  }
  for (const m of allMatches(NUMERIC_RE, text)) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const y = expandYear(m[4]);
    let iso: string | null;
    let ambiguous = false;
    if (m[2] === '.' || a > 12) iso = isoDate(y, b, a);
    else if (b > 12) iso = isoDate(y, a, b);
    else {
      ambiguous = a !== b;
      iso = dayFirst ? isoDate(y, b, a) : isoDate(y, a, b);
    }
    if (iso) found.push({ iso, raw: m[0], index: m.index ?? 0, ambiguous });
  }
  for (const m of allMatches(DAY_MONTH_NAME_RE, text)) {
    const month = monthFromName(m[2]);
    const iso = month ? isoDate(expandYear(m[3]), month, Number(m[1])) : null;
    if (iso) found.push({ iso, raw: m[0], index: m.index ?? 0, ambiguous: false });
  }
  for (const m of allMatches(MONTH_NAME_DAY_RE, text)) {
    const month = monthFromName(m[1]);
    const iso = month ? isoDate(Number(m[3]), month, Number(m[2])) : null;
    if (iso) found.push({ iso, raw: m[0], index: m.index ?? 0, ambiguous: false });
  }
  found.sort((x, y) => x.index - y.index || y.raw.length - x.raw.length);
  const out: FoundDate[] = [];
  let end = -1;
  for (const f of found) {
    if (f.index < end) continue;
    out.push(f);
    end = f.index + f.raw.length;
  }
  return out;
}

/**
 * Parses a string that is a date (possibly with a weekday or a time around it) into
 * `YYYY-MM-DD`. Explicit `formats` are tried first. Returns null for anything else.
 */
export function parseDate(input: string, opts: DateOptions = {}): string | null {
  // A space before a comma is an artefact of text extraction ("Aug 3 , 2014").
  const s = input.trim().replace(/\s+,/g, ',');
  if (s === '' || s.length > 80) return null;
  for (const f of opts.formats ?? []) {
    const r = parseDateWithFormat(s, f);
    if (r) return r;
  }
  const found = findDates(s, opts);
  if (found.length !== 1) return null;
  const f = found[0];
  const residue = (s.slice(0, f.index) + ' ' + s.slice(f.index + f.raw.length)).replace(RESIDUE_RE, '');
  return residue === '' ? f.iso : null;
}

/**
 * Guesses day/month order from the document's own `/` and `-` dates: any first value above 12
 * proves day-first, any second value above 12 proves month-first. Returns null without evidence.
 */
export function inferDayFirst(text: string): boolean | null {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const m of allMatches(NUMERIC_RE, text)) {
    if (m[2] === '.') {
      dayFirst++;
      continue;
    }
    const a = Number(m[1]);
    const b = Number(m[3]);
    if (a > 12 && b <= 12) dayFirst++;
    else if (b > 12 && a <= 12) monthFirst++;
  }
  if (dayFirst === monthFirst) return null;
  return dayFirst > monthFirst;
}

const DIRECTIVES: Record<string, string> = {
  d: '(?<d>\\d{1,2})',
  e: '\\s?(?<d>\\d{1,2})',
  m: '(?<m>\\d{1,2})',
  Y: '(?<Y>\\d{4})',
  y: '(?<y>\\d{2})',
  b: `(?<b>${MONTH_NAME_SOURCE})\\.?`,
  B: `(?<b>${MONTH_NAME_SOURCE})\\.?`,
  h: `(?<b>${MONTH_NAME_SOURCE})\\.?`,
  a: '\\p{L}+\\.?',
  A: '\\p{L}+',
  H: '\\d{1,2}',
  I: '\\d{1,2}',
  M: '\\d{1,2}',
  S: '\\d{1,2}',
  f: '\\d{1,6}',
  p: '(?:am|pm|a\\.m\\.|p\\.m\\.)',
  z: '(?:Z|[+-]\\d{2}:?\\d{2})',
  Z: '[A-Za-z]{1,5}',
  '%': '%',
};

/**
 * Converts a strftime-like format into a regex source, or returns an error message for an
 * unsupported directive or a format without day, month and year.
 */
export function compileDateFormat(format: string): { ok: true; source: string } | { ok: false; message: string } {
  let src = '';
  const seen = new Set<string>();
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c === '%') {
      let d = format[i + 1];
      if (d === '-' || d === '#') d = format[++i + 1]; // %-d / %#d: no zero padding, same input
      const re = d === undefined ? undefined : DIRECTIVES[d];
      if (re === undefined)
        return { ok: false, message: `unsupported directive %${d ?? ''} in date format "${format}"` };
      if (d === 'd' || d === 'e') {
        if (seen.has('d')) return { ok: false, message: `day appears twice in date format "${format}"` };
        seen.add('d');
      }
      if (d === 'm' || d === 'b' || d === 'B' || d === 'h') {
        if (seen.has('m')) return { ok: false, message: `month appears twice in date format "${format}"` };
        seen.add('m');
      }
      if (d === 'Y' || d === 'y') {
        if (seen.has('y')) return { ok: false, message: `year appears twice in date format "${format}"` };
        seen.add('y');
      }
      src += re;
      i++;
    } else if (/\s/.test(c)) {
      src += '\\s+';
      while (i + 1 < format.length && /\s/.test(format[i + 1])) i++;
    } else if (/[,.;:/-]/.test(c)) {
      // Punctuation may have stray spaces before it in extracted text ("Aug 3 , 2014").
      src += `\\s*${c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s*`;
    } else {
      src += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  if (!(seen.has('d') && seen.has('m') && seen.has('y'))) {
    return { ok: false, message: `date format "${format}" needs a day, a month and a year` };
  }
  return { ok: true, source: src };
}

/** Parses `input` with one strftime-like format; null when it does not fit or is no real day. */
export function parseDateWithFormat(input: string, format: string): string | null {
  const c = compileDateFormat(format);
  if (!c.ok) return null;
  // Formats come from templates: run them on the linear-time engine (`%a%a%a…` would backtrack).
  const r = compileUserRegex(`^\\s*${c.source}\\s*$`, { dialect: 'javascript', flags: 'i' });
  if (!r.ok) return null;
  const g = r.regex.exec(input)?.named;
  if (!g) return null;
  const month = g.m !== undefined ? Number(g.m) : g.b !== undefined ? monthFromName(g.b) : null;
  const year = g.Y !== undefined ? Number(g.Y) : g.y !== undefined ? expandYear(g.y) : null;
  if (month === null || year === null) return null;
  return isoDate(year, month, Number(g.d));
}
