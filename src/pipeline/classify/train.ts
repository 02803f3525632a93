/**
 * Training: vocabulary + TF-IDF, softmax regression with the rule offsets in place, temperature
 * fitted on a held-out stratified calibration split, then (by default) a refit on all examples
 * that keeps the fitted temperature.
 */
import { createHash } from 'node:crypto';
import { fitTemperature, nllAt } from './calibrate.js';
import { MODEL_FORMAT, type ClassifierModel } from './model.js';
import { rawScores } from './predict.js';
import { DEFAULT_RULES, RULES_VERSION, ruleEvidence } from './rules.js';
import { splitDeterministic, type LabelledExample } from './samples.js';
import { trainSoftmax, type SoftmaxParams } from './softmax.js';
import { buildVocabulary, indexVocabulary, vectorize, type VocabularyOptions } from './tfidf.js';
import { DEFAULT_MAX_CHARS, DEFAULT_TOKENIZE_OPTIONS, featureCounts, type TokenizeOptions } from './tokenize.js';

/** Bump when training maths or feature extraction changes, so cached models are rebuilt. */
export const ALGORITHM_VERSION = 'softmax-tfidf-1';

export interface TrainingExample extends LabelledExample {
  /** Importance of this example (default 1); confirmed user documents typically use 3–5. */
  weight?: number;
}

/** Training options; every field has a default. */
export interface TrainOptions {
  /** Seed for the calibration split. Default 42. */
  seed?: number;
  /** Share of each type held out to fit the temperature. Default 0.2. */
  calibrationFraction?: number;
  /** Per-example weights aligned with `examples` (override `example.weight`). Default 1 each. */
  weights?: number[];
  /** L2 penalty. Default 1e-3. */
  l2?: number;
  /** L-BFGS iteration cap. Default 300. */
  maxIterations?: number;
  tokenizer?: TokenizeOptions;
  vocabulary?: VocabularyOptions;
  /** Rules whose offsets are part of the model. Default: the built-in rules; `false` = none. */
  useRules?: boolean;
  /** Class list (fixed order). Default: sorted distinct types of the examples. */
  types?: string[];
  /**
   * After fitting the temperature, retrain on all examples (calibration split included) and
   * keep the temperature. Default true: user corrections that land in the calibration split
   * still teach the model.
   */
  refitOnAll?: boolean;
  /** Timestamp recorded in the model. Default: now. Not part of `version`. */
  trainedAt?: Date;
}

function resolved(examples: readonly TrainingExample[], opts: TrainOptions) {
  const weights = opts.weights ?? examples.map((e) => e.weight ?? 1);
  if (weights.length !== examples.length) throw new RangeError('weights must align with examples');
  return {
    seed: opts.seed ?? 42,
    calibrationFraction: opts.calibrationFraction ?? 0.2,
    weights,
    l2: opts.l2 ?? 1e-3,
    maxIterations: opts.maxIterations ?? 300,
    tokenizer: { ...DEFAULT_TOKENIZE_OPTIONS, ...opts.tokenizer },
    vocabulary: { minDf: opts.vocabulary?.minDf ?? 2, maxFeatures: opts.vocabulary?.maxFeatures ?? 20000 },
    useRules: opts.useRules ?? true,
    types: opts.types ?? [...new Set(examples.map((e) => e.type))].sort(),
    refitOnAll: opts.refitOnAll ?? true,
  };
}

/** Content hash of everything that determines the trained weights (`clf-<16 hex>`). */
export function modelVersionFor(examples: readonly TrainingExample[], opts: TrainOptions = {}): string {
  const r = resolved(examples, opts);
  const h = createHash('sha256');
  h.update(JSON.stringify({ algo: ALGORITHM_VERSION, rules: r.useRules ? RULES_VERSION : null, ...r, weights: undefined }));
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

/** Train on the examples at `rows`; `warm` (a previous fit) speeds up convergence. */
function fit(rows: number[], prep: Prepared, weights: number[], r: ReturnType<typeof resolved>, warm?: Fitted): Fitted {
  const counts = rows.map((i) => prep.counts[i]);
  const { vocab, idf } = buildVocabulary(counts.map((c) => c.keys()), r.vocabulary);
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
  const params = trainSoftmax(xs, rows.map((i) => prep.labels[i]), r.types.length, vocab.length, {
    l2: r.l2,
    sampleWeights: rows.map((i) => weights[i]),
    offsets: rows.map((i) => prep.offsets[i]),
    maxIterations: r.maxIterations,
    initial,
  });
  return {
    vocab,
    idf: idf.map(compact),
    weights: params.weights.map((row) => Array.from(row, compact)),
    bias: Array.from(params.bias, compact),
  };
}

export function trainClassifier(examples: readonly TrainingExample[], opts: TrainOptions = {}): ClassifierModel {
  if (examples.length === 0) throw new RangeError('no training examples');
  const r = resolved(examples, opts);
  for (const e of examples) {
    if (!r.types.includes(e.type)) throw new RangeError(`example type ${e.type} not in types`);
  }
  const rules = r.useRules ? DEFAULT_RULES : [];
  // Same truncation as classify(), so long confirmed documents train on what prediction sees.
  const texts = examples.map((e) => e.text.slice(0, DEFAULT_MAX_CHARS));
  const prep: Prepared = {
    counts: texts.map((t) => featureCounts(t, r.tokenizer)),
    offsets: texts.map((t) => ruleEvidence(t, r.types, rules).offsets),
    labels: examples.map((e) => r.types.indexOf(e.type)),
  };
  const indexed = examples.map((e, i) => ({ type: e.type, i }));
  const { train, test: calib } = splitDeterministic(indexed, r.calibrationFraction, r.seed);

  const base = {
    format: MODEL_FORMAT,
    version: modelVersionFor(examples, opts),
    types: r.types,
    tokenizer: r.tokenizer,
    rulesVersion: r.useRules ? RULES_VERSION : null,
    trainedAt: (opts.trainedAt ?? new Date()).toISOString(),
  } as const;

  const first = fit(train.map((e) => e.i), prep, r.weights, r);
  const draft: ClassifierModel = {
    ...base,
    ...first,
    temperature: 1,
    trainedOn: train.length,
    calibration: { size: 0, nllBefore: 0, nllAfter: 0, accuracy: 0 },
  };
  const logits = calib.map((e) => rawScores(draft, texts[e.i], rules).logits);
  const labels = calib.map((e) => r.types.indexOf(e.type));
  const temperature = compact(fitTemperature(logits, labels));
  const correct = logits.filter((z, i) => z.indexOf(Math.max(...z)) === labels[i]).length;
  const calibration = {
    size: calib.length,
    nllBefore: compact(nllAt(logits, labels, 1)),
    nllAfter: compact(nllAt(logits, labels, temperature)),
    accuracy: calib.length ? compact(correct / calib.length) : 0,
  };
  if (!r.refitOnAll || calib.length === 0) return { ...draft, temperature, calibration };
  const full = fit(examples.map((_, i) => i), prep, r.weights, r, first);
  return { ...base, ...full, temperature, trainedOn: examples.length, calibration };
}
