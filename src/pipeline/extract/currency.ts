/**
 * ISO 4217 currency detection from symbols and codes in free text.
 */
import { allMatches } from './text.js';

// Codes we recognise as currency codes. Three-letter words that are also common English or
// programming words (ALL, TOP, CUP, PHP, BOB, MOP, …) need a number or a currency label next to
// them before they count; see WORDLIKE_CODES.
const CODES = [
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'JPY',
  'CNY',
  'CAD',
  'AUD',
  'NZD',
  'SEK',
  'NOK',
  'DKK',
  'ISK',
  'PLN',
  'CZK',
  'HUF',
  'RON',
  'BGN',
  'HRK',
  'RSD',
  'TRY',
  'RUB',
  'UAH',
  'INR',
  'PKR',
  'BRL',
  'MXN',
  'ARS',
  'CLP',
  'COP',
  'PEN',
  'ZAR',
  'NGN',
  'KES',
  'EGP',
  'MAD',
  'SGD',
  'HKD',
  'KRW',
  'TWD',
  'THB',
  'MYR',
  'IDR',
  'PHP',
  'VND',
  'ILS',
  'AED',
  'SAR',
  'QAR',
  'KWD',
] as const;
const WORDLIKE_CODES = new Set(['PHP', 'PEN', 'MAD', 'TRY', 'ARS', 'COP']);

/** Unambiguous symbols first; multi-character dollar forms before the bare `$`. */
const SYMBOLS: ReadonlyArray<readonly [RegExp, string]> = [
  [/€/g, 'EUR'],
  [/£/g, 'GBP'],
  [/(?<![A-Z])US\$/g, 'USD'],
  [/(?<![A-Z])(?:CA|C)\$/g, 'CAD'],
  [/(?<![A-Z])(?:AU|A)\$/g, 'AUD'],
  [/(?<![A-Z])NZ\$/g, 'NZD'],
  [/(?<![A-Z])HK\$/g, 'HKD'],
  [/(?<![A-Z])S\$/g, 'SGD'],
  [/(?<![A-Z])R\$/g, 'BRL'],
  [/(?<![A-Z])(?:Mex|MX)\$/g, 'MXN'],
  [/(?<![A-Z$])\$/g, 'USD'],
  [/₹/g, 'INR'],
  [/₽/g, 'RUB'],
  [/₩/g, 'KRW'],
  [/₺/g, 'TRY'],
  [/₪/g, 'ILS'],
  [/₫/g, 'VND'],
  [/฿/g, 'THB'],
  [/₴/g, 'UAH'],
  [/₦/g, 'NGN'],
  [/(?:元|RMB)/g, 'CNY'],
  [/[¥￥]/g, 'JPY'],
  [/(?<![\p{L}])(?:SFr\.?|Fr\.)(?=\s?\d)/gu, 'CHF'],
  [/\d\s?(?:Fr\.|SFr\.?)/g, 'CHF'],
  [/(?<![\p{L}])zł(?![\p{L}])/gu, 'PLN'],
  [/(?<![\p{L}])Kč(?![\p{L}])/gu, 'CZK'],
];

const CODE_RE = new RegExp(`(?<![A-Za-z])(${CODES.join('|')})(?![A-Za-z])`, 'g');
const CURRENCY_LABEL = /(?:currency|w[äa]hrung|devise|monnaie|moneda|valuta)\s*[:=]?\s*$/i;

/** Result of {@link detectCurrencyDetailed}. */
export interface CurrencyGuess {
  code: string;
  confidence: number;
}

/**
 * Detects the document currency. Codes next to a number or after a "Currency:" label weigh
 * most; symbols count once per occurrence; a bare word-like code alone counts little.
 * Returns null when nothing currency-like is present.
 */
export function detectCurrencyDetailed(text: string): CurrencyGuess | null {
  const scores = new Map<string, number>();
  const add = (code: string, w: number): void => {
    scores.set(code, (scores.get(code) ?? 0) + w);
  };
  // Each symbol is masked once counted so that "US$" is not counted again as a bare "$".
  for (const [re, code] of SYMBOLS) {
    text = text.replace(re, (m) => {
      add(code, 1);
      return ' '.repeat(m.length);
    });
  }
  for (const m of allMatches(CODE_RE, text)) {
    const code = m[1];
    const i = m.index ?? 0;
    const before = text.slice(Math.max(0, i - 24), i);
    // Receipts and tables put wide gaps between a code and its amount.
    const after = text.slice(i + code.length, i + code.length + 32);
    const nearNumber = /\d[ \t.,]{0,2}$/.test(before) || /^[ \t]*[-−(]?\d/.test(after);
    const labelled = CURRENCY_LABEL.test(before) || (/\(\s*$/.test(before) && /^\s*\)/.test(after));
    if (labelled) add(code, 3);
    else if (nearNumber) add(code, 1.5);
    else if (!WORDLIKE_CODES.has(code)) add(code, 0.5);
  }
  if (scores.size === 0) return null;
  let best = '';
  let bestScore = -1;
  let total = 0;
  for (const [code, s] of scores) {
    total += s;
    if (s > bestScore) {
      best = code;
      bestScore = s;
    }
  }
  const share = bestScore / total;
  // A single weak mention is a guess; several consistent mentions are near certain.
  const strength = Math.min(1, bestScore / 2);
  return { code: best, confidence: Math.min(0.98, 0.45 + 0.5 * share * strength + 0.05 * share) };
}

/** ISO 4217 code of the dominant currency in `text`, or null. */
export function detectCurrency(text: string): string | null {
  return detectCurrencyDetailed(text)?.code ?? null;
}

/** Normalises a template's `currency` option or a symbol to an ISO code when recognisable. */
export function normaliseCurrency(input: string): string {
  const t = input.trim();
  if (/^[A-Za-z]{3}$/.test(t)) return t.toUpperCase();
  return detectCurrency(t) ?? t;
}

/**
 * Where a currency is written: its code as a word, else a symbol that stands for it (the
 * position of a currency detected from "$" or "€"). Null when neither is in the text.
 */
export function currencyMark(text: string, code: string): { start: number; end: number } | null {
  const word = new RegExp(`(?<![\\p{L}])${code.replace(/[^A-Za-z]/g, '')}(?![\\p{L}])`, 'u').exec(text);
  if (word) return { start: word.index, end: word.index + word[0].length };
  for (const [re, c] of SYMBOLS) {
    if (c !== code) continue;
    const m = new RegExp(re.source, re.flags.replace('g', '')).exec(text);
    if (m) return { start: m.index, end: m.index + m[0].length };
  }
  return null;
}
