import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Environment, Scope } from '../../lib/scope.js';
import type { EventRow, EventType } from './events.types.js';

export interface NewEvent {
  orgId: string;
  environment: Environment;
  type: EventType;
  data: Record<string, unknown>;
}

/**
 * Marks a statement that writes unrelayed events to the outbox: the process's database announces
 * its commit to the relay (announce.ts). Every such statement comes from this file.
 */
export const OUTBOX_WRITE = '/* outbox write */';

/** Whether `sql` writes unrelayed outbox events (carries {@link OUTBOX_WRITE}). */
export function writesOutbox(sql: string): boolean {
  return sql.includes(OUTBOX_WRITE);
}

/**
 * An INSERT of one outbox event per row of `from` (a CTE alias of the row that changed), for
 * statements that write a row and its event together; `id`, `type` and `data` are SQL
 * expressions (placeholders, or a payload built from the row).
 */
export function insertEventFromRowSql(from: string, e: { id: string; type: string; data: string }): string {
  return `${OUTBOX_WRITE} INSERT INTO events (id, org_id, environment, type, data) SELECT ${e.id}, ${from}.org_id, ${from}.environment, ${e.type}, ${e.data} FROM ${from}`;
}

/** Inserts an outbox event; call it with the transaction that made the change. */
export async function insertEvent(q: Queryable, e: NewEvent): Promise<string> {
  const id = newId('evt');
  await q.query(
    `${OUTBOX_WRITE} INSERT INTO events (id, org_id, environment, type, data) VALUES ($1, $2, $3, $4, $5)`,
    [id, e.orgId, e.environment, e.type, JSON.stringify(e.data)],
  );
  return id;
}

/**
 * Claims up to `limit` unrelayed events, oldest first, and marks them relayed in one statement;
 * the mark only becomes visible when the caller's transaction commits. `skipLocked` lets
 * concurrent relays share a backlog (pointless on PGlite's one connection).
 */
export async function claimUnrelayedEvents(q: Queryable, limit: number, skipLocked: boolean): Promise<EventRow[]> {
  // ORDER BY created_at alone matches the partial index (no sort of the whole backlog), and
  // = ANY(ARRAY(...)) keeps the outer update on primary-key lookups whatever the table size.
  const { rows } = await q.query<EventRow>(
    `UPDATE events SET relayed_at = now()
     WHERE id = ANY(ARRAY(SELECT id FROM events WHERE relayed_at IS NULL ORDER BY created_at LIMIT $1 ${skipLocked ? 'FOR UPDATE SKIP LOCKED' : ''}))
     RETURNING *`,
    [limit],
  );
  return rows;
}

export function createEventsRepository(db: Queryable) {
  return {
    async list(
      scope: Scope,
      f: { type?: string; documentId?: string; after?: Date; limit: number; offset: number },
    ): Promise<{ rows: EventRow[]; total: number }> {
      const where = ['org_id = $1', 'environment = $2'];
      const params: unknown[] = [scope.orgId, scope.environment];
      if (f.type) {
        params.push(f.type);
        where.push(`type = $${params.length}`);
      }
      if (f.documentId) {
        params.push(f.documentId);
        where.push(`data->>'documentId' = $${params.length}`);
      }
      if (f.after) {
        params.push(f.after);
        where.push(`created_at > $${params.length}`);
      }
      const w = where.join(' AND ');
      const [page, count] = await Promise.all([
        db.query<EventRow>(
          `SELECT * FROM events WHERE ${w} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, f.limit, f.offset],
        ),
        db.query<{ n: number }>(`SELECT count(*) AS n FROM events WHERE ${w}`, params),
      ]);
      return { rows: page.rows, total: count.rows[0].n };
    },
    async get(scope: Scope, id: string): Promise<EventRow | null> {
      const { rows } = await db.query<EventRow>(
        'SELECT * FROM events WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
