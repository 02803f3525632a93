/**
 * Text → feature tokens for the document-type classifier.
 *
 * Numbers, dates, amounts, IBANs and similar are replaced by shape tokens (`_amount_`, `_date_`,
 * …) before splitting: the exact value never matters for the document type, but the fact that a
 * text is full of amounts or dates does. Accents are folded so "Numéro" and "Numero" (a common
 * OCR/keyboard variant) share features.
 */
import { DEFAULT_MAX_CHARS } from './long-text.js';

/** Feature extraction options. Stored in the model so prediction uses the same settings. */
export interface TokenizeOptions {
  /** Add adjacent-word bigrams (`w1 w2`). Default `true`. */
  bigrams?: boolean;
  /**
   * Character n-gram sizes taken inside words of at least 4 letters, with `<`/`>` word boundaries.
   * They keep OCR-damaged words ("lnvoice", "Rechnumg") close to the clean ones. Default `[4]`;
   * `[]` disables them.
   */
  charNgrams?: number[];
  /** Words shorter than this are dropped (shape tokens are always kept). Default 2. */
  minWordLength?: number;
  /**
   * Characters of a document that are read; a longer one is read as evenly spaced windows from
   * start to end (`classificationText`). Default {@link DEFAULT_MAX_CHARS}.
   */
  maxChars?: number;
}

export const DEFAULT_TOKENIZE_OPTIONS: Required<TokenizeOptions> = {
  bigrams: true,
  charNgrams: [4],
  minWordLength: 2,
  maxChars: DEFAULT_MAX_CHARS,
};

// Order matters: the more specific shapes must be replaced before the generic number rule.
const SHAPES: Array<[RegExp, string]> = [
  [/\b[a-z]{2}\d{2}(?: ?[a-z0-9]{4}){2,7}(?: ?[a-z0-9]{1,4})?\b/g, ' _iban_ '],
  [/[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/g, ' _email_ '],
  [/\b(?:https?:\/\/|www\.)\S+/g, ' _url_ '],
  [/\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b/g, ' _date_ '],
  [/\b\d{1,2}:\d{2}(?::\d{2})?\b/g, ' _time_ '],
  [/\d+(?:[.,]\d+)?\s?%/g, ' _pct_ '],
  [/(?:\*{2,}|x{4,})\s?(?:\*{4}\s?)*\d{4}\b/g, ' _masked_ '],
  [/-?\d{1,3}(?:[., ]\d{3})*[.,]\d{2}\b/g, ' _amount_ '],
  [/\b(?:19|20)\d{2}\b/g, ' _year_ '],
  [/[$£€¥]/g, ' _cur_ '],
];

/** Lower-case, fold accents, and collapse everything that is not a letter or digit. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * Word-level tokens: letters-only words plus shape tokens and length-bucketed numbers
 * (`_num4_` for a four-digit number), in reading order.
 */
export function wordTokens(text: string, minWordLength = DEFAULT_TOKENIZE_OPTIONS.minWordLength): string[] {
  let t = normalizeText(text);
  for (const [re, token] of SHAPES) t = t.replace(re, token);
  const out: string[] = [];
  for (const m of t.matchAll(/_[a-z0-9]+_|\p{L}+|\d+/gu)) {
    const w = m[0];
    if (w.startsWith('_')) out.push(w);
    else if (/^\d/.test(w)) out.push(`_num${Math.min(w.length, 8)}_`);
    else if (w.length >= minWordLength) out.push(w);
  }
  return out;
}

/** Call `emit` for every feature of a text, repeats included, in a fixed order. */
export function eachFeature(text: string, options: TokenizeOptions, emit: (feature: string) => void): void {
  const opts = { ...DEFAULT_TOKENIZE_OPTIONS, ...options };
  const words = wordTokens(text, opts.minWordLength);
  for (const w of words) emit(w);
  if (opts.bigrams) {
    for (let i = 1; i < words.length; i++) emit(`${words[i - 1]} ${words[i]}`);
  }
  if (opts.charNgrams.length > 0) {
    // Character n-grams depend only on the word: compute them once per distinct word.
    const seen = new Map<string, number>();
    for (const w of words) {
      if (w.length >= 4 && !w.startsWith('_')) seen.set(w, (seen.get(w) ?? 0) + 1);
    }
    for (const [w, count] of seen) {
      const padded = `<${w}>`;
      for (const n of opts.charNgrams) {
        for (let i = 0; i + n <= padded.length; i++) {
          const g = `#${padded.slice(i, i + n)}`;
          for (let k = 0; k < count; k++) emit(g);
        }
      }
    }
  }
}

/** All features of a text (with repeats; TF-IDF counts them). */
export function featureTokens(text: string, options: TokenizeOptions = {}): string[] {
  const out: string[] = [];
  eachFeature(text, options, (f) => out.push(f));
  return out;
}

/** Feature → occurrence count; what TF-IDF needs, without materialising every repeat. */
export function featureCounts(text: string, options: TokenizeOptions = {}): Map<string, number> {
  const counts = new Map<string, number>();
  eachFeature(text, options, (f) => counts.set(f, (counts.get(f) ?? 0) + 1));
  return counts;
}
