/**
 * Held-out evaluation: accuracy, macro-F1, per-class precision/recall, confusion matrix and
 * expected calibration error (10 equal-width bins over the top-class confidence).
 */
import type { ClassifierModel } from './model.js';
import { classify, type ClassifyOptions } from './predict.js';
import type { LabelledExample } from './samples.js';

export interface ClassMetrics {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export interface ReliabilityBin {
  lower: number;
  upper: number;
  count: number;
  meanConfidence: number;
  accuracy: number;
}

export interface EvaluationReport {
  n: number;
  accuracy: number;
  macroF1: number;
  ece: number;
  /** Mean negative log-likelihood of the true type. */
  nll: number;
  perClass: Record<string, ClassMetrics>;
  /** confusion[actual][predicted] = count */
  confusion: Record<string, Record<string, number>>;
  bins: ReliabilityBin[];
  /** Examples the model got wrong, for inspection. */
  errors: Array<{ index: number; actual: string; predicted: string; confidence: number }>;
}

/** ECE over equal-width confidence bins; a confidence of exactly 1 falls in the top bin. */
export function expectedCalibrationError(
  confidences: readonly number[],
  correct: readonly boolean[],
  numBins = 10,
): { ece: number; bins: ReliabilityBin[] } {
  const bins: ReliabilityBin[] = Array.from({ length: numBins }, (_, b) => ({
    lower: b / numBins,
    upper: (b + 1) / numBins,
    count: 0,
    meanConfidence: 0,
    accuracy: 0,
  }));
  confidences.forEach((c, i) => {
    const bin = bins[Math.min(numBins - 1, Math.floor(c * numBins))];
    bin.count++;
    bin.meanConfidence += c;
    bin.accuracy += correct[i] ? 1 : 0;
  });
  let ece = 0;
  for (const bin of bins) {
    if (bin.count === 0) continue;
    bin.meanConfidence /= bin.count;
    bin.accuracy /= bin.count;
    ece += (bin.count / confidences.length) * Math.abs(bin.accuracy - bin.meanConfidence);
  }
  return { ece, bins };
}

export function evaluate(
  model: ClassifierModel,
  examples: readonly LabelledExample[],
  options: ClassifyOptions = {},
): EvaluationReport {
  const types = [...new Set([...model.types, ...examples.map((e) => e.type)])];
  const confusion: Record<string, Record<string, number>> = {};
  for (const a of types) confusion[a] = Object.fromEntries(types.map((p) => [p, 0]));
  const confidences: number[] = [];
  const correct: boolean[] = [];
  const errors: EvaluationReport['errors'] = [];
  let nll = 0;

  examples.forEach((ex, index) => {
    const res = classify(model, ex.text, options);
    if (!(res.type in confusion[ex.type])) {
      for (const a of types) confusion[a][res.type] = 0;
    }
    confusion[ex.type][res.type]++;
    confidences.push(res.confidence);
    correct.push(res.type === ex.type);
    nll -= Math.log(Math.max(res.distribution[ex.type] ?? 0, 1e-12));
    if (res.type !== ex.type) errors.push({ index, actual: ex.type, predicted: res.type, confidence: res.confidence });
  });

  const perClass: Record<string, ClassMetrics> = {};
  const present = types.filter((t) => examples.some((e) => e.type === t));
  for (const t of present) {
    const tp = confusion[t][t];
    const support = Object.values(confusion[t]).reduce((s, v) => s + v, 0);
    const predicted = Object.keys(confusion).reduce((s, a) => s + (confusion[a][t] ?? 0), 0);
    const precision = predicted ? tp / predicted : 0;
    const recall = support ? tp / support : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    perClass[t] = { precision, recall, f1, support };
  }
  const macroF1 = present.length ? present.reduce((s, t) => s + perClass[t].f1, 0) / present.length : 0;
  const { ece, bins } = expectedCalibrationError(confidences, correct);
  const n = examples.length;
  return {
    n,
    accuracy: n ? correct.filter(Boolean).length / n : 0,
    macroF1,
    ece,
    nll: n ? nll / n : 0,
    perClass,
    confusion,
    bins,
    errors,
  };
}
