import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Scope } from '../../lib/scope.js';
import type { ListWebhooksQuery, SubscriptionRow, SubscriptionStatus } from './webhooks.types.js';

export function createSubscriptionsRepository(db: Queryable) {
  return {
    async insert(
      scope: Scope,
      v: { url: string; events: string[]; description: string | null; secretSealed: string; createdBy: string | null },
    ): Promise<SubscriptionRow> {
      const { rows } = await db.query<SubscriptionRow>(
        `INSERT INTO webhook_subscriptions (id, org_id, environment, url, events, description, secret_sealed, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [newId('whk'), scope.orgId, scope.environment, v.url, v.events, v.description, v.secretSealed, v.createdBy],
      );
      return rows[0];
    },

    async get(scope: Scope, id: string, q: Queryable = db): Promise<SubscriptionRow | null> {
      const { rows } = await q.query<SubscriptionRow>(
        'SELECT * FROM webhook_subscriptions WHERE id = $1 AND org_id = $2 AND environment = $3 AND owner_workflow_id IS NULL',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },

    async list(scope: Scope, f: ListWebhooksQuery): Promise<{ rows: SubscriptionRow[]; total: number }> {
      const params: unknown[] = [scope.orgId, scope.environment];
      let where = 'org_id = $1 AND environment = $2 AND owner_workflow_id IS NULL';
      if (f.status) {
        params.push(f.status);
        where += ` AND status = $${params.length}`;
      }
      const [page, count] = await Promise.all([
        db.query<SubscriptionRow>(
          `SELECT * FROM webhook_subscriptions WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, f.limit, f.offset],
        ),
        db.query<{ n: number }>(`SELECT count(*) AS n FROM webhook_subscriptions WHERE ${where}`, params),
      ]);
      return { rows: page.rows, total: Number(count.rows[0].n) };
    },

    async update(
      scope: Scope,
      id: string,
      patch: { url?: string; events?: string[]; description?: string | null },
      q: Queryable = db,
    ): Promise<SubscriptionRow | null> {
      const sets: string[] = [];
      const params: unknown[] = [id, scope.orgId, scope.environment];
      const set = (col: string, v: unknown): void => {
        params.push(v);
        sets.push(`${col} = $${params.length}`);
      };
      if (patch.url !== undefined) set('url', patch.url);
      if (patch.events !== undefined) set('events', patch.events);
      if (patch.description !== undefined) set('description', patch.description);
      sets.push('updated_at = now()');
      const { rows } = await q.query<SubscriptionRow>(
        `UPDATE webhook_subscriptions SET ${sets.join(', ')} WHERE id = $1 AND org_id = $2 AND environment = $3 AND owner_workflow_id IS NULL RETURNING *`,
        params,
      );
      return rows[0] ?? null;
    },

    async setStatus(
      scope: Scope,
      id: string,
      status: SubscriptionStatus,
      q: Queryable = db,
    ): Promise<SubscriptionRow | null> {
      const { rows } = await q.query<SubscriptionRow>(
        `UPDATE webhook_subscriptions SET status = $4,
           failing_since = CASE WHEN $4 = 'failing' THEN coalesce(failing_since, now()) ELSE NULL END, updated_at = now()
         WHERE id = $1 AND org_id = $2 AND environment = $3 AND owner_workflow_id IS NULL RETURNING *`,
        [id, scope.orgId, scope.environment, status],
      );
      return rows[0] ?? null;
    },

    /** The retry policy's transition; only an active subscription becomes failing (never a disabled one). */
    async markFailing(id: string, q: Queryable = db): Promise<boolean> {
      const res = await q.query(
        `UPDATE webhook_subscriptions SET status = 'failing', failing_since = now(), updated_at = now() WHERE id = $1 AND status = 'active'`,
        [id],
      );
      return res.rowCount > 0;
    },

    async rotate(
      scope: Scope,
      id: string,
      newSealed: string,
      graceUntil: Date,
      q: Queryable = db,
    ): Promise<SubscriptionRow | null> {
      // One previous secret at a time: rotating again inside a grace period retires the oldest.
      const { rows } = await q.query<SubscriptionRow>(
        `UPDATE webhook_subscriptions SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = $5,
           secret_sealed = $4, updated_at = now()
         WHERE id = $1 AND org_id = $2 AND environment = $3 AND owner_workflow_id IS NULL RETURNING *`,
        [id, scope.orgId, scope.environment, newSealed, graceUntil],
      );
      return rows[0] ?? null;
    },

    async delete(scope: Scope, id: string): Promise<boolean> {
      const res = await db.query(
        'DELETE FROM webhook_subscriptions WHERE id = $1 AND org_id = $2 AND environment = $3 AND owner_workflow_id IS NULL',
        [id, scope.orgId, scope.environment],
      );
      return res.rowCount > 0;
    },
  };
}

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;
