import { beforeAll, describe, expect, it } from 'vitest';
import {
  MODEL_FORMAT,
  parseModel,
  serializeModel,
  type ClassifierModel,
} from '../../../src/pipeline/classify/model.js';
import { classify } from '../../../src/pipeline/classify/predict.js';
import type { SampleExample } from '../../../src/pipeline/classify/samples.js';
import { modelVersionFor, trainClassifier } from '../../../src/pipeline/classify/train.js';
import { FIXED_DATE, sampleSubset } from './fixtures.js';

describe('training determinism and serialisation', () => {
  let examples: SampleExample[];
  let a: ClassifierModel;
  let b: ClassifierModel;

  beforeAll(async () => {
    examples = await sampleSubset(12);
    a = trainClassifier(examples, { seed: 7, trainedAt: FIXED_DATE });
    b = trainClassifier(examples, { seed: 7, trainedAt: FIXED_DATE });
  });

  it('same data and seed give byte-identical model JSON', () => {
    expect(serializeModel(a)).toBe(serializeModel(b));
    expect(a.version).toMatch(/^clf-[0-9a-f]{16}$/);
    expect(a.trainedOn).toBe(examples.length);
    expect(a.trainedAt).toBe(FIXED_DATE.toISOString());
  });

  it('the version is a content hash of data and options, not of the clock', () => {
    expect(modelVersionFor(examples, { seed: 7 })).toBe(a.version);
    expect(modelVersionFor(examples, { seed: 8 })).not.toBe(a.version);
    const edited = examples.map((e, i) => (i === 0 ? { ...e, text: `${e.text} ` } : e));
    expect(modelVersionFor(edited, { seed: 7 })).not.toBe(a.version);
    const relabelled = examples.map((e, i) => (i === 0 ? { ...e, type: 'other' } : e));
    expect(modelVersionFor(relabelled, { seed: 7 })).not.toBe(a.version);
  });

  it('a different seed changes the calibration folds and so the fitted temperature', () => {
    const c = trainClassifier(examples, { seed: 8, trainedAt: FIXED_DATE });
    expect(c.version).not.toBe(a.version);
    expect(c.temperature).not.toBe(a.temperature);
    // The final model is trained on all examples either way; only the folds, and so the temperature, differ.
    expect(c.vocab).toEqual(a.vocab);
  });

  it('has the documented shape and a fitted temperature', () => {
    expect(a.format).toBe(MODEL_FORMAT);
    expect(a.types).toEqual([...a.types].sort());
    expect(a.weights).toHaveLength(a.types.length);
    for (const row of a.weights) expect(row).toHaveLength(a.vocab.length);
    expect(a.idf).toHaveLength(a.vocab.length);
    expect(a.temperature).toBeGreaterThan(0);
    expect(a.temperature).not.toBe(1);
    expect(a.calibration.size).toBe(96); // every example is scored out of fold: 12 per type, 8 types
    expect(a.calibration.nllAfter).toBeLessThanOrEqual(a.calibration.nllBefore);
  });

  it('round-trips through JSON with identical predictions', async () => {
    const restored = parseModel(serializeModel(a));
    expect(restored).toEqual(a);
    const probes = (await sampleSubset(25)).slice(-40).map((e) => e.text);
    probes.push('Dear Sir, please find our invoice attached.', 'Total 12.50 VISA ****1234 APPROVED', '');
    for (const text of probes) expect(classify(restored, text)).toEqual(classify(a, text));
  });

  it('rejects malformed models with a clear error', () => {
    const json = JSON.parse(serializeModel(a)) as Record<string, unknown>;
    expect(() => parseModel('{}')).toThrow(/invalid classifier model/);
    expect(() => parseModel({ ...json, format: 'other/9' })).toThrow(/format/);
    expect(() => parseModel({ ...json, weights: (json.weights as number[][]).slice(1) })).toThrow(/weights/);
    expect(() => parseModel({ ...json, idf: [1, 2] })).toThrow(/idf/);
    expect(() => parseModel({ ...json, temperature: 0 })).toThrow(/temperature/);
    expect(() => parseModel({ ...json, bias: (json.bias as number[]).map(() => Number.NaN) })).toThrow(/bias/);
  });

  it('refuses inconsistent training input', () => {
    expect(() => trainClassifier([])).toThrow(/no training examples/);
    expect(() => trainClassifier(examples, { weights: [1, 2] })).toThrow(/weights/);
    expect(() => trainClassifier(examples, { types: ['invoice'] })).toThrow(/not in types/);
  });
});
