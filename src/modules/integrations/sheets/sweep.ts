// Safety net for lost jobs. The stage hook runs after the extract stage commits, and flush jobs
// are queued after rows commit: a process dying in between would otherwise lose the export.
import type { DocumentExportsRepository } from './document-exports.repository.js';
import type { ExportProducer } from './producer.js';

/** Options of {@link sweepExports}. */
export interface SweepOptions {
  /** How old a buffered row or an extraction must be before the sweep acts, ms. Default 30000. */
  graceMs?: number;
  /** How far back extractions are checked for a missing export, ms. Default 24 h. */
  lookbackMs?: number;
  /** Most documents re-queued per sweep. Default 500. */
  limit?: number;
}

export async function sweepExports(rows: DocumentExportsRepository, producer: ExportProducer, opts: SweepOptions = {}) {
  const grace = opts.graceMs ?? 30_000;
  const stale = await rows.exportsWithStaleQueue(grace);
  for (const id of stale) await producer.scheduleFlush(id);
  // Versions whose extraction finished (after the export was created) but never reached the buffer.
  const missed = await rows.extractionsNotBuffered(grace, opts.lookbackMs ?? 86_400_000, opts.limit ?? 500);
  if (missed.length) await producer.addDocuments(missed);
  return { flushes: stale.length, documents: missed.length };
}
