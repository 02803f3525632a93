/**
 * The built-in model: trained from the committed sample set and cached as JSON so that a worker
 * starting up reads a file instead of training. The cache is keyed by the model version, a hash
 * of the samples and training options, so editing the samples or upgrading the algorithm
 * retrains automatically.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseModel, serializeModel, type ClassifierModel } from './model.js';
import { loadSampleSet } from './samples.js';
import { modelVersionFor, trainClassifier, type TrainOptions } from './train.js';

/** Options for {@link loadBuiltinModel}. */
export interface BuiltinModelOptions {
  /**
   * JSON file to read the model from and write it to (e.g. `DATA_DIR/models/classifier.json`).
   * Without it the model is trained on every call.
   */
  cachePath?: string;
  /** Training options (seed, l2, …). Default: the trainClassifier defaults. */
  train?: Omit<TrainOptions, 'weights'>;
}

async function readCached(path: string, version: string): Promise<ClassifierModel | null> {
  try {
    const model = parseModel(await readFile(path, 'utf8'));
    return model.version === version ? model : null;
  } catch {
    // Missing, unreadable or corrupt cache: retrain and overwrite.
    return null;
  }
}

export async function loadBuiltinModel(
  samplesDir: string,
  options: BuiltinModelOptions = {},
): Promise<ClassifierModel> {
  const examples = await loadSampleSet(samplesDir);
  if (examples.length === 0) throw new Error(`no classifier samples under ${samplesDir}`);
  const trainOptions = options.train ?? {};
  const version = modelVersionFor(examples, trainOptions);
  if (options.cachePath) {
    const cached = await readCached(options.cachePath, version);
    if (cached) return cached;
  }
  const model = trainClassifier(examples, trainOptions);
  if (options.cachePath) {
    await mkdir(dirname(options.cachePath), { recursive: true });
    // Write-then-rename so a concurrently starting worker never reads a half-written file.
    const tmp = `${options.cachePath}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, serializeModel(model));
    await rename(tmp, options.cachePath);
  }
  return model;
}
