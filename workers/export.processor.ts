// BullMQ worker for the `export` queue: `document` jobs buffer one document version for its
// project's exports, `flush` jobs write an export's buffer to Google Sheets. Google failures are
// handled inside the flush (retry schedule, error state); a job only throws on crashes and
// database errors, and BullMQ's attempts then re-run it.
import { Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from '../src/lib/logger.js';
import type { Metrics } from '../src/modules/metrics/index.js';
import type { ExportWorkerDeps } from '../src/modules/integrations/sheets/index.js';
import type { ExportJob } from '../src/modules/integrations/sheets/sheets.types.js';
import { EXPORT_QUEUE } from '../src/modules/integrations/sheets/producer.js';
import { closeWorker } from './close.js';

export type ExportHandlers = ExportWorkerDeps['handlers'];

/** Options of {@link startExportWorker}. */
export interface ExportWorkerOptions {
  connection: ConnectionOptions;
  /** BullMQ key prefix of this install. */
  prefix: string;
  /** Parallel jobs; flushes of one export never overlap (lease), different exports run side by side. Default 8. */
  concurrency?: number;
  /** Job lock, ms; must exceed a flush's Google calls. Default 120000. */
  lockDurationMs?: number;
  /** Stalled-job check period, ms. Default 30000. */
  stalledIntervalMs?: number;
  logger: Logger;
  /** Counts the rows flushes wrote. */
  metrics?: Pick<Metrics, 'sheetsRows'>;
}

export interface RunningExportWorker {
  /** Stops taking jobs and waits up to `timeoutMs` (default 10000) for running ones. */
  close(timeoutMs?: number): Promise<void>;
}

export function startExportWorker(handlers: ExportHandlers, opts: ExportWorkerOptions): RunningExportWorker {
  const worker = new Worker<ExportJob>(
    EXPORT_QUEUE,
    async (job) => {
      const d = job.data;
      if (d.kind !== 'flush') return handlers.queueDocument(d.documentId, d.version);
      const res = await handlers.flush(d.exportId);
      const rows = (res as { outcome?: string; rows?: number } | null)?.rows;
      if (typeof rows === 'number' && rows > 0) opts.metrics?.sheetsRows.inc(rows);
      return res;
    },
    {
      connection: opts.connection,
      prefix: opts.prefix,
      concurrency: opts.concurrency ?? 8,
      lockDuration: opts.lockDurationMs ?? 120_000,
      stalledInterval: opts.stalledIntervalMs ?? 30_000,
      maxStalledCount: 2,
    },
  );
  worker.on('error', (err) => opts.logger.warn({ err, queue: EXPORT_QUEUE }, 'export worker error'));
  worker.on('failed', (job, err) =>
    opts.logger.warn({ err, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'export job failed'),
  );
  // A flush cut off at close keeps its rows `writing`; the next attempt finds what reached the sheet.
  return { close: (timeoutMs = 10_000) => closeWorker(worker, timeoutMs) };
}

/**
 * The `export` worker role: the worker plus the safety-net sweep on a timer. `concurrency`: export
 * jobs in parallel (they wait on Google).
 */
export function startExportWorkers(
  deps: ExportWorkerDeps,
  opts: { concurrency: number; metrics?: Pick<Metrics, 'sheetsRows'> },
): RunningExportWorker {
  const worker = startExportWorker(deps.handlers, {
    connection: deps.queues.workerConnection(),
    prefix: deps.queues.prefix,
    concurrency: opts.concurrency,
    logger: deps.logger,
    metrics: opts.metrics,
  });
  let sweeping = false;
  const timer =
    deps.sweepIntervalMs > 0
      ? setInterval(() => {
          if (sweeping) return;
          sweeping = true;
          deps
            .sweep()
            .catch((err: unknown) => deps.logger.warn({ err }, 'sheets export sweep failed'))
            .finally(() => {
              sweeping = false;
            });
        }, deps.sweepIntervalMs)
      : undefined;
  timer?.unref();
  return {
    async close(timeoutMs?: number) {
      if (timer) clearInterval(timer);
      await worker.close(timeoutMs);
    },
  };
}
