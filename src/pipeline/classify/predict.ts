/**
 * Classify one document: TF-IDF features → softmax regression logits (+ rule offsets) →
 * temperature → optional blend with an embedding nearest-neighbour vote.
 */
import { applyTemperature } from './calibrate.js';
import { knnVote, type KnnNeighbour } from './knn.js';
import type { ClassifierModel } from './model.js';
import { DEFAULT_RULES, RULES_VERSION, ruleEvidence, type ClassificationRule, type FiredRule } from './rules.js';
import { indexVocabulary, normalizeVector, type SparseVector } from './tfidf.js';
import { classificationText } from './long-text.js';
import { eachFeature } from './tokenize.js';

export type ClassificationMethod =
  'model' | 'rules' | 'model+rules' | 'model+knn' | 'model+rules+knn' | 'rules+knn' | 'fallback';

/** Per-call classification options. */
export interface ClassifyOptions {
  /** The document's embedding; with `neighbours` enables the kNN blend. */
  embedding?: number[];
  /** Labelled documents with stored vectors (same embedding model as `embedding`). */
  neighbours?: readonly KnnNeighbour[];
  /** Neighbours consulted. Default 5. */
  k?: number;
  /** Share of the final distribution taken from the kNN vote. Default 0.3. */
  knnWeight?: number;
  /** Fewer neighbours than this and kNN is skipped. Default 3. */
  minNeighbours?: number;
  /**
   * Rules to evaluate. Default: the built-in rules when the model was trained with them. Pass
   * `false` to switch rules off (diagnostics only: the model was calibrated with them on).
   */
  rules?: readonly ClassificationRule[] | false;
  /**
   * Characters read: a longer text is read as evenly spaced windows from start to end (see
   * {@link classificationText}). Default: what the model was trained with.
   */
  maxChars?: number;
}

export interface ClassificationResult {
  type: string;
  /** Probability of `type` in [0, 1]. */
  confidence: number;
  method: ClassificationMethod;
  /** Probability per type; sums to 1. */
  distribution: Record<string, number>;
  /** Ids of the rules that fired. */
  rules: string[];
}

export interface RawScores {
  logits: number[];
  /** Number of distinct vocabulary features found in the text. */
  matchedFeatures: number;
  fired: FiredRule[];
}

// Building the feature index costs ~1 ms for a 20k vocabulary; memoise it per model object so
// repeated classify() calls stay cheap without callers having to hold a prepared handle.
const indexCache = new WeakMap<ClassifierModel, Map<string, number>>();

function featureIndex(model: ClassifierModel): Map<string, number> {
  let index = indexCache.get(model);
  if (!index) {
    index = indexVocabulary(model.vocab);
    indexCache.set(model, index);
  }
  return index;
}

export function resolveRules(model: ClassifierModel, rules: ClassifyOptions['rules']): readonly ClassificationRule[] {
  if (rules === false) return [];
  if (rules) return rules;
  return model.rulesVersion === RULES_VERSION ? DEFAULT_RULES : [];
}

/** TF-IDF vector of a text under the model's vocabulary (same maths as training's vectorize). */
export function textVector(model: ClassifierModel, text: string): SparseVector {
  const index = featureIndex(model);
  // Count by feature index directly: out-of-vocabulary features (most character n-grams of a
  // long text) are dropped without ever entering a map.
  const counts = new Map<number, number>();
  eachFeature(text, model.tokenizer, (f) => {
    const i = index.get(f);
    if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
  });
  return normalizeVector(counts, model.idf);
}

/** Uncalibrated logits (W·x + b + rule offsets) for a text. */
export function rawScores(model: ClassifierModel, text: string, rules: readonly ClassificationRule[]): RawScores {
  const x = textVector(model, text);
  const evidence = ruleEvidence(text, model.types, rules);
  const logits = model.bias.map((b, c) => {
    const w = model.weights[c];
    let s = b + evidence.offsets[c];
    for (let k = 0; k < x.indices.length; k++) s += w[x.indices[k]] * x.values[k];
    return s;
  });
  return { logits, matchedFeatures: x.indices.length, fired: evidence.fired };
}

function toRecord(types: readonly string[], probs: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  types.forEach((t, i) => (out[t] = probs[i]));
  return out;
}

/** Nothing to go on: report `other` with a deliberately low confidence. */
function fallback(model: ClassifierModel): ClassificationResult {
  const types = model.types.includes('other') ? model.types : [...model.types, 'other'];
  const share = 1 / (types.length + 1);
  const probs = types.map((t) => (t === 'other' ? 2 * share : share));
  return { type: 'other', confidence: 2 * share, method: 'fallback', distribution: toRecord(types, probs), rules: [] };
}

export function classify(model: ClassifierModel, text: string, options: ClassifyOptions = {}): ClassificationResult {
  const input = classificationText(text, options.maxChars ?? model.tokenizer.maxChars);
  if (!/[\p{L}\p{N}]/u.test(input)) return fallback(model);
  const rules = resolveRules(model, options.rules);
  const scores = rawScores(model, input, rules);
  if (scores.matchedFeatures === 0 && scores.fired.length === 0) return fallback(model);

  let probs = applyTemperature(scores.logits, model.temperature);
  let usedKnn = false;
  const neighbours = options.neighbours ?? [];
  if (options.embedding && neighbours.length >= (options.minNeighbours ?? 3)) {
    const vote = knnVote(options.embedding, neighbours, options.k ?? 5, { types: model.types });
    const beta = Math.min(1, Math.max(0, options.knnWeight ?? 0.3));
    // Neighbour types unknown to the model are dropped: the distribution stays over model.types.
    probs = probs.map((p, i) => (1 - beta) * p + beta * (vote[model.types[i]] ?? 0));
    const sum = probs.reduce((s, p) => s + p, 0);
    probs = probs.map((p) => p / sum);
    usedKnn = true;
  }

  let best = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i] > probs[best]) best = i;
  const type = model.types[best];
  const rulesSupport = scores.fired.some((r) => r.type === type);
  const base = scores.matchedFeatures === 0 ? 'rules' : rulesSupport ? 'model+rules' : 'model';
  return {
    type,
    confidence: probs[best],
    method: (usedKnn ? `${base}+knn` : base) as ClassificationMethod,
    distribution: toRecord(model.types, probs),
    rules: scores.fired.map((r) => r.id),
  };
}
