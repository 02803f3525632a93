import { beforeAll, describe, expect, it } from 'vitest';
import { cosineSimilarity, knnVote, type KnnNeighbour } from '../../../src/pipeline/classify/knn.js';
import type { ClassifierModel } from '../../../src/pipeline/classify/model.js';
import { classify } from '../../../src/pipeline/classify/predict.js';
import { trainClassifier } from '../../../src/pipeline/classify/train.js';
import { FIXED_DATE, sampleSubset, sum } from './fixtures.js';

const N: KnnNeighbour[] = [
  { vector: [1, 0, 0], type: 'invoice' },
  { vector: [0.9, 0.1, 0], type: 'invoice' },
  { vector: [0.8, 0.3, 0], type: 'receipt' },
  { vector: [0, 1, 0], type: 'letter' },
  { vector: [0, 0, 1], type: 'resume' },
  { vector: [-1, 0, 0], type: 'contract' },
];

describe('cosineSimilarity', () => {
  it('is scale-invariant, 0 for a zero vector, and rejects length mismatches', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(/length mismatch/);
  });
});

describe('knnVote', () => {
  it('lets the nearest neighbours win, weighted by similarity', () => {
    const d = knnVote([1, 0, 0], N, 3);
    expect(sum(Object.values(d))).toBeCloseTo(1, 12);
    expect(d.invoice).toBeGreaterThan(d.receipt);
    expect(d.receipt).toBeGreaterThan(d.letter);
    // letter/resume/contract are outside the top 3: only smoothing mass.
    expect(d.letter).toBeCloseTo(d.resume, 12);
    expect(d.letter).toBeLessThan(0.05);
  });

  it('k limits how many neighbours vote', () => {
    const one = knnVote([0.8, 0.3, 0], N, 1, { smoothing: 0 });
    expect(one.receipt).toBe(1);
    const all = knnVote([0.8, 0.3, 0], N, 10, { smoothing: 0 });
    expect(all.receipt).toBeLessThan(0.5);
    expect(all.invoice).toBeGreaterThan(0.5);
  });

  it('gives negative similarities no weight', () => {
    const d = knnVote([-1, 0, 0], N, 6, { smoothing: 0 });
    expect(d.contract).toBe(1);
    expect(d.invoice).toBe(0);
  });

  it('covers requested types and falls back to uniform when nothing is similar', () => {
    const d = knnVote([0, 0, 1], [{ vector: [1, 0, 0], type: 'invoice' }], 5, {
      types: ['invoice', 'other'],
      smoothing: 0,
    });
    expect(d).toEqual({ invoice: 0.5, other: 0.5 });
    expect(knnVote([1, 0], [], 5)).toEqual({});
  });
});

describe('kNN blended into classify', () => {
  let model: ClassifierModel;
  beforeAll(async () => {
    model = trainClassifier(await sampleSubset(10), { seed: 5, trainedAt: FIXED_DATE });
  });

  const text =
    'Dear Ms Park,\nThank you for your order of 12 chairs. They will be delivered on Friday.\nKind regards,\nTom';

  it('moves the distribution toward the neighbours and reports model+…+knn', () => {
    const base = classify(model, text);
    const neighbours: KnnNeighbour[] = [1, 2, 3, 4, 5].map((i) => ({
      vector: [1, i / 100, 0],
      type: 'purchase_order',
    }));
    const blended = classify(model, text, { embedding: [1, 0, 0], neighbours, knnWeight: 0.5 });
    expect(blended.method.endsWith('+knn')).toBe(true);
    expect(blended.distribution.purchase_order).toBeGreaterThan(base.distribution.purchase_order + 0.4);
    expect(sum(Object.values(blended.distribution))).toBeCloseTo(1, 9);
  });

  it('skips kNN with too few neighbours or no embedding', () => {
    const few = classify(model, text, { embedding: [1, 0], neighbours: [{ vector: [1, 0], type: 'resume' }] });
    expect(few.method.includes('knn')).toBe(false);
    const noEmbedding = classify(model, text, {
      neighbours: [1, 2, 3].map(() => ({ vector: [1, 0], type: 'resume' })),
    });
    expect(noEmbedding).toEqual(classify(model, text));
  });
});
