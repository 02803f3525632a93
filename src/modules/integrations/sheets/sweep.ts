// Safety net for lost jobs. The stage hook runs after the extract stage commits, and flush jobs
// are queued after rows commit: a process dying in between would otherwise lose the export.
import type { Queryable } from '../../../db/client.js';
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

export async function sweepExports(db: Queryable, rows: DocumentExportsRepository, producer: ExportProducer, opts: SweepOptions = {}) {
  const grace = opts.graceMs ?? 30_000;
  const stale = await rows.exportsWithStaleQueue(grace);
  for (const id of stale) await producer.scheduleFlush(id);
  // Versions whose extraction finished (after the export was created) but never reached the buffer.
  const { rows: missed } = await db.query<{ id: string; version: number }>(
    `SELECT DISTINCT d.id, d.version FROM stage_runs s
       JOIN documents d ON d.id = s.document_id AND d.version = s.version
       JOIN sheets_exports e ON e.project_id = d.project_id AND e.is_active AND e.trigger = 'after_extraction' AND e.created_at < s.finished_at
     WHERE s.stage = 'extract'
       AND s.finished_at < now() - make_interval(secs => $1::double precision / 1000)
       AND s.finished_at > now() - make_interval(secs => $2::double precision / 1000)
       AND NOT EXISTS (SELECT 1 FROM document_exports x WHERE x.export_id = e.id AND x.document_id = d.id AND x.document_version = d.version)
     LIMIT $3`,
    [grace, opts.lookbackMs ?? 86_400_000, opts.limit ?? 500],
  );
  if (missed.length) await producer.addDocuments(missed);
  return { flushes: stale.length, documents: missed.length };
}
