/**
 * Text → feature tokens for the document-type classifier.
 *
 * Numbers, dates, amounts, IBANs and similar are replaced by shape tokens (`_amount_`, `_date_`,
 * …) before splitting: the exact value never matters for the document type, but the fact that a
 * text is full of amounts or dates does. Accents are folded so "Numéro" and "Numero" (a common
 * OCR/keyboard variant) share features.
 */

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
}

export const DEFAULT_TOKENIZE_OPTIONS: Required<TokenizeOptions> = {
  bigrams: true,
  charNgrams: [4],
  minWordLength: 2,
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
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
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

/** All features of a text (with repeats; TF-IDF counts them). */
export function featureTokens(text: string, options: TokenizeOptions = {}): string[] {
  const opts = { ...DEFAULT_TOKENIZE_OPTIONS, ...options };
  const words = wordTokens(text, opts.minWordLength);
  const out = words.slice();
  if (opts.bigrams) {
    for (let i = 1; i < words.length; i++) out.push(`${words[i - 1]} ${words[i]}`);
  }
  if (opts.charNgrams.length > 0) {
    for (const w of words) {
      if (w.length < 4 || w.startsWith('_')) continue;
      const padded = `<${w}>`;
      for (const n of opts.charNgrams) {
        for (let i = 0; i + n <= padded.length; i++) out.push(`#${padded.slice(i, i + n)}`);
      }
    }
  }
  return out;
}
