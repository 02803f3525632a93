import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Queues } from '../src/jobs/queues.js';
import { PermanentError } from '../src/lib/errors.js';
import type { Logger } from '../src/lib/logger.js';
import type { Metrics } from '../src/modules/metrics/index.js';
import { STAGE_DESCRIPTORS, type Stage } from '../src/pipeline/stages.js';
import { STAGE_ATTEMPTS, type StageJobData } from '../src/modules/documents/flow.js';
import type { StageCompute, StageRunner } from '../src/modules/documents/stage-runner.js';

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
}

/** What a stage worker uses (the container fits as is). */
export interface StageWorkerDeps {
  queues: Pick<Queues, 'workerConnection' | 'prefix'>;
  logger: Logger;
  documents: { runner: Pick<StageRunner, 'run' | 'fail'>; computes: Record<Stage, StageCompute> };
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
 */
export function startStageWorker(
  stage: Stage,
  deps: StageWorkerDeps,
  concurrency: number,
  opts: PipelineWorkerOptions = {},
): Worker<StageJobData> {
  const { runner, computes } = deps.documents;
  const m = deps.metrics;
  const worker = new Worker<StageJobData>(
    stage,
    async (job: Job<StageJobData>) => {
      const started = performance.now();
      m?.stageActive.inc({ stage });
      try {
        const r = await runner.run(stage, job.data, computes[stage]);
        m?.stageDuration.observe({ stage, outcome: r.outcome }, (performance.now() - started) / 1000);
        return r.outcome;
      } catch (err) {
        if (m) {
          m.stageDuration.observe({ stage, outcome: 'failed' }, (performance.now() - started) / 1000);
          m.stageFailures.inc({ stage, code: failureCode(err) });
        }
        if (err instanceof PermanentError) {
          await runner.fail(stage, job.data, err.code, err.message);
          throw new UnrecoverableError(`${err.code}: ${err.message}`);
        }
        throw err;
      } finally {
        m?.stageActive.dec({ stage });
      }
    },
    {
      connection: deps.queues.workerConnection(),
      prefix: deps.queues.prefix,
      // Per unit of WORKER_CONCURRENCY, as the stage's descriptor says (src/pipeline/stages.ts).
      concurrency: Math.max(1, concurrency * STAGE_DESCRIPTORS[stage].concurrency),
      lockDuration: opts.lockDurationMs ?? STAGE_LOCK_MS,
      stalledInterval: opts.stalledIntervalMs ?? STAGE_STALLED_CHECK_MS,
      // Two stalls before the job fails: a crash, and one more (another crash, or a lock lost to a
      // frozen process) still recover; a job that kills every worker it lands on does not loop.
      maxStalledCount: 2,
    },
  );
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
