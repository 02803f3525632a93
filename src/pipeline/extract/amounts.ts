/**
 * Money amounts in either decimal convention. The convention is decided from the string
 * itself; only a lone `,` or `.` followed by exactly three digits (`1,234`) is ambiguous, and
 * there the caller's `decimalSeparator` hint decides.
 */
import { allMatches } from './text.js';

/** Options for {@link parseAmount}. */
export interface AmountOptions {
  /**
   * Decimal separator to assume for ambiguous strings such as `1,234` or `1.234`.
   * Default: undefined — such strings are read with a thousands separator (1234), unless the
   * integer part is `0` or longer than three digits (then the separator must be decimal).
   */
  decimalSeparator?: ',' | '.';
  /**
   * Whether a space may group thousands (`1 234,56`, as French and Nordic documents write).
   * Default true. In a document that groups with `.` or `,`, or writes in German or English,
   * `3 250,00` is a quantity and a price in adjacent columns, not 3250.
   */
  spaceGroups?: boolean;
}

// Symbols and codes that may precede or follow the number. Codes are any three capitals so
// that rarer currencies still parse; detection of *which* currency lives in currency.ts.
const CURRENCY_AFFIX = '(?:[A-Z]{3}|US\\$|[A-Z]{1,2}\\$|[€$£¥₹₽₩₺₪₫฿₴₦]|S?Fr\\.?|kr\\.?|zł|Kč|Ft|lei)';
const PLAIN = /^(\d+)(?:[.,](\d{1,2}))?$/;
const LEADING_CURRENCY = new RegExp(`^([-−+]?)\\s*${CURRENCY_AFFIX}\\s*`, 'u');
const TRAILING_CURRENCY = new RegExp(`\\s*${CURRENCY_AFFIX}$`, 'u');

/**
 * Parses one amount such as `1,234.56`, `1.234,56 €`, `CHF 1'234.50`, `-12.50`, `(12.50)`,
 * `12,50-`. Returns null for anything that is not exactly one well-formed number (bad digit
 * grouping, stray letters, several numbers).
 */
export function parseAmount(raw: string, opts: AmountOptions = {}): number | null {
  // Fast path for the common table cell: digits with at most one separator and cents.
  const plain = PLAIN.exec(raw);
  if (plain) return Number(plain[2] === undefined ? plain[1] : `${plain[1]}.${plain[2]}`);
  let s = raw.replace(/[\u00a0\u2007\u202f]/g, ' ').trim();
  if (s === '' || s.length > 64) return null;
  let negative = false;
  if (s.startsWith('(') && s.endsWith(')')) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  s = s.replace(LEADING_CURRENCY, '$1').replace(TRAILING_CURRENCY, '');
  const sign = /^([-−+])\s*/.exec(s);
  if (sign) {
    if (sign[1] !== '+') negative = !negative;
    s = s.slice(sign[0].length);
  } else if (/\d\s*-$/.test(s)) {
    // Accounting notation used on German bank statements: "12,50-".
    negative = !negative;
    s = s.replace(/\s*-$/, '');
  }
  if (s.startsWith('(') && s.endsWith(')')) {
    negative = !negative;
    s = s.slice(1, -1).trim();
  }
  if (!/^\d[\d.,'’ ]*$/.test(s) || !/\d$/.test(s)) return null;
  if (opts.spaceGroups === false && s.includes(' ')) return null;
  const value = parseUnsigned(s, opts.decimalSeparator);
  if (value === null) return null;
  const signed = negative ? -value : value;
  return Object.is(signed, -0) ? 0 : signed;
}

function parseUnsigned(s: string, hint: ',' | '.' | undefined): number | null {
  const parts = s.split(/[.,'’ ]/);
  const seps = s.match(/[.,'’ ]/g) ?? [];
  if (parts.some((p) => p === '' || !/^\d+$/.test(p))) return null;
  if (seps.length === 0) return Number(s);

  const last = seps[seps.length - 1];
  const dots = seps.filter((c) => c === '.').length;
  const commas = seps.filter((c) => c === ',').length;
  const others = seps.length - dots - commas;
  let decimalAt = -1; // index into seps of the decimal separator, or -1 for an integer

  if (last === '.' || last === ',') {
    const count = last === '.' ? dots : commas;
    const otherMark = last === '.' ? commas : dots;
    const tail = parts[parts.length - 1];
    if (otherMark > 0) {
      // Both marks present: the last one is decimal and must occur once.
      if (count !== 1) return null;
      decimalAt = seps.length - 1;
    } else if (count === 1) {
      if (tail.length !== 3 || others > 0) decimalAt = seps.length - 1;
      else if (hint) decimalAt = hint === last ? seps.length - 1 : -1;
      else if (parts[0] === '0' || parts[0].length > 3) decimalAt = seps.length - 1;
    }
  }

  const intParts = decimalAt === -1 ? parts : parts.slice(0, -1);
  const groupSeps = decimalAt === -1 ? seps : seps.slice(0, -1);
  if (groupSeps.length > 0) {
    // Thousands grouping must be consistent: one separator kind, groups of exactly three.
    if (new Set(groupSeps.map((c) => (c === '’' ? "'" : c))).size !== 1) return null;
    if (intParts[0].length > 3) return null;
    if (intParts.slice(1).some((p) => p.length !== 3)) return null;
  }
  const intDigits = intParts.join('');
  const text = decimalAt === -1 ? intDigits : `${intDigits}.${parts[parts.length - 1]}`;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** An amount located in a longer text. */
export interface FoundAmount {
  value: number;
  raw: string;
  index: number;
}

// Candidate amount tokens in running text. Not preceded by a digit or separator, not followed
// by another digit group (so "05.03.2024" never yields "05.03") nor by a percent sign.
// Spaces count as thousands separators only before exactly three digits.
const AMOUNT_TOKEN =
  /(?:(?<![\p{L}\p{N}])[-−]\s?)?\(?(?:[$€£¥₹]\s?)?(?<![\p{N}.,'’])(?:\d{1,3}(?:(?:[.,'’]|[ ](?=\d{3}(?!\p{N})))\d{3})+|\d+)(?:[.,]\d{1,2})?\)?(?:-(?=\s|$))?(?![.,]?\p{N})(?!\s?%)/gu;

const AMOUNT_TOKEN_NO_SPACE = new RegExp(
  AMOUNT_TOKEN.source.replace('|[ ](?=\\d{3}(?!\\p{N}))', ''),
  AMOUNT_TOKEN.flags,
);

/** Finds every well-formed amount in `text`, in order. */
export function findAmounts(text: string, opts: AmountOptions = {}): FoundAmount[] {
  const out: FoundAmount[] = [];
  const normalised = text.replace(/[\u00a0\u2007\u202f]/g, ' ');
  for (const m of allMatches(opts.spaceGroups === false ? AMOUNT_TOKEN_NO_SPACE : AMOUNT_TOKEN, normalised)) {
    let raw = m[0];
    let index = m.index ?? 0;
    const opens = raw.startsWith('(') || raw.startsWith('-(') || raw.startsWith('−(');
    const closes = raw.endsWith(')');
    if (opens && !closes) {
      const cut = raw.indexOf('(') + 1;
      raw = raw.slice(cut);
      index += cut;
    } else if (closes && !opens) {
      raw = raw.slice(0, -1);
    }
    const value = parseAmount(raw, opts);
    if (value !== null) out.push({ value, raw, index });
  }
  return out;
}

/** Rounds to cents; avoids 0.1 + 0.2 noise in sums and comparisons. */
export function roundMoney(n: number): number {
  return Math.round(n * 100) / 100;
}

/** True when two amounts agree within a cent or 0.5 % (rounding on printed invoices). */
export function amountsAgree(a: number, b: number): boolean {
  const diff = Math.abs(a - b);
  return diff <= 0.011 || diff <= Math.abs(b) * 0.005;
}
