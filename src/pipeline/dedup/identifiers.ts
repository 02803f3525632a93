// The identifiers of a text (invoice, receipt, order and transaction numbers: tokens with at least
// six digits) decide between "a copy" and "another document of the same issuer" when the shingles
// cannot: two receipts of one order on two days share nearly every shingle, but each carries its
// own number. OCR noise changes a digit or two of a number, or splits it; it does not replace it.
import { normalizeText } from './minhash.js';

const MIN_DIGITS = 6;
/** Letters OCR reads for digits (and back): compared as the digit, so o/0 or b/8 is no difference. */
const CONFUSABLE: Record<string, string> = { o: '0', i: '1', l: '1', b: '8', s: '5', z: '2' };
/** Identifiers compared at most per text (a long text's first ones stand for it). */
const MAX_IDENTIFIERS = 64;

export function identifiers(text: string): string[] {
  const out = new Set<string>();
  for (const token of normalizeText(text).split(' ')) {
    let digits = 0;
    for (let i = 0; i < token.length; i++) if (token.charCodeAt(i) >= 48 && token.charCodeAt(i) <= 57) digits++;
    if (digits >= MIN_DIGITS) out.add(token.replace(/[oilbsz]/g, (c) => CONFUSABLE[c]));
    if (out.size >= MAX_IDENTIFIERS) break;
  }
  return [...out];
}

/** Edit distance of a and b, or `max + 1` once it is certain to exceed `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** Whether `id` is in `others`, allowing an OCR error in about every fifth character. */
function hasNear(id: string, others: readonly string[]): boolean {
  const max = Math.max(1, Math.floor(id.length / 5));
  // A part of a number that noise split is "in" the whole number.
  return others.some((o) => o.includes(id) || id.includes(o) || editDistance(id, o, max) <= max);
}

/**
 * Whether the two texts name different identifiers: each holds one the other lacks (even allowing
 * for OCR errors). One-sided differences do not count: noise can split a number of the original
 * so that the copy lacks it, but cannot make up a new one.
 */
export function differentIdentifiers(a: readonly string[], b: readonly string[]): boolean {
  return a.some((id) => !hasNear(id, b)) && b.some((id) => !hasNear(id, a));
}
