import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Scope } from '../api-keys/api-keys.repository.js';
import type { EventRow, EventType } from './events.types.js';

export interface NewEvent {
  orgId: string;
  environment: 'live' | 'test';
  type: EventType;
  data: Record<string, unknown>;
}

/** Inserts an outbox event; call it with the transaction that made the change. */
export async function insertEvent(q: Queryable, e: NewEvent): Promise<string> {
  const id = newId('evt');
  await q.query('INSERT INTO events (id, org_id, environment, type, data) VALUES ($1, $2, $3, $4, $5)', [id, e.orgId, e.environment, e.type, JSON.stringify(e.data)]);
  return id;
}

export function createEventsRepository(db: Queryable) {
  return {
    async list(scope: Scope, f: { type?: string; documentId?: string; after?: Date; limit: number; offset: number }): Promise<{ rows: EventRow[]; total: number }> {
      const where = ['org_id = $1', 'environment = $2'];
      const params: unknown[] = [scope.orgId, scope.environment];
      if (f.type) { params.push(f.type); where.push(`type = $${params.length}`); }
      if (f.documentId) { params.push(f.documentId); where.push(`data->>'documentId' = $${params.length}`); }
      if (f.after) { params.push(f.after); where.push(`created_at > $${params.length}`); }
      const w = where.join(' AND ');
      const [page, count] = await Promise.all([
        db.query<EventRow>(`SELECT * FROM events WHERE ${w} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, f.limit, f.offset]),
        db.query<{ n: number }>(`SELECT count(*) AS n FROM events WHERE ${w}`, params),
      ]);
      return { rows: page.rows, total: count.rows[0].n };
    },
    async get(scope: Scope, id: string): Promise<EventRow | null> {
      const { rows } = await db.query<EventRow>('SELECT * FROM events WHERE id = $1 AND org_id = $2 AND environment = $3', [id, scope.orgId, scope.environment]);
      return rows[0] ?? null;
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
