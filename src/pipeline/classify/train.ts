/**
 * Training: vocabulary + TF-IDF, softmax regression with the rule offsets in place, trained on
 * all examples; the temperature is fitted on out-of-fold logits (stratified k-fold: every
 * example is scored by a model that never saw it), so the confidence is calibrated on held-out
 * data while no example is left out of the final model.
 */
import { createHash } from 'node:crypto';
import { fitTemperature, nllAt } from './calibrate.js';
import { MODEL_FORMAT, type ClassifierModel } from './model.js';
import { DEFAULT_RULES, RULES_VERSION, ruleEvidence } from './rules.js';
import { stratifiedFolds, type LabelledExample } from './samples.js';
import { trainSoftmax, type SoftmaxParams } from './softmax.js';
import { buildVocabulary, indexVocabulary, vectorize, type VocabularyOptions } from './tfidf.js';
import { classificationText } from './long-text.js';
import { DEFAULT_TOKENIZE_OPTIONS, featureCounts, type TokenizeOptions } from './tokenize.js';

/** Bump when training maths or feature extraction changes, so cached models are rebuilt. */
export const ALGORITHM_VERSION = 'softmax-tfidf-2';

export interface TrainingExample extends LabelledExample {
  /** Importance of this example (default 1); confirmed user documents typically use 3–5. */
  weight?: number;
}

/** Training options; every field has a default. */
export interface TrainOptions {
  /** Seed for the calibration folds. Default 42. */
  seed?: number;
  /**
   * Folds for the out-of-fold logits the temperature is fitted on. Default 3: each fold model is
   * trained on two thirds of the examples, which keeps training to four fits in all and errs on
   * the side of modest confidence. 0 or 1 skips calibration (temperature 1).
   */
  calibrationFolds?: number;
  /** Per-example weights aligned with `examples` (override `example.weight`). Default 1 each. */
  weights?: number[];
  /** L2 penalty. Default 1e-3. */
  l2?: number;
  /** L-BFGS iteration cap. Default 300. */
  maxIterations?: number;
  tokenizer?: TokenizeOptions;
  /** Vocabulary limits. Default minDf 2, at most 10,000 features. */
  vocabulary?: VocabularyOptions;
  /** Rules whose offsets are part of the model. Default: the built-in rules; `false` = none. */
  useRules?: boolean;
  /** Class list (fixed order). Default: sorted distinct types of the examples. */
  types?: string[];
  /** Timestamp recorded in the model. Default: now. Not part of `version`. */
  trainedAt?: Date;
}

/**
 * The options with their defaults filled in, except what depends on the examples (weights and
 * the class list). Part of every model version, and of the built-in cache's source key.
 */
export function trainingDefaults(opts: Omit<TrainOptions, 'weights' | 'trainedAt'>) {
  return {
    seed: opts.seed ?? 42,
    calibrationFolds: opts.calibrationFolds ?? 3,
    l2: opts.l2 ?? 1e-3,
    maxIterations: opts.maxIterations ?? 300,
    tokenizer: { ...DEFAULT_TOKENIZE_OPTIONS, ...opts.tokenizer },
    vocabulary: { minDf: opts.vocabulary?.minDf ?? 2, maxFeatures: opts.vocabulary?.maxFeatures ?? 10000 },
    useRules: opts.useRules ?? true,
  };
}

function resolved(examples: readonly TrainingExample[], opts: TrainOptions) {
  const weights = opts.weights ?? examples.map((e) => e.weight ?? 1);
  if (weights.length !== examples.length) throw new RangeError('weights must align with examples');
  // Key order is part of the model version (modelVersionFor hashes this object): `weights` is
  // left out of that hash, so the others keep the order they always had.
  return { ...trainingDefaults(opts), weights, types: opts.types ?? [...new Set(examples.map((e) => e.type))].sort() };
}

/** Content hash of everything that determines the trained weights (`clf-<16 hex>`). */
export function modelVersionFor(examples: readonly TrainingExample[], opts: TrainOptions = {}): string {
  const r = resolved(examples, opts);
  const h = createHash('sha256');
  h.update(
    JSON.stringify({ algo: ALGORITHM_VERSION, rules: r.useRules ? RULES_VERSION : null, ...r, weights: undefined }),
  );
  examples.forEach((e, i) => {
    h.update(`\u0000${e.type}\u0000${r.weights[i]}\u0000`);
    h.update(e.text);
  });
  return `clf-${h.digest('hex').slice(0, 16)}`;
}

// Six significant digits keep the JSON small; predictions change far below calibration noise.
const compact = (v: number) => (Math.abs(v) < 1e-7 ? 0 : Number(v.toPrecision(6)));

interface Prepared {
  counts: Map<string, number>[];
  offsets: number[][];
  labels: number[];
}

interface Fitted {
  vocab: string[];
  idf: number[];
  weights: number[][];
  bias: number[];
}

/**
 * Train on the examples at `rows`, with a vocabulary built from those rows only. `warm` (another
 * fit) is only a starting point: the optimum is unique, so it changes the time, not the result
 * (beyond the optimiser's tolerance).
 */
function fit(rows: number[], prep: Prepared, weights: number[], r: ReturnType<typeof resolved>, warm?: Fitted): Fitted {
  const counts = rows.map((i) => prep.counts[i]);
  const { vocab, idf } = buildVocabulary(
    counts.map((c) => c.keys()),
    r.vocabulary,
  );
  const index = indexVocabulary(vocab);
  const xs = counts.map((c) => vectorize(c, index, idf));
  let initial: SoftmaxParams | undefined;
  if (warm) {
    const old = indexVocabulary(warm.vocab);
    initial = {
      weights: warm.weights.map((row) => Float64Array.from(vocab, (t) => row[old.get(t) ?? -1] ?? 0)),
      bias: Float64Array.from(warm.bias),
    };
  }
  const params = trainSoftmax(
    xs,
    rows.map((i) => prep.labels[i]),
    r.types.length,
    vocab.length,
    {
      l2: r.l2,
      sampleWeights: rows.map((i) => weights[i]),
      offsets: rows.map((i) => prep.offsets[i]),
      maxIterations: r.maxIterations,
      // Largest gradient component 1e-4: logits then differ from a fully converged fit by about
      // 0.01, far below what moves a confidence, for a third less training time.
      gradientTolerance: 1e-4,
      initial,
    },
  );
  return {
    vocab,
    idf: idf.map(compact),
    weights: params.weights.map((row) => Array.from(row, compact)),
    bias: Array.from(params.bias, compact),
  };
}

/**
 * Logits of one example under a fit, from its feature counts: what classify() computes from the
 * text (same vocabulary, idf, weights and rule offsets), without tokenizing the text again.
 */
function scoreCounts(f: Fitted, index: Map<string, number>, counts: Map<string, number>, offsets: number[]): number[] {
  const x = vectorize(counts, index, f.idf);
  return f.bias.map((b, c) => {
    const w = f.weights[c];
    let s = b + offsets[c];
    for (let k = 0; k < x.indices.length; k++) s += w[x.indices[k]] * x.values[k];
    return s;
  });
}

export function trainClassifier(examples: readonly TrainingExample[], opts: TrainOptions = {}): ClassifierModel {
  if (examples.length === 0) throw new RangeError('no training examples');
  const r = resolved(examples, opts);
  for (const e of examples) {
    if (!r.types.includes(e.type)) throw new RangeError(`example type ${e.type} not in types`);
  }
  const rules = r.useRules ? DEFAULT_RULES : [];
  // Same reading as classify(), so long documents train on what prediction sees.
  const texts = examples.map((e) => classificationText(e.text, r.tokenizer.maxChars));
  const prep: Prepared = {
    counts: texts.map((t) => featureCounts(t, r.tokenizer)),
    offsets: texts.map((t) => ruleEvidence(t, r.types, rules).offsets),
    labels: examples.map((e) => r.types.indexOf(e.type)),
  };
  const base = {
    format: MODEL_FORMAT,
    version: modelVersionFor(examples, opts),
    types: r.types,
    tokenizer: r.tokenizer,
    rulesVersion: r.useRules ? RULES_VERSION : null,
    trainedAt: (opts.trainedAt ?? new Date()).toISOString(),
  } as const;
  const all = examples.map((_, i) => i);

  // Out-of-fold logits: each fold model builds its own vocabulary and weights from the other
  // folds only, starting cold, so nothing of the held-out examples reaches their scores.
  const folds = r.calibrationFolds >= 2 ? stratifiedFolds(examples, r.calibrationFolds, r.seed) : [];
  const logits: number[][] = [];
  const labels: number[] = [];
  let last: Fitted | undefined;
  for (const held of folds) {
    if (held.length === 0) continue;
    const out = new Set(held);
    const trainRows = all.filter((i) => !out.has(i));
    if (trainRows.length === 0) continue;
    last = fit(trainRows, prep, r.weights, r);
    const index = indexVocabulary(last.vocab);
    for (const i of held) {
      logits.push(scoreCounts(last, index, prep.counts[i], prep.offsets[i]));
      labels.push(prep.labels[i]);
    }
  }
  // The final model starts from the last fold model, which has already done most of the work.
  const full = fit(all, prep, r.weights, r, last);
  const temperature = compact(fitTemperature(logits, labels));
  const correct = logits.filter((z, i) => z.indexOf(Math.max(...z)) === labels[i]).length;
  const calibration = {
    size: logits.length,
    nllBefore: compact(nllAt(logits, labels, 1)),
    nllAfter: compact(nllAt(logits, labels, temperature)),
    accuracy: logits.length ? compact(correct / logits.length) : 0,
  };
  return { ...base, ...full, temperature, trainedOn: examples.length, calibration };
}
