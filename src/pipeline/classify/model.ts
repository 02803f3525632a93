/**
 * The serialisable classifier model and its JSON round-trip. A model is plain data: everything
 * prediction needs (vocabulary, idf, weights, temperature, tokenizer settings, rules version).
 */
import { DEFAULT_TOKENIZE_OPTIONS, type TokenizeOptions } from './tokenize.js';

export const MODEL_FORMAT = 'docpipe-classifier/1';

export interface ClassifierModel {
  format: typeof MODEL_FORMAT;
  /** Content hash of algorithm, options and training data (`clf-…`); same inputs → same version. */
  version: string;
  /** Class labels; index = row in `weights`. */
  types: string[];
  vocab: string[];
  idf: number[];
  /** weights[typeIndex][featureIndex] */
  weights: number[][];
  bias: number[];
  /** Temperature fitted on held-out data; logits are divided by it before the softmax. */
  temperature: number;
  /** ISO timestamp. */
  trainedAt: string;
  /** Number of training examples. */
  trainedOn: number;
  tokenizer: Required<TokenizeOptions>;
  /** Rules the model was trained with (their offsets are part of its logits); null = no rules. */
  rulesVersion: string | null;
  /** Held-out calibration figures recorded at training time. */
  calibration: { size: number; nllBefore: number; nllAfter: number; accuracy: number };
}

/** JSON with a fixed key order, so equal models always serialise to identical bytes. */
export function serializeModel(model: ClassifierModel): string {
  const ordered: ClassifierModel = {
    format: model.format,
    version: model.version,
    types: model.types,
    trainedAt: model.trainedAt,
    trainedOn: model.trainedOn,
    temperature: model.temperature,
    rulesVersion: model.rulesVersion,
    tokenizer: {
      bigrams: model.tokenizer.bigrams,
      charNgrams: model.tokenizer.charNgrams,
      minWordLength: model.tokenizer.minWordLength,
      maxChars: model.tokenizer.maxChars,
    },
    calibration: {
      size: model.calibration.size,
      nllBefore: model.calibration.nllBefore,
      nllAfter: model.calibration.nllAfter,
      accuracy: model.calibration.accuracy,
    },
    vocab: model.vocab,
    idf: model.idf,
    bias: model.bias,
    weights: model.weights,
  };
  return JSON.stringify(ordered);
}

function fail(msg: string): never {
  throw new Error(`invalid classifier model: ${msg}`);
}

function isNumberArray(v: unknown, len?: number): v is number[] {
  return (
    Array.isArray(v) &&
    (len === undefined || v.length === len) &&
    v.every((x) => typeof x === 'number' && Number.isFinite(x))
  );
}

/** Parse and validate a model from JSON text or an already-parsed object. */
export function parseModel(input: string | unknown): ClassifierModel {
  const raw: unknown = typeof input === 'string' ? JSON.parse(input) : input;
  if (typeof raw !== 'object' || raw === null) fail('not an object');
  const m = raw as Record<string, unknown>;
  if (m.format !== MODEL_FORMAT) fail(`unsupported format ${String(m.format)}`);
  if (typeof m.version !== 'string') fail('version');
  if (!Array.isArray(m.types) || m.types.length === 0 || !m.types.every((t) => typeof t === 'string')) fail('types');
  if (!Array.isArray(m.vocab) || !m.vocab.every((t) => typeof t === 'string')) fail('vocab');
  const types = m.types as string[];
  const vocab = m.vocab as string[];
  if (!isNumberArray(m.idf, vocab.length)) fail('idf');
  if (
    !Array.isArray(m.weights) ||
    m.weights.length !== types.length ||
    !m.weights.every((row) => isNumberArray(row, vocab.length))
  )
    fail('weights');
  if (!isNumberArray(m.bias, types.length)) fail('bias');
  if (typeof m.temperature !== 'number' || !(m.temperature > 0)) fail('temperature');
  if (typeof m.trainedAt !== 'string') fail('trainedAt');
  if (typeof m.trainedOn !== 'number') fail('trainedOn');
  if (m.rulesVersion !== null && typeof m.rulesVersion !== 'string') fail('rulesVersion');
  const tok = (m.tokenizer ?? {}) as Partial<TokenizeOptions>;
  const cal = (m.calibration ?? {}) as Partial<ClassifierModel['calibration']>;
  return {
    format: MODEL_FORMAT,
    version: m.version,
    types,
    vocab,
    idf: m.idf as number[],
    weights: m.weights as number[][],
    bias: m.bias as number[],
    temperature: m.temperature,
    trainedAt: m.trainedAt,
    trainedOn: m.trainedOn,
    tokenizer: { ...DEFAULT_TOKENIZE_OPTIONS, ...tok },
    rulesVersion: (m.rulesVersion as string | null) ?? null,
    calibration: {
      size: cal.size ?? 0,
      nllBefore: cal.nllBefore ?? 0,
      nllAfter: cal.nllAfter ?? 0,
      accuracy: cal.accuracy ?? 0,
    },
  };
}
