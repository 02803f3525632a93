// document_exports is both the write buffer (pending / writing rows) and the per-document export
// status. The primary key (export, document, version) is what makes queueing idempotent.
import type { Queryable } from '../../../db/client.js';
import type { Scope } from '../../../lib/scope.js';
import type { DocumentExportRow, ExportMode, SnapshotContext } from './sheets.types.js';

export type QueueOutcome = 'queued' | 'requeued' | 'already_queued' | 'already_exported';

/** One row's outcome after a write. */
export interface WrittenRow {
  documentId: string;
  version: number;
  range: string;
  row: number;
}

export interface RowKey {
  documentId: string;
  version: number;
}

const keyArrays = (keys: readonly RowKey[]) => [keys.map((k) => k.documentId), keys.map((k) => k.version)];

export function createDocumentExportsRepository(db: Queryable) {
  return {
    /**
     * Buffers one document version for one export. Append mode: a version already queued or
     * written is left alone (a re-run job adds nothing). Upsert mode: a written version is queued
     * again, which rewrites its row in place.
     */
    async queue(
      q: Queryable,
      exp: { id: string; mode: ExportMode },
      documentId: string,
      version: number,
      context: SnapshotContext,
    ): Promise<QueueOutcome> {
      const inserted = await q.query(
        `INSERT INTO document_exports (export_id, document_id, document_version, status, context)
         VALUES ($1, $2, $3, 'pending', $4) ON CONFLICT DO NOTHING`,
        [exp.id, documentId, version, JSON.stringify(context)],
      );
      if (inserted.rowCount > 0) return 'queued';
      if (exp.mode === 'upsert') {
        const requeued = await q.query(
          `UPDATE document_exports SET status = 'pending', context = $4, error = NULL, queued_at = now(), updated_at = now(),
             seq = nextval(pg_get_serial_sequence('document_exports', 'seq'))
           WHERE export_id = $1 AND document_id = $2 AND document_version = $3 AND status IN ('exported', 'superseded')`,
          [exp.id, documentId, version, JSON.stringify(context)],
        );
        if (requeued.rowCount > 0) return 'requeued';
      }
      const { rows } = await q.query<{ status: string }>(
        'SELECT status FROM document_exports WHERE export_id = $1 AND document_id = $2 AND document_version = $3',
        [exp.id, documentId, version],
      );
      return rows[0]?.status === 'exported' || rows[0]?.status === 'superseded' ? 'already_exported' : 'already_queued';
    },

    /**
     * Buffers document versions for every active after-extraction export of their projects, in
     * one statement for the whole list (the hot path after extraction), with the same rules as
     * {@link queue}. Returns, per item, the exports that got a row to write.
     */
    async queueForProjects(
      q: Queryable,
      items: readonly { projectId: string; documentId: string; version: number; context: SnapshotContext }[],
    ): Promise<string[][]> {
      // One statement may not touch a row twice: the same version listed twice is queued once.
      const unique = [...new Map(items.map((i) => [`${i.documentId}:${i.version}`, i])).values()];
      const { rows } = await q.query<{ export_id: string; document_id: string; document_version: number }>(
        `INSERT INTO document_exports (export_id, document_id, document_version, status, context)
         SELECT e.id, v.document_id, v.version, 'pending', v.context
         FROM jsonb_to_recordset($1::jsonb) AS v(project_id text, document_id text, version int, context jsonb)
         JOIN sheets_exports e ON e.project_id = v.project_id AND e.is_active AND e.trigger = 'after_extraction'
         ON CONFLICT (export_id, document_id, document_version) DO UPDATE
           SET status = 'pending', context = EXCLUDED.context, error = NULL, queued_at = now(), updated_at = now(),
             seq = nextval(pg_get_serial_sequence('document_exports', 'seq'))
           WHERE document_exports.status IN ('exported', 'superseded')
             AND EXISTS (SELECT 1 FROM sheets_exports x WHERE x.id = document_exports.export_id AND x.mode = 'upsert')
         RETURNING export_id, document_id, document_version`,
        // One JSON parameter: a jsonb[] array literal costs the server far more to parse.
        [
          JSON.stringify(
            unique.map((i) => ({
              project_id: i.projectId,
              document_id: i.documentId,
              version: i.version,
              context: i.context,
            })),
          ),
        ],
      );
      const byKey = new Map<string, string[]>();
      for (const r of rows) {
        const k = `${r.document_id}:${r.document_version}`;
        byKey.set(k, [...(byKey.get(k) ?? []), r.export_id]);
      }
      return items.map((i) => byKey.get(`${i.documentId}:${i.version}`) ?? []);
    },

    /**
     * The next rows to write, oldest first, marked `writing`. Call only while holding the
     * export's lease. `wasWriting` tells which rows an earlier attempt may already have sent.
     */
    async claim(
      q: Queryable,
      exportId: string,
      limit: number,
    ): Promise<(DocumentExportRow & { wasWriting: boolean })[]> {
      const { rows } = await q.query<DocumentExportRow>(
        `SELECT * FROM document_exports WHERE export_id = $1 AND status IN ('pending', 'writing') ORDER BY seq LIMIT $2`,
        [exportId, limit],
      );
      if (rows.length === 0) return [];
      await q.query(
        `UPDATE document_exports d SET status = 'writing', attempts = attempts + 1, updated_at = now()
         FROM unnest($2::text[], $3::int[]) AS v(document_id, version)
         WHERE d.export_id = $1 AND d.document_id = v.document_id AND d.document_version = v.version`,
        [exportId, ...keyArrays(rows.map((r) => ({ documentId: r.document_id, version: r.document_version })))],
      );
      return rows.map((r) => ({ ...r, wasWriting: r.status === 'writing' }));
    },

    /** Records what is in the sheet, and stamps the documents' exported_at, in one transaction. */
    async markExported(q: Queryable, exportId: string, written: readonly WrittenRow[]): Promise<void> {
      if (written.length === 0) return;
      await q.query(
        `UPDATE document_exports d SET status = 'exported', range = v.range, row_number = v.row, exported_at = now(),
           context = NULL, error = NULL, updated_at = now()
         FROM unnest($2::text[], $3::int[], $4::text[], $5::int[]) AS v(document_id, version, range, row)
         WHERE d.export_id = $1 AND d.document_id = v.document_id AND d.document_version = v.version`,
        [
          exportId,
          written.map((w) => w.documentId),
          written.map((w) => w.version),
          written.map((w) => w.range),
          written.map((w) => w.row),
        ],
      );
      await q.query('UPDATE documents SET exported_at = now() WHERE id = ANY($1::text[])', [
        [...new Set(written.map((w) => w.documentId))],
      ]);
    },

    /** Older versions whose row a newer version of the same document took over (upsert). */
    async markSuperseded(
      q: Queryable,
      exportId: string,
      keys: readonly RowKey[],
      byVersion: Map<string, number>,
    ): Promise<void> {
      if (keys.length === 0) return;
      await q.query(
        `UPDATE document_exports d SET status = 'superseded', context = NULL, updated_at = now(),
           error = 'superseded by version ' || v.newer
         FROM unnest($2::text[], $3::int[], $4::int[]) AS v(document_id, version, newer)
         WHERE d.export_id = $1 AND d.document_id = v.document_id AND d.document_version = v.version`,
        [exportId, ...keyArrays(keys), keys.map((k) => byVersion.get(k.documentId) ?? k.version)],
      );
    },

    /**
     * Rows go back to `pending` (the request was refused, so nothing reached the sheet), or stay
     * `writing` when Google may have applied it; either way the reason is recorded.
     */
    async release(
      exportId: string,
      keys: readonly RowKey[],
      error: string | null,
      opts: { maybeWritten: boolean },
    ): Promise<void> {
      if (keys.length === 0) return;
      await db.query(
        `UPDATE document_exports d SET status = CASE WHEN $4::boolean THEN 'writing' ELSE 'pending' END, error = $5, updated_at = now()
         FROM unnest($2::text[], $3::int[]) AS v(document_id, version)
         WHERE d.export_id = $1 AND d.document_id = v.document_id AND d.document_version = v.version AND d.status = 'writing'`,
        [exportId, ...keyArrays(keys), opts.maybeWritten, error?.slice(0, 2000) ?? null],
      );
    },

    async countByStatus(exportId: string): Promise<Record<string, number>> {
      const { rows } = await db.query<{ status: string; n: number }>(
        'SELECT status, count(*) AS n FROM document_exports WHERE export_id = $1 GROUP BY status',
        [exportId],
      );
      const out: Record<string, number> = { pending: 0, writing: 0, exported: 0, superseded: 0 };
      for (const r of rows) out[r.status] = r.n;
      return out;
    },

    async hasQueued(exportId: string): Promise<boolean> {
      const { rows } = await db.query(
        `SELECT 1 FROM document_exports WHERE export_id = $1 AND status IN ('pending', 'writing') LIMIT 1`,
        [exportId],
      );
      return rows.length > 0;
    },

    /** Status per export target of one document, newest version first. */
    async forDocument(scope: Scope, documentId: string) {
      const { rows } = await db.query<
        DocumentExportRow & {
          spreadsheet_id: string;
          sheet_name: string;
          export_status: string;
          export_error: string | null;
        }
      >(
        `SELECT d.export_id, d.document_id, d.document_version, d.seq, d.status, d.attempts, d.queued_at, d.exported_at, d.range,
           d.row_number, d.error, d.updated_at, e.spreadsheet_id, e.sheet_name, e.status AS export_status, e.last_error AS export_error
         FROM document_exports d JOIN sheets_exports e ON e.id = d.export_id
         WHERE d.document_id = $1 AND e.org_id = $2 AND e.environment = $3
         ORDER BY d.document_version DESC, e.created_at`,
        [documentId, scope.orgId, scope.environment],
      );
      return rows;
    },

    /** Exports whose buffer has rows waiting longer than `graceMs` (a flush job may have been lost). */
    async exportsWithStaleQueue(graceMs: number, limit = 200): Promise<string[]> {
      const { rows } = await db.query<{ export_id: string }>(
        `SELECT DISTINCT d.export_id FROM document_exports d JOIN sheets_exports e ON e.id = d.export_id
         WHERE d.status IN ('pending', 'writing') AND d.updated_at < now() - make_interval(secs => $1::double precision / 1000)
           AND e.is_active AND e.status = 'active' AND (e.retry_at IS NULL OR e.retry_at <= now())
           AND (e.lease_until IS NULL OR e.lease_until < now())
         LIMIT $2`,
        [graceMs, limit],
      );
      return rows.map((r) => r.export_id);
    },
  };
}

export type DocumentExportsRepository = ReturnType<typeof createDocumentExportsRepository>;
