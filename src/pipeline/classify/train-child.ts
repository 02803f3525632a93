// Entry of the process that trains a classifier (started by train-process.ts, never imported).
//   builtin SAMPLES_DIR CACHE_PATH SOURCE_KEY TRAIN_JSON   trains the built-in model into its cache
//   extended   waits for one ExtendedTrainRequest over IPC, trains on the samples plus its
//              examples and sends back {type:'model', json}
// It exits 0 when done, or prints why and exits 1. Training here keeps its ~150 MB of garbage out
// of the long-lived process that asked for the model.
import { trainIntoCache } from './builtin.js';
import { serializeModel } from './model.js';
import { loadSampleSet } from './samples.js';
import { trainClassifier, type TrainOptions } from './train.js';
import type { ExtendedTrainRequest } from './train-process.js';

function fail(err: unknown): never {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

async function builtin([samplesDir, cachePath, sourceKey, trainJson]: string[]): Promise<void> {
  // The IPC channel the parent opened is not used; closing it lets the process end by itself.
  process.disconnect?.();
  const train = JSON.parse(trainJson ?? '{}') as Omit<TrainOptions, 'trainedAt' | 'weights'> & { trainedAt?: string };
  await trainIntoCache(samplesDir, cachePath, sourceKey, {
    ...train,
    trainedAt: train.trainedAt ? new Date(train.trainedAt) : undefined,
  });
  process.exit(0);
}

function extended(): void {
  // The parent is gone before sending: nothing to train for.
  process.once('disconnect', () => process.exit(1));
  process.once('message', (req: ExtendedTrainRequest) => {
    void (async () => {
      const base = await loadSampleSet(req.samplesDir);
      const examples = [...base.map((s) => ({ text: s.text, type: s.type })), ...req.extra];
      const weights = [...base.map(() => 1), ...req.extra.map(() => req.extraWeight)];
      const json = serializeModel(trainClassifier(examples, { weights }));
      process.send?.({ type: 'model', json }, () => process.exit(0));
    })().catch(fail);
  });
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'builtin') builtin(rest).catch(fail);
else if (mode === 'extended') extended();
else fail(`unknown mode ${mode}`);
