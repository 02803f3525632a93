/** IBAN validation (ISO 13616 mod-97) and discovery in free text. */
import { allMatches } from './text.js';

// Registered IBAN lengths per country. Unknown countries fall back to the 15-34 range.
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

/** Removes spaces and upper-cases: "de89 3704 …" -> "DE893704…". */
export function compactIban(s: string): string {
  return s.replace(/[\s-]+/g, '').toUpperCase();
}

/** Groups of four, the printed form: "DE89 3704 0044 0532 0130 00". */
export function formatIban(s: string): string {
  return compactIban(s).replace(/(.{4})(?=.)/g, '$1 ');
}

function mod97(compact: string): number {
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    // Letters expand to two digits (A=10 … Z=35); fold digit by digit to stay in safe integers.
    const digits = code >= 65 && code <= 90 ? String(code - 55) : ch;
    for (const d of digits) rem = (rem * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rem;
}

/** True when `s` is a structurally valid IBAN with a correct mod-97 checksum. */
export function isValidIban(s: string): boolean {
  const c = compactIban(s);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(c)) return false;
  const expected = IBAN_LENGTHS[c.slice(0, 2)];
  if (expected !== undefined && c.length !== expected) return false;
  return mod97(c) === 1;
}

/** An IBAN-looking string found in text. */
export interface FoundIban {
  /** Compact form, e.g. "DE89370400440532013000". */
  iban: string;
  index: number;
  valid: boolean;
}

const CANDIDATE_RE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]){11,34}/g;

/**
 * Finds IBANs in text. Printed IBANs are grouped by spaces and often followed by more
 * capitals ("… 0130 00 BIC …"), so each greedy candidate is cut back to the country's length,
 * or to the longest prefix with a valid checksum for unlisted countries.
 */
export function findIbans(text: string): FoundIban[] {
  const out: FoundIban[] = [];
  for (const m of allMatches(CANDIDATE_RE, text)) {
    const compact = compactIban(m[0]);
    const len = IBAN_LENGTHS[compact.slice(0, 2)];
    if (len !== undefined) {
      if (compact.length < len) continue;
      const iban = compact.slice(0, len);
      out.push({ iban, index: m.index ?? 0, valid: mod97(iban) === 1 });
      continue;
    }
    let found: string | null = null;
    for (let l = Math.min(34, compact.length); l >= 15 && !found; l--) {
      if (mod97(compact.slice(0, l)) === 1) found = compact.slice(0, l);
    }
    if (found) out.push({ iban: found, index: m.index ?? 0, valid: true });
  }
  return out;
}

const BIC_RE =
  /(?<![\p{L}])(?:BIC|SWIFT(?:[\s-]?(?:code|BIC))?)(?:\s*\/\s*SWIFT)?\s*[:.]?\s*([A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)(?![A-Za-z0-9])/gu;

/** The first BIC printed after a "BIC"/"SWIFT" label, or null. */
export function findBic(text: string): string | null {
  for (const m of allMatches(BIC_RE, text)) return m[1];
  return null;
}
