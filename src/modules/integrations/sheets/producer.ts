// Jobs on the `export` queue. Jobs carry ids only; the database holds the rows to write.
import type { Queues } from '../../../jobs/queues.js';
import type { ExportJob } from './sheets.types.js';

export const EXPORT_QUEUE = 'export' as const;

/** Options of {@link createExportProducer}. */
export interface ExportProducerOptions {
  /**
   * How long rows gather in an export's buffer before a flush writes them, ms. Default 200.
   * Flush jobs are bucketed on this period: at most one flush per export per period is queued.
   */
  flushDelayMs?: number;
  /** Attempts of a job that throws (crash, database error); Google failures are handled inside. Default 5. */
  attempts?: number;
  /** First backoff of such a job, ms (doubles). Default 1000. */
  backoffMs?: number;
}

export interface ExportProducer {
  /** Queue the export of one document version to its project's after-extraction exports. */
  addDocument(documentId: string, version: number): Promise<void>;
  addDocuments(docs: readonly { id: string; version: number }[]): Promise<void>;
  /**
   * Make sure a flush of `exportId` runs at or after `notBeforeMs` (default: one flush period
   * from now). The job id names the period, so rows buffered before the call are always seen:
   * either a new job is added, or an existing one for the same period has not started yet.
   */
  scheduleFlush(exportId: string, notBeforeMs?: number): Promise<void>;
}

export function createExportProducer(queues: Queues, opts: ExportProducerOptions = {}): ExportProducer {
  const period = opts.flushDelayMs ?? 200;
  const retry = { attempts: opts.attempts ?? 5, backoff: { type: 'exponential', delay: opts.backoffMs ?? 1000 } };
  const queue = () => queues.get(EXPORT_QUEUE);
  const scheduled = new Map<string, number>();
  const documentJob = (d: { id: string; version: number }) => ({
    name: 'document',
    data: { kind: 'document', documentId: d.id, version: d.version } satisfies ExportJob,
    // One job per document version; a failed one is kept an hour for diagnosis.
    opts: { jobId: `exp-doc-${d.id}-v${d.version}`, ...retry, removeOnComplete: true, removeOnFail: { age: 3600 } },
  });
  return {
    async addDocument(documentId, version) {
      const j = documentJob({ id: documentId, version });
      await queue().add(j.name, j.data, j.opts);
    },
    async addDocuments(docs) {
      for (let i = 0; i < docs.length; i += 500) await queue().addBulk(docs.slice(i, i + 500).map(documentJob));
    },
    async scheduleFlush(exportId, notBeforeMs) {
      const now = Date.now();
      const at = Math.max(now + period, notBeforeMs ?? 0);
      const bucket = Math.ceil(at / period);
      // This process already queued the job for that period: Redis would ignore the add anyway.
      if (scheduled.get(exportId) === bucket) return;
      await queue().add('flush', { kind: 'flush', exportId } satisfies ExportJob, {
        jobId: `flush-${exportId}-${bucket}`,
        delay: Math.max(0, bucket * period - now),
        ...retry,
        // Removed on completion so that the id can never shadow a later request.
        removeOnComplete: true,
        removeOnFail: { age: 86_400, count: 1000 },
      });
      if (scheduled.size > 10_000) scheduled.clear();
      scheduled.set(exportId, bucket);
    },
  };
}
