import { beforeAll, describe, expect, it } from 'vitest';
import { evaluate, expectedCalibrationError, type EvaluationReport } from '../../../src/pipeline/classify/evaluate.js';
import type { ClassifierModel } from '../../../src/pipeline/classify/model.js';
import { classify } from '../../../src/pipeline/classify/predict.js';
import type { SampleExample } from '../../../src/pipeline/classify/samples.js';
import { trainClassifier } from '../../../src/pipeline/classify/train.js';
import { FIXED_DATE, TYPES, heldOutSplit, sum } from './fixtures.js';

describe('held-out evaluation on samples/classifier (25% stratified split)', () => {
  let train: SampleExample[];
  let test: SampleExample[];
  let model: ClassifierModel;
  let report: EvaluationReport;

  beforeAll(async () => {
    ({ train, test } = await heldOutSplit());
    model = trainClassifier(train, { seed: 1, trainedAt: FIXED_DATE });
    report = evaluate(model, test);
    const pct = (v: number) => (100 * v).toFixed(1);
    // Reported, not asserted beyond the product targets below.
    console.log(
      `[classify] held-out n=${report.n} macroF1=${report.macroF1.toFixed(3)} accuracy=${pct(report.accuracy)}% ` +
        `ECE=${report.ece.toFixed(3)} NLL=${report.nll.toFixed(3)} T=${model.temperature} vocab=${model.vocab.length}`,
    );
    for (const e of report.errors)
      console.log(`[classify] miss ${test[e.index].id} -> ${e.predicted} (${e.confidence.toFixed(2)})`);
  });

  it('keeps the test documents out of training', () => {
    const trainIds = new Set(train.map((e) => e.id));
    expect(test.some((e) => trainIds.has(e.id))).toBe(false);
    expect(new Set(test.map((e) => e.type))).toEqual(new Set(TYPES));
    expect(model.trainedOn).toBe(train.length);
  });

  it('meets the product targets: macro-F1 >= 0.9 and ECE <= 0.1', () => {
    expect(report.macroF1).toBeGreaterThanOrEqual(0.9);
    expect(report.ece).toBeLessThanOrEqual(0.1);
    for (const t of TYPES) expect(report.perClass[t].support).toBeGreaterThanOrEqual(10);
  });

  it('returns probabilities: confidence in [0,1], distribution sums to 1, type is the argmax', () => {
    for (const ex of test) {
      const r = classify(model, ex.text);
      expect(r.confidence).toBeGreaterThanOrEqual(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
      expect(Object.keys(r.distribution).sort()).toEqual(TYPES);
      expect(sum(Object.values(r.distribution))).toBeCloseTo(1, 9);
      expect(r.confidence).toBe(Math.max(...Object.values(r.distribution)));
      expect(r.distribution[r.type]).toBe(r.confidence);
    }
  });

  it('has a consistent confusion matrix and per-class figures', () => {
    expect(sum(Object.values(report.confusion).flatMap((row) => Object.values(row)))).toBe(test.length);
    const diagonal = sum(TYPES.map((t) => report.confusion[t][t]));
    expect(report.accuracy).toBeCloseTo(diagonal / test.length, 12);
    expect(report.errors.length).toBe(test.length - diagonal);
    expect(sum(report.bins.map((b) => b.count))).toBe(test.length);
  });
});

describe('expectedCalibrationError', () => {
  it('is 0 when confidence equals accuracy in every bin', () => {
    const conf = [0.75, 0.75, 0.75, 0.75, 0.95];
    const correct = [true, true, true, false, true];
    // Bin 0.7–0.8: mean conf 0.75, accuracy 0.75; bin 0.9–1.0: 0.95 vs 1 → 0.05 × 1/5.
    expect(expectedCalibrationError(conf, correct).ece).toBeCloseTo(0.01, 12);
  });

  it('weights each bin by its share and puts confidence 1 in the top bin', () => {
    const { ece, bins } = expectedCalibrationError([1, 1, 0.15, 0.15], [false, true, true, true]);
    expect(bins[9].count).toBe(2);
    expect(bins[1].count).toBe(2);
    // top bin |0.5 - 1| × 0.5 + bin 1 |1 - 0.15| × 0.5
    expect(ece).toBeCloseTo(0.25 + 0.425, 12);
  });
});
