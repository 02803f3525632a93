import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Queues } from '../src/jobs/queues.js';
import { stageSlotsFor } from './stage-slots.js';
import { createPauseCheck } from './pause-check.js';
import { PermanentError } from '../src/lib/errors.js';
import type { Logger } from '../src/lib/logger.js';
import type { Metrics } from '../src/modules/metrics/index.js';
import { STAGE_DESCRIPTORS, type Stage } from '../src/pipeline/stages.js';
import { STAGE_ATTEMPTS, type StageJobData } from '../src/modules/documents/flow.js';
import type { RunResult, StageCompute, StageRunner } from '../src/modules/documents/stage-runner.js';

/**
 * A dead worker's jobs are moved back to waiting by the first stalled-job check after their lock
 * expired: at most lockDuration + stalledInterval (20 s) after the kill, then picked up at once.
 * BullMQ renews each lock every lockDuration / 2 while the job runs, which needs this process's
 * event loop free for a moment every 7.5 s: the heavy stage work never holds it that long (pdf.js
 * and the other parsers run in child processes, OCR and ONNX on their own threads).
 */
export const STAGE_LOCK_MS = 15_000;
export const STAGE_STALLED_CHECK_MS = 5_000;

/** Lock tuning for the stage workers; the defaults suit production. */
export interface PipelineWorkerOptions {
  /** How long a job's lock lasts without renewal; a dead worker's job is taken over after this. Default {@link STAGE_LOCK_MS}. */
  lockDurationMs?: number;
  /** How often the queue is checked for jobs whose lock expired (stalled). Default {@link STAGE_STALLED_CHECK_MS}. */
  stalledIntervalMs?: number;
  /** Go on with the next stage in this job when possible (PIPELINE_CONTINUE). Default true. */
  continueStages?: boolean;
}

/** What a stage worker uses (the container fits as is). */
export interface StageWorkerDeps {
  queues: Pick<Queues, 'workerConnection' | 'prefix' | 'get'>;
  logger: Logger;
  documents: { runner: Pick<StageRunner, 'run' | 'fail' | 'enqueue'>; computes: Record<Stage, StageCompute> };
  /** Stage durations and failures by code; none recorded when absent. */
  metrics?: Pick<Metrics, 'stageDuration' | 'stageFailures' | 'stageActive'>;
}

/** The code a failed attempt is counted under: a domain error's own, else TRANSIENT (retried). */
function failureCode(err: unknown): string {
  if (err instanceof PermanentError) return err.code;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : 'TRANSIENT';
}

/**
 * The BullMQ worker of one stage queue. Stage code is async throughout (pdf.js and the other
 * parsers in their own processes, OCR and ONNX on their own threads), so the lock is renewed
 * while a long job runs; a job that does stall (its worker died) is run again elsewhere, and
 * the stage runner makes a second run of a committed stage a no-op.
 *
 * Once its stage committed, a job goes on with the document's next stages while this process
 * serves them and has a free slot for them (stage-slots.ts) and their queue is not paused; each
 * stage still commits with its own event. A continued stage that fails for good marks the document
 * failed as its own job would; one that fails otherwise is queued, to be retried by its own queue.
 */
export function startStageWorker(
  stage: Stage,
  deps: StageWorkerDeps,
  concurrency: number,
  opts: PipelineWorkerOptions = {},
): Worker<StageJobData> {
  const { runner, computes } = deps.documents;
  const m = deps.metrics;
  const slots = stageSlotsFor(deps.documents);
  // Each stage worker keeps its own answers: a worker started after a pause sees it at once.
  const isPaused = createPauseCheck(deps.queues);
  const limit = Math.max(1, concurrency * STAGE_DESCRIPTORS[stage].concurrency);
  slots.serve(stage, limit);

  const continueHere = async (next: Stage): Promise<boolean> => {
    if (opts.continueStages === false || !slots.tryEnter(next)) return false;
    // An operator's pause of a stage holds its documents, continued or not (continuations see
    // it within PAUSE_CHECK_MS; jobs already fetched run on, as with any queue).
    const paused = await isPaused(next);
    if (paused) slots.leave(next);
    return !paused;
  };

  /** One stage of one document, with its metrics; a permanent failure is recorded and rethrown as unrecoverable. */
  const attempt = async (s: Stage, data: StageJobData, read?: RunResult['read']): Promise<RunResult> => {
    const started = performance.now();
    m?.stageActive.inc({ stage: s });
    try {
      const r = await runner.run(s, data, computes[s], { continueHere, giveBack: (next) => slots.leave(next), read });
      m?.stageDuration.observe({ stage: s, outcome: r.outcome }, (performance.now() - started) / 1000);
      return r;
    } catch (err) {
      if (m) {
        m.stageDuration.observe({ stage: s, outcome: 'failed' }, (performance.now() - started) / 1000);
        m.stageFailures.inc({ stage: s, code: failureCode(err) });
      }
      if (err instanceof PermanentError) {
        await runner.fail(s, data, err.code, err.message);
        throw new UnrecoverableError(`${err.code}: ${err.message}`);
      }
      throw err;
    } finally {
      m?.stageActive.dec({ stage: s });
    }
  };

  const worker = new Worker<StageJobData>(
    stage,
    async (job: Job<StageJobData>) => {
      slots.enter(stage);
      let r: RunResult;
      try {
        r = await attempt(stage, job.data);
      } finally {
        slots.leave(stage);
      }
      const outcome = r.outcome;
      // The slot of each continued stage was taken by continueHere.
      while (r.continued && r.next) {
        const next = r.next;
        try {
          r = await attempt(next, job.data, r.read);
        } catch (err) {
          if (!(err instanceof UnrecoverableError))
            await runner
              .enqueue(next, { id: job.data.documentId, version: job.data.version })
              .catch((e: unknown) =>
                deps.logger.warn(
                  { err: e, documentId: job.data.documentId },
                  'could not queue a stage; the sweeper will',
                ),
              );
          r = { outcome: 'done', next: null };
        } finally {
          slots.leave(next);
        }
      }
      return outcome;
    },
    {
      connection: deps.queues.workerConnection(),
      prefix: deps.queues.prefix,
      // Per unit of WORKER_CONCURRENCY, as the stage's descriptor says (src/pipeline/stages.ts).
      concurrency: limit,
      lockDuration: opts.lockDurationMs ?? STAGE_LOCK_MS,
      stalledInterval: opts.stalledIntervalMs ?? STAGE_STALLED_CHECK_MS,
      // Two stalls before the job fails: a crash, and one more (another crash, or a lock lost to a
      // frozen process) still recover; a job that kills every worker it lands on does not loop.
      maxStalledCount: 2,
    },
  );
  worker.on('closing', () => slots.stop(stage));
  worker.on('failed', (job, err) => {
    if (!job) return;
    const exhausted = job.attemptsMade >= (job.opts.attempts ?? STAGE_ATTEMPTS);
    // A permanent failure was recorded when it was thrown.
    if (exhausted && !(err instanceof UnrecoverableError)) {
      runner
        .fail(stage, job.data, 'STAGE_FAILED', err.message)
        .catch((e: unknown) => deps.logger.error({ err: e }, 'could not record stage failure'));
    }
  });
  worker.on('error', (err) => deps.logger.warn({ err, queue: stage }, 'worker error'));
  return worker;
}
