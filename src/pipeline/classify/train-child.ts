// Entry of the process that trains the built-in classifier (started by builtin.ts, never
// imported): argv is samplesDir, cachePath, sourceKey and the training options as JSON. It writes
// the cache and exits 0, or prints why and exits 1. Training here keeps its ~150 MB of garbage
// out of the long-lived worker that asked for the model.
import { trainIntoCache } from './builtin.js';
import type { TrainOptions } from './train.js';

const [samplesDir, cachePath, sourceKey, trainJson] = process.argv.slice(2);
// The IPC channel the parent opened is not used; closing it lets the process end by itself.
process.disconnect?.();
try {
  const train = JSON.parse(trainJson ?? '{}') as Omit<TrainOptions, 'trainedAt'> & { trainedAt?: string };
  await trainIntoCache(samplesDir, cachePath, sourceKey, {
    ...train,
    trainedAt: train.trainedAt ? new Date(train.trainedAt) : undefined,
  });
  process.exit(0);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
