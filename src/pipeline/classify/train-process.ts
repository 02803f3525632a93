/**
 * Training runs in a short-lived child process (train-child.ts): fitting the model takes
 * ~150 MB of heap that V8 and malloc keep resident in the process afterwards, and the processes
 * that ask for a model (workers) run for weeks.
 */
import { spawnLimited } from '../../lib/limited-process.js';
import { parseModel, type ClassifierModel } from './model.js';
import type { LabelledExample } from './samples.js';

/** What the child is asked over IPC to train on, besides the sample set. */
export interface ExtendedTrainRequest {
  samplesDir: string;
  extra: LabelledExample[];
  /** Weight of each extra example (a sample weighs 1). */
  extraWeight: number;
}

const TRAIN_HEAP_MB = 1024;
const TRAIN_MEMORY_MB = 2048;

/**
 * Runs the trainer with `args`; with `request` it is sent over IPC and the model the child
 * sends back is returned. Rejects with the child's last words when it fails.
 */
export function runTrainer(args: string[], request?: ExtendedTrainRequest): Promise<ClassifierModel | null> {
  return new Promise((resolve, reject) => {
    const p = spawnLimited({
      entry: new URL(`./train-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
      args,
      maxHeapMb: TRAIN_HEAP_MB,
      maxMemoryMb: TRAIN_MEMORY_MB,
    });
    let model: ClassifierModel | null = null;
    let bad: unknown;
    p.child.on('message', (m: { type?: string; json?: string }) => {
      if (m.type !== 'model' || typeof m.json !== 'string') return;
      try {
        model = parseModel(m.json);
      } catch (err) {
        bad = err;
      }
    });
    p.child.once('error', reject);
    // 'close', not 'exit': stderr may still hold the child's last words at 'exit'.
    p.child.once('close', (code, signal) => {
      if (code === 0 && !bad && (model || !request)) return resolve(model);
      const why = p.stderrTail().trim().split('\n').slice(-3).join(' ');
      const reason = bad instanceof Error ? bad.message : why;
      reject(new Error(`training the classifier failed (${signal ?? `exit ${code}`})${reason ? `: ${reason}` : ''}`));
    });
    if (request) p.child.send(request);
  });
}

/** Trains on the sample set plus `request.extra` in a child process. */
export async function trainWithSamples(request: ExtendedTrainRequest): Promise<ClassifierModel> {
  const model = await runTrainer(['extended'], request);
  if (!model) throw new Error('the classifier trainer sent no model');
  return model;
}
