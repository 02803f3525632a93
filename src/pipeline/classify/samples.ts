/**
 * Loading the labelled sample set (`<dir>/<type>/*.txt`) and deterministic stratified splits.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
 * Read every `<type>/*.txt` under `dir`. Sub-folders without .txt files (such as the generator's
 * own sources) are ignored. Ordered by type, then file name, so the result is reproducible.
 */
export async function loadSampleSet(dir: string): Promise<SampleExample[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const types = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const out: SampleExample[] = [];
  for (const type of types) {
    const files = (await readdir(join(dir, type))).filter((f) => f.endsWith('.txt')).sort();
    for (const f of files) {
      out.push({ id: `${type}/${f}`, type, text: await readFile(join(dir, type, f), 'utf8') });
    }
  }
  return out;
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
  const byType = new Map<string, number[]>();
  examples.forEach((ex, i) => {
    const list = byType.get(ex.type) ?? [];
    list.push(i);
    byType.set(ex.type, list);
  });
  const testIdx = new Set<number>();
  for (const [type, idx] of [...byType.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let n = Math.round(fraction * idx.length);
    if (fraction > 0 && n === 0 && idx.length >= 2) n = 1;
    // Mix the type name into the seed so classes do not share one permutation pattern.
    let h = seed >>> 0;
    for (const ch of type) h = (Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0);
    for (const i of seededShuffle(idx, h).slice(0, n)) testIdx.add(i);
  }
  const train: T[] = [];
  const test: T[] = [];
  examples.forEach((ex, i) => (testIdx.has(i) ? test : train).push(ex));
  return { train, test };
}
