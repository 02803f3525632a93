import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Scope } from '../../lib/scope.js';
import type { ReprocessTarget } from './documents.repository.js';
import type { Stage } from './documents.types.js';
import type { StageVersions } from './missing.js';

/** What a batch walks (stored with it, so the walker needs nothing from the request). */
export interface BatchTarget {
  target: ReprocessTarget;
  /** With mode `missing`: the versions "current" meant when the batch was requested. */
  versions?: StageVersions;
}

/** A batch as its walker reads it; timestamps as PostgreSQL's text (see reprocessPage). */
export interface WalkState {
  id: string;
  org_id: string;
  environment: 'live' | 'test';
  stages: Stage[];
  mode: string;
  target: BatchTarget;
  cursor_at: string | null;
  cursor_id: string | null;
  walk_until: string;
  walked_at: Date | null;
  queued: number;
  /** Queued items not finished yet. */
  in_flight: number;
}

export interface BatchRow {
  id: string;
  org_id: string;
  environment: string;
  kind: string;
  stages: Stage[];
  mode: string;
  status: string;
  total: number;
  queued: number;
  completed: number;
  failed: number;
  skipped: number;
  walked_at: Date | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export function createBatchesRepository(db: Queryable) {
  return {
    /**
     * A batch to be walked: `total` is the count made up front (the walk sets it to what it
     * queued when it ends). A batch with nothing to do is walked and completed at once.
     */
    async create(
      q: Queryable,
      scope: Scope,
      b: { kind: string; stages: Stage[]; mode: string; target: BatchTarget; total: number; until: string },
    ): Promise<BatchRow> {
      const empty = b.total === 0;
      const { rows } = await q.query<BatchRow>(
        `INSERT INTO batches (id, org_id, environment, kind, stages, mode, status, target, total, walk_until, walked_at, finished_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10::timestamptz,$11,$11) RETURNING *`,
        [
          newId('bat'),
          scope.orgId,
          scope.environment,
          b.kind,
          JSON.stringify(b.stages),
          b.mode,
          empty ? 'completed' : 'running',
          JSON.stringify(b.target),
          b.total,
          b.until,
          empty ? new Date() : null,
        ],
      );
      return rows[0];
    },
    /** The database's clock as text: the upper bound of a new batch's walk. */
    async now(q: Queryable): Promise<string> {
      const { rows } = await q.query<{ now: string }>('SELECT now()::text AS now');
      return rows[0].now;
    },
    /**
     * Takes the batch's walk for this transaction (a second walker of the same batch waits here,
     * then reads the cursor the first one committed) and returns its state.
     */
    async lockWalk(q: Queryable, batchId: string): Promise<WalkState | null> {
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`batch-walk:${batchId}`]);
      const { rows } = await q.query<WalkState>(
        `SELECT id, org_id, environment, stages, mode, target, cursor_at::text AS cursor_at, cursor_id,
                walk_until::text AS walk_until, walked_at, queued, queued - completed - failed - skipped AS in_flight
           FROM batches WHERE id = $1`,
        [batchId],
      );
      const w = rows[0];
      return w ? { ...w, queued: Number(w.queued), in_flight: Number(w.in_flight) } : null;
    },
    /**
     * Adds documents to a batch; returns those that were not in it yet (a walker that resumes
     * after a crash never starts a document's run twice).
     */
    async addItems(q: Queryable, batchId: string, documentIds: string[]): Promise<string[]> {
      if (documentIds.length === 0) return [];
      const { rows } = await q.query<{ document_id: string }>(
        `INSERT INTO batch_items (batch_id, document_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING RETURNING document_id`,
        [batchId, documentIds],
      );
      return rows.map((r) => r.document_id);
    },
    /** Moves the cursor past a page and counts what it queued; `last` ends the walk. */
    async advance(
      q: Queryable,
      batchId: string,
      cursor: { at: string; id: string } | null,
      queued: number,
      last: boolean,
    ): Promise<void> {
      // The row lock orders this against finishItem: whichever commits second sees both the
      // walk's end and the last finished document, and closes the batch.
      await q.query(
        `UPDATE batches SET updated_at = now(),
           cursor_at = coalesce($2::timestamptz, cursor_at), cursor_id = coalesce($3, cursor_id),
           queued = queued + $4,
           walked_at = CASE WHEN $5 THEN now() ELSE walked_at END,
           total = CASE WHEN $5 THEN queued + $4 ELSE GREATEST(total, queued + $4) END,
           status = CASE WHEN $5 AND completed + failed + skipped >= queued + $4 THEN 'completed' ELSE status END,
           finished_at = CASE WHEN $5 AND completed + failed + skipped >= queued + $4 THEN now() ELSE finished_at END
         WHERE id = $1`,
        [batchId, cursor?.at ?? null, cursor?.id ?? null, queued, last],
      );
    },
    /** Batches whose walk is unfinished and untouched for `staleMs` (the sweep checks their job). */
    async staleWalks(staleMs: number, limit: number): Promise<{ id: string }[]> {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM batches WHERE walked_at IS NULL AND updated_at < now() - ($1::int * interval '1 millisecond')
         ORDER BY updated_at LIMIT $2`,
        [staleMs, limit],
      );
      return rows;
    },
    /** Marks one document's outcome and closes the batch when it is walked and nothing is pending. */
    async finishItem(
      q: Queryable,
      batchId: string,
      documentId: string,
      outcome: 'completed' | 'failed' | 'skipped',
      error?: unknown,
    ): Promise<void> {
      const res = await q.query(
        `UPDATE batch_items SET status = $3, error = $4, updated_at = now() WHERE batch_id = $1 AND document_id = $2 AND status = 'pending'`,
        [batchId, documentId, outcome, error ? JSON.stringify(error) : null],
      );
      if (res.rowCount === 0) return;
      // Counters, not a scan of the items: the UPDATE waits for another finisher's lock on the
      // batch row and then re-reads the row it committed, so the last of two documents finishing
      // at once sees both counted and closes the batch. The row lock is held only from here to
      // the commit (a batch's documents all finish through this one row). outcome is one of three
      // literals: safe as a column name.
      await q.query(
        `UPDATE batches SET updated_at = now(), ${outcome} = ${outcome} + 1,
           status = CASE WHEN walked_at IS NOT NULL AND completed + failed + skipped + 1 >= queued THEN 'completed' ELSE status END,
           finished_at = CASE WHEN walked_at IS NOT NULL AND completed + failed + skipped + 1 >= queued THEN now() ELSE finished_at END
         WHERE id = $1`,
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
      const items = await db.query<{ document_id: string; status: string; error: unknown }>(
        `(SELECT document_id, status, error FROM batch_items WHERE batch_id = $1 AND status = 'failed' ORDER BY updated_at LIMIT 100)
         UNION ALL
         (SELECT document_id, status, error FROM batch_items WHERE batch_id = $1 AND status = 'skipped' ORDER BY updated_at LIMIT 100)`,
        [id],
      );
      const done = b.completed + b.failed + b.skipped;
      const listed = (status: string, key: 'error' | 'reason') =>
        items.rows.filter((r) => r.status === status).map((r) => ({ document_id: r.document_id, [key]: r.error }));
      return {
        id: b.id,
        kind: b.kind,
        status: b.status,
        stages: b.stages,
        mode: b.mode,
        total: b.total,
        completed: b.completed,
        skipped: b.skipped,
        failed: b.failed,
        pending: b.queued - done,
        progress: b.total === 0 ? 1 : Math.min(1, done / b.total),
        queued: b.queued,
        walking: b.walked_at === null,
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
