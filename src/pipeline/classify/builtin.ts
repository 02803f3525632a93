/**
 * The built-in model: trained from the committed sample set and cached as JSON so that a worker
 * starting up reads a file instead of training.
 *
 * The cache is keyed twice. `sourceKey` hashes the sample files' raw bytes with the algorithm,
 * rules, format and training options: a process whose cache matches it reads the model and never
 * converts a sample (900 files, e-mails among them; converting them left ~30 MB resident in every
 * worker). The model's own `version` hashes the samples' text, as before. On a miss the model is
 * trained in a short-lived child process: training takes ~150 MB of heap that V8 and malloc keep
 * resident afterwards, and a worker that trained held 340 MB for the rest of its life instead of
 * about 220.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MODEL_FORMAT, parseModel, serializeModel, type ClassifierModel } from './model.js';
import { RULES_VERSION } from './rules.js';
import { loadSampleSet, SAMPLE_TEXT_VERSION, sampleFiles } from './samples.js';
import { runTrainer } from './train-process.js';
import { ALGORITHM_VERSION, trainClassifier, trainingDefaults, type TrainOptions } from './train.js';

/** Options for {@link loadBuiltinModel}. */
export interface BuiltinModelOptions {
  /**
   * JSON file to read the model from and write it to (e.g. `DATA_DIR/models/classifier.json`).
   * Without it the model is trained on every call, in the calling process.
   */
  cachePath?: string;
  /** Training options (seed, l2, …). Default: the trainClassifier defaults. */
  train?: Omit<TrainOptions, 'weights'>;
  /**
   * Train a missing or stale cache in a child process (default true). False trains in the
   * calling process (the child's own use).
   */
  trainInChild?: boolean;
}

type BuiltinTrainOptions = Omit<TrainOptions, 'weights'>;

/** Hash of what the model is trained from, read from the raw files without converting any. */
export async function sourceKeyFor(samplesDir: string, train: BuiltinTrainOptions = {}): Promise<string> {
  const h = createHash('sha256').update(
    JSON.stringify({
      algo: ALGORITHM_VERSION,
      rules: RULES_VERSION,
      format: MODEL_FORMAT,
      text: SAMPLE_TEXT_VERSION,
      train: trainingDefaults(train),
      types: train.types ?? null,
    }),
  );
  const files = await sampleFiles(samplesDir);
  for (const f of files) h.update(`\u0000${f.id}\u0000`).update(await readFile(f.path));
  return `src-${files.length}-${h.digest('hex').slice(0, 24)}`;
}

async function readCached(path: string, sourceKey: string): Promise<ClassifierModel | null> {
  try {
    const raw = JSON.parse(await readFile(path, 'utf8')) as { sourceKey?: unknown };
    return raw.sourceKey === sourceKey ? parseModel(raw) : null;
  } catch {
    // Missing, unreadable or corrupt cache: retrain and overwrite.
    return null;
  }
}

/** Trains from the samples and writes the cache with its source key (write-then-rename). */
export async function trainIntoCache(
  samplesDir: string,
  cachePath: string,
  sourceKey: string,
  train: BuiltinTrainOptions = {},
): Promise<ClassifierModel> {
  const model = await trainFromSamples(samplesDir, train);
  await mkdir(dirname(cachePath), { recursive: true });
  // A concurrently starting worker never reads a half-written file.
  const tmp = `${cachePath}.${process.pid}.${Date.now()}.tmp`;
  const json = serializeModel(model);
  await writeFile(tmp, `{"sourceKey":${JSON.stringify(sourceKey)},${json.slice(1)}`);
  await rename(tmp, cachePath);
  return model;
}

async function trainFromSamples(samplesDir: string, train: BuiltinTrainOptions): Promise<ClassifierModel> {
  const examples = await loadSampleSet(samplesDir);
  if (examples.length === 0) throw new Error(`no classifier samples under ${samplesDir}`);
  return trainClassifier(examples, train);
}

export async function loadBuiltinModel(
  samplesDir: string,
  options: BuiltinModelOptions = {},
): Promise<ClassifierModel> {
  const train = options.train ?? {};
  const { cachePath } = options;
  if (!cachePath) return trainFromSamples(samplesDir, train);
  const sourceKey = await sourceKeyFor(samplesDir, train);
  const cached = await readCached(cachePath, sourceKey);
  if (cached) return cached;
  if (options.trainInChild === false) return trainIntoCache(samplesDir, cachePath, sourceKey, train);
  await runTrainer(['builtin', samplesDir, cachePath, sourceKey, JSON.stringify(train)]);
  const trained = await readCached(cachePath, sourceKey);
  if (!trained) throw new Error(`the built-in classifier was trained but ${cachePath} does not hold it`);
  return trained;
}
