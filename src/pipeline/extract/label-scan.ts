/**
 * Label-anchored value lookup: find a label ("Invoice No", "Fällig am", "Montant TTC") in a
 * line and read the value after it on the same line, on the next line when the label stands
 * alone, or in the same column of the next line when the document lays labels out as a
 * header row ("Invoice No.    Date" over "INV-7    05.03.2024").
 */
import { findAmounts, type AmountOptions } from './amounts.js';
import { findDates, parseDate, plausibleDocumentDate, type DateOptions } from './dates.js';
import { MAX_LINE, allMatches, hasDigit, hasLetter, nextNonEmpty, stripLeadingSeparators } from './text.js';

/** The document as the generic extractors see it. */
export interface Doc {
  text: string;
  lines: string[];
  amountOpts: AmountOptions;
  dateOpts: DateOptions;
}

/** A label pattern. `weight` ranks labels of one field (1 = the most specific wording). */
export interface LabelSpec {
  re: RegExp;
  weight: number;
}

/**
 * The labels of one field. `any` matches when any of them does: one cheap test per line
 * before the individual patterns run (most lines carry none of a field's labels).
 */
export interface LabelSet {
  specs: readonly LabelSpec[];
  any: RegExp;
}

const WRAP = (src: string): string => `(?<![\\p{L}\\p{N}])(?:${src})(?![\\p{L}])`;

/** Builds a label set from regex sources; labels match whole words, case-insensitively. */
export function labels(entries: ReadonlyArray<readonly [string, number]>): LabelSet {
  // Words of one label are one or two spaces apart; a wider gap is a column break, and a
  // label must not span columns ("Date          Due Date" is not "date due").
  const tight = entries.map(
    ([src, weight]) => [src.replace(/\\s\+/g, ' {1,2}').replace(/\\s\*/g, ' {0,2}'), weight] as const,
  );
  return {
    specs: tight.map(([src, weight]) => ({ re: new RegExp(WRAP(src), 'iu'), weight })),
    any: new RegExp(WRAP(tight.map(([src]) => src).join('|')), 'iu'),
  };
}

/** One set made of several (e.g. every label that ends an item table). */
export function mergeLabels(...sets: readonly LabelSet[]): LabelSet {
  return {
    specs: sets.flatMap((s) => s.specs),
    any: new RegExp(sets.map((s) => s.any.source).join('|'), 'iu'),
  };
}

const MAX_HITS = 200;

export type Placement = 'same-line' | 'next-line' | 'column';

export interface LabelHit<T> {
  value: T;
  weight: number;
  line: number;
  placement: Placement;
  /** The whole line the label was on (for per-field exclusions and rate lookups). */
  labelLine: string;
}

export interface ScanOptions {
  /** Skip a hit when this returns true for the label's line and the text after the label. */
  exclude?: (line: string, rest: string) => boolean;
  /** Labels below this weight only read values on their own line. Default 0.9. */
  strongWeight?: number;
  /**
   * Let weak labels read the cell below them in a header row too. Safe for values that cannot
   * be confused with a table row (dates); default false.
   */
  weakColumns?: boolean;
}

interface Span {
  start: number;
  end: number;
  text: string;
}

const CELL_RE = /[^\t ]+(?: [^\t ]+)*/g;

function cellSpans(line: string): Span[] {
  const spans: Span[] = [];
  for (const m of allMatches(CELL_RE, line)) {
    spans.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, text: m[0] });
  }
  return spans;
}

function columnValue(labelLine: string, labelIndex: number, nextLine: string): string | null {
  const head = cellSpans(labelLine);
  const next = cellSpans(nextLine);
  if (head.length < 2 || next.length < 2) return null;
  const k = head.findIndex((s) => labelIndex >= s.start && labelIndex < s.end);
  if (k < 0) return null;
  // Tab-separated rows are aligned by cell index, space-aligned rows by character overlap.
  if (labelLine.includes('\t') || head.length === next.length) return next[k]?.text ?? null;
  const h = head[k];
  let best: Span | null = null;
  let bestOverlap = 0;
  for (const s of next) {
    const overlap = Math.min(h.end, s.end) - Math.max(h.start, s.start);
    if (overlap > bestOverlap) {
      best = s;
      bestOverlap = overlap;
    }
  }
  return best?.text ?? null;
}

/** Every place where one of `specs` labels a value that `accept` understands. */
export function scanLabels<T>(
  doc: Doc,
  set: LabelSet,
  accept: (s: string) => T | null,
  opts: ScanOptions = {},
): LabelHit<T>[] {
  const strong = opts.strongWeight ?? 0.9;
  const hits: LabelHit<T>[] = [];
  const { lines } = doc;
  // A real document labels a field a handful of times; hundreds of hits mean junk input, and
  // the cap keeps such input from costing more than a real document.
  for (let i = 0; i < lines.length && hits.length < MAX_HITS; i++) {
    const line = lines[i];
    if (line.length === 0 || line.length > MAX_LINE || !set.any.test(line)) continue;
    for (const spec of set.specs) {
      const m = spec.re.exec(line);
      if (!m) continue;
      const restRaw = line.slice(m.index + m[0].length);
      const rest = stripLeadingSeparators(restRaw);
      if (opts.exclude?.(line, rest)) continue;
      const same = rest === '' ? null : accept(rest);
      if (same !== null) {
        hits.push({ value: same, weight: spec.weight, line: i, placement: 'same-line', labelLine: line });
        continue;
      }
      const labelAlone = rest === '' && line.slice(0, m.index).trim() === '';
      if (labelAlone || spec.weight >= strong || (opts.weakColumns === true && !/\d/.test(line))) {
        const j = nextNonEmpty(lines, i, labelAlone ? 2 : 1);
        if (j < 0) continue;
        if (labelAlone) {
          const v = accept(lines[j].trim());
          if (v !== null) {
            hits.push({ value: v, weight: spec.weight * 0.95, line: j, placement: 'next-line', labelLine: line });
          }
          continue;
        }
        const cell = columnValue(line, m.index, lines[j]);
        const v = cell === null ? null : accept(cell);
        if (v !== null)
          hits.push({ value: v, weight: spec.weight * 0.9, line: j, placement: 'column', labelLine: line });
      }
    }
  }
  return hits;
}

/** Highest weight wins; ties go to the first (or last) occurrence. */
export function bestHit<T>(hits: readonly LabelHit<T>[], tie: 'first' | 'last' = 'first'): LabelHit<T> | null {
  let best: LabelHit<T> | null = null;
  for (const h of hits) {
    if (!best || h.weight > best.weight || (tie === 'last' && h.weight === best.weight)) best = h;
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Value readers for scanLabels.

/** Reads an amount: the first one printed with decimals, else the last (or always the last). */
export function amountReader(doc: Doc, pick: 'first-decimal' | 'last' = 'first-decimal') {
  return (s: string): number | null => {
    let t = s;
    // Dates on the same line ("due 05/04/2024") must not be read as amounts.
    for (const d of findDates(s, doc.dateOpts)) t = t.replace(d.raw, ' '.repeat(d.raw.length));
    const amounts = findAmounts(t, doc.amountOpts);
    if (amounts.length === 0) return null;
    if (pick === 'first-decimal') {
      const dec = amounts.find((a) => /[.,]\d{1,2}\)?-?$/.test(a.raw));
      if (dec) return dec.value;
    }
    return amounts[amounts.length - 1].value;
  };
}

export interface DateValue {
  iso: string;
  ambiguous: boolean;
}

/** Reads the first date in the text. */
export function dateReader(doc: Doc) {
  return (s: string): DateValue | null => {
    const d = findDates(s, doc.dateOpts).find((x) => plausibleDocumentDate(x.iso));
    return d ? { iso: d.iso, ambiguous: d.ambiguous } : null;
  };
}

/**
 * Reads an identifier such as "INV-2024-0042" or "RE 12345": a token with a digit, not a date.
 * `maxTokens` limits how far after the label we look.
 */
/** Short words after a number label that are not part of the number ("No", "Nr", "de"). */
const NUMBER_WORDS = /^(?:n[°ºo]?|nr|num|no|de|du|of|the|vat)$/i;

export function idReader(minLength = 1, maxTokens = 2) {
  return (s: string): string | null => {
    const tokens = s.split(/\s+/).slice(0, maxTokens + 1);
    for (let i = 0; i < Math.min(maxTokens, tokens.length); i++) {
      const raw = tokens[i];
      // "#123" keeps its hash (numbers are often written so); a hash alone or before ":" does not.
      const t = /^#\p{N}/u.test(raw) ? raw.replace(/[.,;:)]+$/g, '') : raw.replace(/^[#:(]+|[.,;:)]+$/g, '');
      if (t === '') continue;
      if (/^\p{L}+$/u.test(t)) {
        // A short capital prefix before the digits belongs to the number ("F 1234K").
        const next = tokens[i + 1]?.replace(/[.,;:)]+$/g, '');
        if (/^\p{Lu}{1,3}$/u.test(t) && !NUMBER_WORDS.test(t) && next && /^\p{N}[\p{L}\p{N}\-_/.]*$/u.test(next))
          if (parseDate(next) === null && next.length + t.length < 40) return `${t} ${next}`;
        // A plain word ("Date", "vom") means the label was followed by something else.
        if (t.length > 3) return null;
        continue;
      }
      if (!hasDigit(t) || t.length < minLength || t.length > 40) continue;
      if (!/^#?[\p{L}\p{N}][\p{L}\p{N}\-_/.]*$/u.test(t)) continue;
      if (parseDate(t) !== null) continue;
      return t;
    }
    return null;
  };
}

/** Reads a short free-text value (a name), up to the next column gap. */
export function textReader(maxLength = 100) {
  return (s: string): string | null => {
    const t = s
      .split(/\t| {2,}/)[0]
      .trim()
      .replace(/[,;:]+$/, '');
    if (t.length < 2 || t.length > maxLength || !hasLetter(t)) return null;
    return t;
  };
}
