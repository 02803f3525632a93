import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Queues } from '../src/jobs/queues.js';
import { PermanentError } from '../src/lib/errors.js';
import type { Logger } from '../src/lib/logger.js';
import type { Metrics } from '../src/modules/metrics/index.js';
import type { Stage } from '../src/modules/documents/documents.types.js';
import { STAGE_ATTEMPTS, type StageJobData } from '../src/modules/documents/flow.js';
import type { StageCompute, StageRunner } from '../src/modules/documents/stage-runner.js';

/**
 * Per-stage concurrency multipliers. A parse job spends most of its time waiting (blob read,
 * pdf.js on its own thread, page hand-offs through a busy event loop), so more parse jobs than
 * pdf.js threads keep those threads fed: measured in the 200-document burst, the wait in front
 * of parse fell from 1.4 s to ~0.15 s going from 2 to 4 per unit of WORKER_CONCURRENCY.
 */
const CONCURRENCY: Record<Stage, number> = { parse: 4, embed: 2, classify: 2, extract: 2 };

/** Lock tuning for the stage workers; the defaults suit production. */
export interface PipelineWorkerOptions {
  /** How long a job's lock lasts without renewal; a dead worker's job is taken over after this. Default 120 000 ms. */
  lockDurationMs?: number;
  /** How often this worker looks for jobs whose lock expired (stalled). Default 30 000 ms. */
  stalledIntervalMs?: number;
}

/** What a stage worker uses (the container fits as is). */
export interface StageWorkerDeps {
  queues: Pick<Queues, 'workerConnection' | 'prefix'>;
  logger: Logger;
  documents: { runner: Pick<StageRunner, 'run' | 'fail'>; computes: Record<Stage, StageCompute> };
  /** Stage durations and failures by code; none recorded when absent. */
  metrics?: Pick<Metrics, 'stageDuration' | 'stageFailures'>;
}

/** The code a failed attempt is counted under: a domain error's own, else TRANSIENT (retried). */
function failureCode(err: unknown): string {
  if (err instanceof PermanentError) return err.code;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : 'TRANSIENT';
}

/**
 * The BullMQ worker of one stage queue. Stage code is async throughout (pdf.js and the other
 * parsers in their own processes, OCR and ONNX on their own threads), and the lock is long
 * enough that a busy event loop does not make BullMQ hand the job to another worker.
 */
export function startStageWorker(stage: Stage, deps: StageWorkerDeps, concurrency: number, opts: PipelineWorkerOptions = {}): Worker<StageJobData> {
  const { runner, computes } = deps.documents;
  const m = deps.metrics;
  const worker = new Worker<StageJobData>(stage, async (job: Job<StageJobData>) => {
    const started = performance.now();
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
    }
  }, {
    connection: deps.queues.workerConnection(),
    prefix: deps.queues.prefix,
    concurrency: Math.max(1, concurrency * CONCURRENCY[stage]),
    lockDuration: opts.lockDurationMs ?? 120_000,
    stalledInterval: opts.stalledIntervalMs ?? 30_000,
    maxStalledCount: 2,
  });
  worker.on('failed', (job, err) => {
    if (!job) return;
    const exhausted = job.attemptsMade >= (job.opts.attempts ?? STAGE_ATTEMPTS);
    // A permanent failure was recorded when it was thrown.
    if (exhausted && !(err instanceof UnrecoverableError)) {
      runner.fail(stage, job.data, 'STAGE_FAILED', err.message).catch((e: unknown) => deps.logger.error({ err: e }, 'could not record stage failure'));
    }
  });
  worker.on('error', (err) => deps.logger.warn({ err, queue: stage }, 'worker error'));
  return worker;
}
