import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Scope } from '../../lib/scope.js';
import type { Stage } from './documents.types.js';

export interface BatchRow {
  id: string;
  org_id: string;
  environment: string;
  kind: string;
  stages: Stage[];
  mode: string;
  status: string;
  total: number;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export function createBatchesRepository(db: Queryable) {
  return {
    async create(q: Queryable, scope: Scope, b: { kind: string; stages: Stage[]; mode: string }): Promise<BatchRow> {
      const { rows } = await q.query<BatchRow>(
        `INSERT INTO batches (id, org_id, environment, kind, stages, mode, status) VALUES ($1,$2,$3,$4,$5,$6,'running') RETURNING *`,
        [newId('bat'), scope.orgId, scope.environment, b.kind, JSON.stringify(b.stages), b.mode],
      );
      return rows[0];
    },
    async addItems(q: Queryable, batchId: string, documentIds: string[]): Promise<void> {
      if (documentIds.length === 0) return;
      await q.query(
        `INSERT INTO batch_items (batch_id, document_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
        [batchId, documentIds],
      );
      await q.query('UPDATE batches SET total = total + $2, updated_at = now() WHERE id = $1', [
        batchId,
        documentIds.length,
      ]);
    },
    /** Marks one document's outcome and closes the batch when nothing is pending. */
    async finishItem(
      q: Queryable,
      batchId: string,
      documentId: string,
      outcome: 'completed' | 'failed' | 'skipped',
      error?: unknown,
    ): Promise<void> {
      // Lock the batch first: two documents finishing at once would otherwise each still see the
      // other's item pending (neither commit visible to the other) and neither would close the batch.
      await q.query('SELECT id FROM batches WHERE id = $1 FOR UPDATE', [batchId]);
      const res = await q.query(
        `UPDATE batch_items SET status = $3, error = $4, updated_at = now() WHERE batch_id = $1 AND document_id = $2 AND status = 'pending'`,
        [batchId, documentId, outcome, error ? JSON.stringify(error) : null],
      );
      if (res.rowCount === 0) return;
      await q.query(
        `UPDATE batches SET updated_at = now(),
           status = CASE WHEN NOT EXISTS (SELECT 1 FROM batch_items WHERE batch_id = $1 AND status = 'pending') THEN 'completed' ELSE status END,
           finished_at = CASE WHEN NOT EXISTS (SELECT 1 FROM batch_items WHERE batch_id = $1 AND status = 'pending') THEN now() ELSE finished_at END
         WHERE id = $1`,
        [batchId],
      );
    },
    async close(q: Queryable, batchId: string): Promise<void> {
      await q.query(
        `UPDATE batches SET status = 'completed', finished_at = now(), updated_at = now()
         WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM batch_items WHERE batch_id = $1 AND status = 'pending')`,
        [batchId],
      );
    },
    async get(scope: Scope, id: string) {
      const { rows } = await db.query<BatchRow>(
        'SELECT * FROM batches WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      const b = rows[0];
      if (!b) return null;
      const counts = await db.query<{ status: string; n: number }>(
        'SELECT status, count(*) AS n FROM batch_items WHERE batch_id = $1 GROUP BY status',
        [id],
      );
      const items = await db.query<{ document_id: string; status: string; error: unknown }>(
        `(SELECT document_id, status, error FROM batch_items WHERE batch_id = $1 AND status = 'failed' ORDER BY updated_at LIMIT 100)
         UNION ALL
         (SELECT document_id, status, error FROM batch_items WHERE batch_id = $1 AND status = 'skipped' ORDER BY updated_at LIMIT 100)`,
        [id],
      );
      const by: Record<string, number> = {};
      for (const c of counts.rows) by[c.status] = Number(c.n);
      const done = (by.completed ?? 0) + (by.failed ?? 0) + (by.skipped ?? 0);
      const listed = (status: string, key: 'error' | 'reason') =>
        items.rows.filter((r) => r.status === status).map((r) => ({ document_id: r.document_id, [key]: r.error }));
      return {
        id: b.id,
        kind: b.kind,
        status: b.status,
        stages: b.stages,
        mode: b.mode,
        total: b.total,
        completed: by.completed ?? 0,
        skipped: by.skipped ?? 0,
        failed: by.failed ?? 0,
        pending: by.pending ?? 0,
        progress: b.total === 0 ? 1 : done / b.total,
        failures: listed('failed', 'error'),
        skips: listed('skipped', 'reason'),
        created_at: b.created_at,
        updated_at: b.updated_at,
        finished_at: b.finished_at,
      };
    },
  };
}

export type BatchesRepository = ReturnType<typeof createBatchesRepository>;
