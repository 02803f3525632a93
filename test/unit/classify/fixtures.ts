// Shared helpers for the classify unit tests (not a test file itself).
import { fileURLToPath } from 'node:url';
import { loadSampleSet, splitDeterministic, type SampleExample } from '../../../src/pipeline/classify/samples.js';

export const SAMPLES_DIR = fileURLToPath(new URL('../../../samples/classifier/', import.meta.url));
export const FIXED_DATE = new Date('2024-01-01T00:00:00Z');
export const TYPES = [
  'bank_statement',
  'contract',
  'invoice',
  'letter',
  'other',
  'purchase_order',
  'receipt',
  'resume',
];

/** The first `perType` samples of every type (file order), for tests that only need a model. */
export async function sampleSubset(perType: number): Promise<SampleExample[]> {
  const all = await loadSampleSet(SAMPLES_DIR);
  const seen = new Map<string, number>();
  return all.filter((e) => {
    const n = seen.get(e.type) ?? 0;
    seen.set(e.type, n + 1);
    return n < perType;
  });
}

/** The product evaluation split: 25% of each type held out, fixed seed. */
export async function heldOutSplit(): Promise<{ train: SampleExample[]; test: SampleExample[] }> {
  return splitDeterministic(await loadSampleSet(SAMPLES_DIR), 0.25, 2024);
}

export function sum(values: Iterable<number>): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}
