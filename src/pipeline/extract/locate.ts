/**
 * Finding a value in the text it was read from: where an extracted value is (for its position
 * on the page) and where a corrected value is (for learning a template from it). The value is
 * looked up by what it is, not by how an extractor found it: amounts by their numeric value in
 * any notation, dates by the day they name, text by its words (case and spacing aside).
 */
import { parseAmount } from './amounts.js';
import { currencyMark } from './currency.js';
import { findDates } from './dates.js';

export interface TextSpan {
  start: number;
  end: number;
}

/** Field names whose value is a total: of several equal amounts the labelled or last one is meant. */
const TOTAL_NAME = /total|amount|sum|due|balance|betrag|montant|importe|totaal/i;
const TOTAL_LINE = /total|gesamt|summe|betrag|amount|montant|importe|totaal|due|balance|razem|totale|zu zahlen|payer/i;
const DATE_LINE = /dat[eua]|fecha|issued|invoice|rechnung|factur/i;
const NUMBER_TOKEN = /\d(?:[\d.,'’]*\d)?/g;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}/;

function lineOf(text: string, at: number): string {
  const s = text.lastIndexOf('\n', at - 1) + 1;
  const e = text.indexOf('\n', at);
  return text.slice(s, e < 0 ? text.length : e);
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

/** End of the line holding `at` (for searching the next table row after this one). */
export function lineEnd(text: string, at: number): number {
  const e = text.indexOf('\n', at);
  return e < 0 ? text.length : e;
}

/**
 * The numbers and dates of the last text looked at, worked out once: positions are looked up
 * for every field of a document in the same text, and tokenising it per field would cost more
 * than extraction itself.
 */
let memo: {
  text: string;
  numbers?: Array<{ start: number; end: number; readings: Array<number | null> }>;
  dates?: Array<{ start: number; end: number; iso: string }>;
  folded?: string;
} = { text: '' };

function memoFor(text: string): typeof memo {
  if (memo.text !== text) memo = { text };
  return memo;
}

function numbersOf(text: string) {
  const m = memoFor(text);
  if (!m.numbers) {
    m.numbers = [];
    NUMBER_TOKEN.lastIndex = 0;
    for (let t = NUMBER_TOKEN.exec(text); t; t = NUMBER_TOKEN.exec(text)) {
      const tok = t[0];
      m.numbers.push({
        start: t.index,
        end: t.index + tok.length,
        readings: [
          parseAmount(tok),
          parseAmount(tok, { decimalSeparator: ',' }),
          parseAmount(tok, { decimalSeparator: '.' }),
        ],
      });
    }
  }
  return m.numbers;
}

function datesOf(text: string) {
  const m = memoFor(text);
  if (!m.dates) {
    // Both readings of an ambiguous date (03/05 as 3 May and as 5 March).
    const seen = new Set<string>();
    m.dates = [];
    for (const dayFirst of [true, false])
      for (const d of findDates(text, { dayFirst }))
        if (!seen.has(`${d.index}:${d.iso}`)) {
          seen.add(`${d.index}:${d.iso}`);
          m.dates.push({ start: d.index, end: d.index + d.raw.length, iso: d.iso });
        }
    m.dates.sort((a, b) => a.start - b.start);
  }
  return m.dates;
}

function numberSpans(text: string, value: number, from: number): TextSpan[] {
  const out: TextSpan[] = [];
  for (const n of numbersOf(text)) {
    if (n.start < from) continue;
    if (n.readings.some((r) => r !== null && Math.abs(Math.abs(r) - Math.abs(value)) < 0.005)) {
      // A minus written before the amount belongs to it.
      const start = value < 0 && text[n.start - 1] === '-' ? n.start - 1 : n.start;
      out.push({ start, end: n.end });
    }
  }
  return out;
}

function dateSpans(text: string, iso: string, from: number): TextSpan[] {
  const day = iso.slice(0, 10);
  const out: TextSpan[] = [];
  let last = -1;
  for (const d of datesOf(text))
    if (d.start >= from && d.iso === day && d.start !== last) {
      out.push({ start: d.start, end: d.end });
      last = d.start;
    }
  return out;
}

function spansOf(text: string, src: string, from: number): TextSpan[] {
  const re = new RegExp(src, 'giu');
  re.lastIndex = from;
  const out: TextSpan[] = [];
  for (let m = re.exec(text); m && out.length < 50; m = re.exec(text)) {
    out.push({ start: m.index, end: m.index + m[0].length });
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

const escapeRe = (w: string): string => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Letters without their accents, one character for one (so offsets stay those of the text):
 * templates with `remove_accents` give "Tschuss" for the printed "Tschüss".
 */
function fold(s: string): string {
  let out = '';
  for (const ch of s) {
    const base = ch.normalize('NFD').replace(/\p{M}+/gu, '');
    out += base.length === 1 && ch.length === 1 ? base : ch === 'ß' ? 's' : ch;
  }
  return out;
}

function textSpans(text: string, value: string, from: number): TextSpan[] {
  const words = value.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0 || value.length > 500) return [];
  const exact = spansOf(text, words.map(escapeRe).join('\\s+'), from);
  if (exact.length > 0) return exact;
  // An identifier printed in groups ("DE12 1234 5678 …" for DE121234…): spaces between its characters.
  if (words.length === 1 && /^[\p{L}\p{N}]{8,64}$/u.test(words[0]) && /\d/.test(words[0])) {
    const spaced = spansOf(text, [...words[0]].map(escapeRe).join('[^\\S\\n]?'), from);
    if (spaced.length > 0) return spaced;
  }
  // Accents removed by the template's options (or typed without them). Plain ASCII has none.
  if (!/[^\x00-\x7f]/.test(text)) return [];
  const m = memoFor(text);
  m.folded ??= fold(text);
  const folded = m.folded;
  if (folded.length !== text.length) return [];
  return spansOf(folded, fold(words.join(' ')).split(' ').map(escapeRe).join('\\s+'), from);
}

/**
 * Every place `value` (a number, an ISO date or text) is written in `text` from `from` on, in
 * text order. Other kinds of values (lists, objects, booleans) are not looked for.
 */
export function findValue(text: string, value: unknown, from = 0): TextSpan[] {
  if (typeof value === 'number' && Number.isFinite(value)) return numberSpans(text, value, from);
  if (typeof value !== 'string' || value.trim() === '') return [];
  if (ISO_DAY.test(value)) {
    const d = dateSpans(text, value, from);
    if (d.length > 0) return d;
  }
  return textSpans(text, value, from);
}

/**
 * The place of a field's value: for totals the one on a total line (the last such, as a grand
 * total follows subtotals), for dates the one on a date line, otherwise the first.
 */
export function locateValue(text: string, name: string, value: unknown, from = 0): TextSpan | null {
  // A currency is written as its code or as a symbol standing for it.
  if (name === 'currency' && typeof value === 'string' && /^[A-Z]{3}$/.test(value)) {
    const at = currencyMark(text.slice(from), value);
    return at ? { start: at.start + from, end: at.end + from } : null;
  }
  const spans = findValue(text, value, from);
  if (spans.length <= 1) return spans[0] ?? null;
  if (typeof value === 'number' && TOTAL_NAME.test(name)) {
    // A label on the value's own line first; else on the line above (receipts print one box per line).
    const same = spans.filter((s) => TOTAL_LINE.test(lineOf(text, s.start)));
    const above = spans.filter((s) => s.start > 0 && TOTAL_LINE.test(lineOf(text, lineStart(text, s.start) - 1)));
    const pick = same.length > 0 ? same : above.length > 0 ? above : spans;
    return pick[pick.length - 1];
  }
  if (typeof value === 'string' && ISO_DAY.test(value)) {
    return spans.find((s) => DATE_LINE.test(lineOf(text, s.start))) ?? spans[0];
  }
  return spans[0];
}
