// Near-duplicate fingerprints of a text: character 5-gram shingles of the normalised text (an
// OCR error breaks a few shingles, not a whole word pair), a one-permutation MinHash signature
// with LSH band keys for candidate lookup, and a consistent sample of shingle hashes for the
// weighted comparison of candidates (see similarity.ts). One hash per shingle and no sorting:
// the cost is linear in the (capped) text.

/** Characters of normalised text fingerprinted (a longer text's start stands for it). */
export const MAX_CHARS = 30_000;
const SHINGLE = 5;
/** Signature slots (one-permutation hashing: each slot keeps the least hash of its bucket). */
export const SLOTS = 64;
/** LSH bands × rows = SLOTS: 16 × 4 finds pairs of similarity ≥ 0.6 with probability ≥ 0.89. */
export const BANDS = 16;
/** Signature slots per band: a band matches when all of its slots are equal. */
export const ROWS = SLOTS / BANDS;
/** The sample aims at this many hashes (between this and twice this once a text is long enough). */
const SAMPLE_TARGET = 256;
/** Shingles that contain a digit are marked in the hash's top bit (amounts and dates weigh more). */
const DIGIT_BIT = 0x80000000;

export interface Fingerprint {
  /** Distinct shingles seen. */
  shingles: number;
  /** SLOTS int32 values. */
  signature: number[];
  /** Band keys (safe integers) salted with the tenant, one per band. */
  bandKeys: number[];
  /** The shingle hashes whose lowest `level` bits are zero (int32 values), ascending. */
  sample: number[];
  level: number;
}

export function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hashString(s: string, seed = 0x9747b28c): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return mix(h);
}

/** Lower case, letters and digits only, single spaces (so layout and punctuation noise vanish). */
export function normalizeText(text: string): string {
  return text
    .slice(0, MAX_CHARS * 2)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, MAX_CHARS);
}

/** The hash of the shingle starting at `i` of normalised text `s` (top bit: it holds a digit). */
function shingleAt(s: string, i: number): number {
  let h = 0x811c9dc5;
  let digit = false;
  for (let j = i; j < i + SHINGLE; j++) {
    const c = s.charCodeAt(j);
    if (c >= 48 && c <= 57) digit = true;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return ((mix(h) & 0x7fffffff) | (digit ? DIGIT_BIT : 0)) >>> 0;
}

/** Distinct shingle hashes of a text (top bit: the shingle holds a digit). */
export function shingleHashes(text: string): Set<number> {
  const s = normalizeText(text);
  const out = new Set<number>();
  if (s.length === 0) return out;
  if (s.length < SHINGLE) {
    out.add(hashString(s) & 0x7fffffff);
    return out;
  }
  for (let i = 0; i + SHINGLE <= s.length; i++) out.add(shingleAt(s, i));
  return out;
}

// The same distinct hashes for `fingerprint`, collected in typed arrays kept between calls: a Set
// of a long text's ~25,000 hashes is a megabyte of short-lived tables, and collecting that garbage
// cost the intake check more than the hashing (it lands in later work on the same thread). A text
// has at most MAX_CHARS shingles; the table is at least twice that, and a generation number marks
// its used slots, so it is never cleared.
const TABLE_SIZE = 1 << 16;
const tableKeys = new Uint32Array(TABLE_SIZE);
const tableGen = new Uint32Array(TABLE_SIZE);
const found = new Uint32Array(MAX_CHARS);
let generation = 0;

/** Fills `found` with the text's distinct shingle hashes, in first-seen order; returns how many. */
function collectShingles(text: string): number {
  const s = normalizeText(text);
  if (s.length === 0) return 0;
  if (s.length < SHINGLE) {
    found[0] = hashString(s) & 0x7fffffff;
    return 1;
  }
  generation = (generation + 1) >>> 0;
  if (generation === 0) {
    tableGen.fill(0);
    generation = 1;
  }
  let n = 0;
  for (let i = 0; i + SHINGLE <= s.length; i++) {
    const h = shingleAt(s, i);
    let slot = Math.imul(h, 0x9e3779b1) >>> 16;
    for (;;) {
      if (tableGen[slot] !== generation) {
        tableGen[slot] = generation;
        tableKeys[slot] = h;
        found[n++] = h;
        break;
      }
      if (tableKeys[slot] === h) break;
      slot = (slot + 1) & (TABLE_SIZE - 1);
    }
  }
  return n;
}

/** Whether a sampled hash marks a shingle with a digit. */
export const hasDigit = (h: number): boolean => (h & DIGIT_BIT) !== 0;

/** The sample level for a number of shingles: each level halves the kept share. */
export function sampleLevel(n: number): number {
  let level = 0;
  while (n >> level > SAMPLE_TARGET * 2) level++;
  return level;
}

/** The hashes of `hashes` kept at `level` (consistent: a shingle is kept in every text or none). */
export function sampleAt(hashes: Iterable<number>, level: number): number[] {
  const mask = (1 << level) - 1;
  const out: number[] = [];
  for (const h of hashes) if ((mix(h) & mask) === 0) out.push(h | 0);
  return out.sort((a, b) => a - b);
}

/**
 * `sample` (ascending, at a lower level) re-sampled at `level`: the kept hashes are a subset, so
 * filtering keeps the order and no sort is needed (the sort was a fifth of the comparison's CPU).
 */
export function resample(sample: readonly number[], level: number): number[] {
  const mask = (1 << level) - 1;
  const out: number[] = [];
  for (let i = 0; i < sample.length; i++) if ((mix(sample[i]) & mask) === 0) out.push(sample[i]);
  return out;
}

/**
 * The fingerprint of a text; `salt` (organization and environment) goes into the band keys so
 * that equal texts of two organizations never share a key.
 */
export function fingerprint(text: string, salt: string): Fingerprint | null {
  const n = collectShingles(text);
  return n === 0 ? null : fingerprintOf(found.subarray(0, n), salt);
}

/** The fingerprint of a text's distinct shingle hashes (`hashes` non-empty, each once). */
export function fingerprintOf(hashes: ArrayLike<number> & Iterable<number>, salt: string): Fingerprint {
  const count = hashes.length;
  const slots = new Array<number>(SLOTS).fill(0xffffffff);
  for (let i = 0; i < count; i++) {
    const v = mix(hashes[i] ^ 0x5bd1e995);
    const slot = v % SLOTS;
    if (v < slots[slot]) slots[slot] = v;
  }
  // Densify: an empty slot borrows from the next originally filled one (rotation), so short
  // texts still fill every band, the same way in two texts with the same shingles.
  const filled = slots.map((v) => v !== 0xffffffff);
  for (let i = 0; i < SLOTS; i++) {
    if (filled[i]) continue;
    for (let k = 1; k < SLOTS; k++) {
      const j = (i + k) % SLOTS;
      if (filled[j]) {
        slots[i] = mix(slots[j] ^ Math.imul(k, 0x9e3779b1));
        break;
      }
    }
  }
  const saltHash = hashString(salt);
  const bandKeys: number[] = [];
  for (let b = 0; b < BANDS; b++) {
    let h1 = saltHash ^ Math.imul(b + 1, 0x27d4eb2d);
    let h2 = hashString(salt, 0x1b873593 + b);
    for (let r = 0; r < ROWS; r++) {
      const v = slots[b * ROWS + r];
      h1 = mix(h1 ^ v);
      h2 = mix(Math.imul(h2, 31) ^ v ^ 0x6b43a9b5);
    }
    // 21 + 32 bits: a safe integer that fits PostgreSQL's bigint.
    bandKeys.push((h1 & 0x1fffff) * 0x100000000 + h2);
  }
  const level = sampleLevel(count);
  return {
    shingles: count,
    signature: slots.map((v) => v | 0),
    bandKeys,
    sample: sampleAt(hashes, level),
    level,
  };
}

/** The share of equal signature slots: an estimate of the plain Jaccard similarity. */
export function signatureSimilarity(a: readonly number[], b: readonly number[]): number {
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return a.length === 0 ? 0 : same / a.length;
}
