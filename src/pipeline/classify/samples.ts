/**
 * Loading the labelled sample set (`<dir>/<type>/*.txt`) and deterministic stratified splits.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { emlToText } from '../parse/eml.js';
import { seededShuffle } from './random.js';

export interface LabelledExample {
  text: string;
  type: string;
}

export interface SampleExample extends LabelledExample {
  /** `<type>/<file>` relative to the sample directory. */
  id: string;
}

/**
 * Bump when what a sample file becomes as text changes (the e-mail conversion below): the cached
 * built-in model is keyed by the samples' raw bytes and this, not by their text, so that a
 * process with a fresh cache never converts them (see `builtin.ts`).
 */
export const SAMPLE_TEXT_VERSION = 1;

/** The sample files of `dir` as `<type>/<file>` paths, ordered by type then name. */
export async function sampleFiles(dir: string): Promise<{ id: string; type: string; path: string }[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const types = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const out: { id: string; type: string; path: string }[] = [];
  for (const type of types) {
    const files = (await readdir(join(dir, type))).filter((f) => f.endsWith('.txt') || f.endsWith('.eml')).sort();
    for (const f of files) out.push({ id: `${type}/${f}`, type, path: join(dir, type, f) });
  }
  return out;
}

/**
 * Read every `<type>/*.txt` and `<type>/*.eml` under `dir`. A `.eml` file is a raw message and is
 * converted exactly as an uploaded one is (headers summary, body, attachment names), so the model
 * learns from the text it will be asked about. Sub-folders without samples (such as the
 * generator's own sources) are ignored. Ordered by type, then file name, so the result is
 * reproducible.
 */
export async function loadSampleSet(dir: string): Promise<SampleExample[]> {
  const out: SampleExample[] = [];
  for (const { id, type, path } of await sampleFiles(dir)) {
    const text = path.endsWith('.eml') ? await emlToText(await readFile(path)) : await readFile(path, 'utf8');
    out.push({ id, type, text });
  }
  return out;
}

function typeSeed(seed: number, type: string): number {
  // Mix the type name into the seed so classes do not share one permutation pattern.
  let h = seed >>> 0;
  for (const ch of type) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

function indicesByType<T extends { type: string }>(examples: readonly T[]): Array<[string, number[]]> {
  const byType = new Map<string, number[]>();
  examples.forEach((ex, i) => {
    const list = byType.get(ex.type) ?? [];
    list.push(i);
    byType.set(ex.type, list);
  });
  return [...byType.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Stratified k-fold assignment: returns `k` lists of example indices (ascending) that partition
 * the examples, each type spread over the folds as evenly as its count allows. Deterministic
 * per seed.
 */
export function stratifiedFolds<T extends { type: string }>(
  examples: readonly T[],
  k: number,
  seed: number,
): number[][] {
  if (!Number.isInteger(k) || k < 1) throw new RangeError('k must be a positive integer');
  const folds: number[][] = Array.from({ length: k }, () => []);
  let next = 0;
  for (const [type, idx] of indicesByType(examples)) {
    // Continue the round-robin where the previous type stopped, so small types do not all
    // land in the first folds.
    for (const i of seededShuffle(idx, typeSeed(seed, type))) {
      folds[next].push(i);
      next = (next + 1) % k;
    }
  }
  return folds.map((f) => f.sort((a, b) => a - b));
}

/**
 * Stratified split: within each type a seeded shuffle, then `round(fraction × count)` examples
 * go to `test` (at least one when the type has two or more). Input order within each part is
 * preserved, so the same inputs and seed always give the same split.
 */
export function splitDeterministic<T extends { type: string }>(
  examples: readonly T[],
  fraction: number,
  seed: number,
): { train: T[]; test: T[] } {
  if (!(fraction >= 0 && fraction < 1)) throw new RangeError('fraction must be in [0, 1)');
  const testIdx = new Set<number>();
  for (const [type, idx] of indicesByType(examples)) {
    let n = Math.round(fraction * idx.length);
    if (fraction > 0 && n === 0 && idx.length >= 2) n = 1;
    for (const i of seededShuffle(idx, typeSeed(seed, type)).slice(0, n)) testIdx.add(i);
  }
  const train: T[] = [];
  const test: T[] = [];
  examples.forEach((ex, i) => (testIdx.has(i) ? test : train).push(ex));
  return { train, test };
}
