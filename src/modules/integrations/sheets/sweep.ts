// Safety net for lost jobs. Flush jobs are queued after buffered rows commit (by the outbox
// consumer, a workflow step or the document job): a process dying in between would otherwise
// leave the rows waiting. Extractions themselves cannot be lost: their rows are buffered in the
// relay's transaction of the document.extracted event.
import type { DocumentExportsRepository } from './document-exports.repository.js';
import type { ExportProducer } from './producer.js';

/** Options of {@link sweepExports}. */
export interface SweepOptions {
  /** How old a buffered row must be before the sweep acts, ms. Default 30000. */
  graceMs?: number;
}

export async function sweepExports(rows: DocumentExportsRepository, producer: ExportProducer, opts: SweepOptions = {}) {
  const grace = opts.graceMs ?? 30_000;
  const stale = await rows.exportsWithStaleQueue(grace);
  for (const id of stale) await producer.scheduleFlush(id);
  return { flushes: stale.length };
}
