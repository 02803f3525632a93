import { ARRAYS_PLAN_FREE, type Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Scope } from '../../lib/scope.js';
import type { EventRow, EventSource } from '../events/events.types.js';
import type { AttemptRow, DeliveryJob, DeliveryRow, DeliveryStatus, ListDeliveriesQuery } from './webhooks.types.js';

type Dispatch = { id: string; dispatch_seq: number };
const toJobs = (rows: Dispatch[]): DeliveryJob[] => rows.map((r) => ({ deliveryId: r.id, seq: r.dispatch_seq }));

// Every (re)scheduling bumps dispatch_seq, so a job left over from an earlier schedule (a delayed
// retry, a duplicate enqueue) finds a different number on the row and does nothing.
const RESCHEDULE = 'dispatch_seq = dispatch_seq + 1, next_attempt_at = now(), updated_at = now()';

// Matching, id generation and the insert are one statement (this runs for every relayed batch,
// and on PGlite every statement counts). `*` covers every public type but not `webhook.test`.
// Delivery ids keep the shape of newId(): `dlv_` + the event's 10 time characters (time-sortable
// by event) + 16 random hex characters (hex digits are Crockford base32 characters).
// Prepared although it takes arrays: it joins the (small) subscriptions table and inserts through
// the unique (event, subscription) index, so one plan serves every batch size.
const FAN_OUT_SQL = `${ARRAYS_PLAN_FREE}
  INSERT INTO webhook_deliveries (id, org_id, environment, subscription_id, event_id, event_type, status, next_attempt_at)
  SELECT 'dlv_' || substr(e.id, 5, 10) || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)),
         e.org_id, e.environment, s.id, e.id, e.type,
         CASE WHEN s.status = 'failing' THEN 'suspended' ELSE 'pending' END,
         CASE WHEN s.status = 'failing' THEN NULL ELSE now() END
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS e(id, org_id, environment, type)
  JOIN webhook_subscriptions s
    ON s.org_id = e.org_id AND s.environment = e.environment AND s.status <> 'disabled' AND s.owner_workflow_id IS NULL
   AND (e.type = ANY(s.events) OR ('*' = ANY(s.events) AND e.type <> 'webhook.test'))
  ON CONFLICT (event_id, subscription_id) DO NOTHING
  RETURNING id, status, dispatch_seq`;

/**
 * One delivery per subscription matching each event (inside the relay transaction). A second
 * relay of the same event inserts nothing; only rows inserted now come back.
 */
export async function insertDeliveriesForEvents(
  q: Queryable,
  events: readonly EventRow[],
): Promise<{ id: string; status: DeliveryStatus; dispatch_seq: number }[]> {
  const { rows } = await q.query<{ id: string; status: DeliveryStatus; dispatch_seq: number }>(FAN_OUT_SQL, [
    events.map((e) => e.id),
    events.map((e) => e.org_id),
    events.map((e) => e.environment),
    events.map((e) => e.type),
  ]);
  return rows;
}

/** Pending deliveries whose attempt is overdue by more than `graceMs`, most overdue first. */
export async function overduePendingDeliveries(q: Queryable, graceMs: number, limit: number): Promise<Dispatch[]> {
  const { rows } = await q.query<Dispatch>(
    `SELECT id, dispatch_seq FROM webhook_deliveries
     WHERE status = 'pending' AND next_attempt_at < now() - $1::double precision * interval '1 millisecond'
     ORDER BY next_attempt_at LIMIT $2`,
    [graceMs, limit],
  );
  return rows;
}

// A subscription that went failing after a previous step's retries ran out is made active again:
// each step is a new delivery with the full retry schedule.
const DIRECT_DELIVERY_SQL = `
  WITH sub AS (
    INSERT INTO webhook_subscriptions (id, org_id, environment, url, events, description, status, secret_sealed, owner_workflow_id)
    SELECT $1, w.org_id, w.environment, $2, '{}'::text[], 'send_webhook_event of workflow ' || w.id, 'active', w.secret_sealed, w.id
    FROM workflows w WHERE w.id = $3
    ON CONFLICT (owner_workflow_id, url) WHERE owner_workflow_id IS NOT NULL
      DO UPDATE SET status = 'active', failing_since = NULL, secret_sealed = EXCLUDED.secret_sealed, updated_at = now()
    RETURNING id, org_id, environment
  ),
  ev AS (
    INSERT INTO events (id, org_id, environment, type, data, relayed_at, source)
    SELECT $4, sub.org_id, sub.environment, $5, $6, now(), $8 FROM sub RETURNING id, org_id, environment
  )
  INSERT INTO webhook_deliveries (id, org_id, environment, subscription_id, event_id, event_type, status, next_attempt_at)
  SELECT $7, ev.org_id, ev.environment, sub.id, ev.id, $5, 'pending', now() FROM sub, ev
  RETURNING id, event_id, dispatch_seq`;

/**
 * A delivery to a workflow step's own URL: the workflow's hidden subscription for that URL
 * (created, or made active again), the event (already relayed: it goes to this URL only) and
 * the delivery, in one statement. Returns null when the workflow no longer exists.
 */
export async function insertDirectDelivery(
  q: Queryable,
  d: { workflowId: string; url: string; eventType: string; data: Record<string, unknown>; source: EventSource },
): Promise<{ id: string; event_id: string; dispatch_seq: number } | null> {
  const { rows } = await q.query<{ id: string; event_id: string; dispatch_seq: number }>(DIRECT_DELIVERY_SQL, [
    newId('whk'),
    d.url,
    d.workflowId,
    newId('evt'),
    d.eventType,
    JSON.stringify(d.data),
    newId('dlv'),
    JSON.stringify(d.source),
  ]);
  return rows[0] ?? null;
}

export function createDeliveriesRepository(db: Queryable) {
  return {
    async list(
      scope: Scope,
      subscriptionId: string,
      f: ListDeliveriesQuery,
    ): Promise<{ rows: DeliveryRow[]; total: number }> {
      const params: unknown[] = [subscriptionId, scope.orgId, scope.environment];
      let where = 'subscription_id = $1 AND org_id = $2 AND environment = $3';
      const add = (col: string, v: unknown): void => {
        params.push(v);
        where += ` AND ${col} = $${params.length}`;
      };
      if (f.status) add('status', f.status);
      if (f.event_type) add('event_type', f.event_type);
      if (f.event_id) add('event_id', f.event_id);
      const [page, count] = await Promise.all([
        db.query<DeliveryRow>(
          `SELECT * FROM webhook_deliveries WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, f.limit, f.offset],
        ),
        db.query<{ n: number }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE ${where}`, params),
      ]);
      return { rows: page.rows, total: Number(count.rows[0].n) };
    },

    async get(scope: Scope, id: string): Promise<DeliveryRow | null> {
      const { rows } = await db.query<DeliveryRow>(
        'SELECT * FROM webhook_deliveries WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },

    async attempts(deliveryId: string): Promise<AttemptRow[]> {
      const { rows } = await db.query<AttemptRow>('SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id', [
        deliveryId,
      ]);
      return rows;
    },

    async event(eventId: string): Promise<EventRow | null> {
      const { rows } = await db.query<EventRow>('SELECT * FROM events WHERE id = $1', [eventId]);
      return rows[0] ?? null;
    },

    /** Enable: every suspended delivery starts a fresh automatic sequence now. */
    async releaseSuspended(subscriptionId: string, q: Queryable = db): Promise<DeliveryJob[]> {
      const { rows } = await q.query<Dispatch>(
        `UPDATE webhook_deliveries SET status = 'pending', retry_index = 0, manual = false, ${RESCHEDULE}
         WHERE subscription_id = $1 AND status = 'suspended' RETURNING id, dispatch_seq`,
        [subscriptionId],
      );
      return toJobs(rows);
    },

    /** Manual resend: one immediate attempt. Null when the delivery is missing or already pending. */
    async resend(scope: Scope, id: string): Promise<DeliveryJob | null> {
      const { rows } = await db.query<Dispatch>(
        `UPDATE webhook_deliveries SET status = 'pending', manual = true, ${RESCHEDULE}
         WHERE id = $1 AND org_id = $2 AND environment = $3 AND status <> 'pending' RETURNING id, dispatch_seq`,
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ? toJobs(rows)[0] : null;
    },

    /** Recovery: failed deliveries created in [since, until) are each re-sent once. */
    async recover(subscriptionId: string, since: Date, until: Date): Promise<DeliveryJob[]> {
      const { rows } = await db.query<Dispatch>(
        `UPDATE webhook_deliveries SET status = 'pending', manual = true, ${RESCHEDULE}
         WHERE subscription_id = $1 AND status = 'failed' AND created_at >= $2 AND created_at < $3 RETURNING id, dispatch_seq`,
        [subscriptionId, since, until],
      );
      return toJobs(rows);
    },

    /**
     * A `webhook.test` ping for one subscription: the event is stored already relayed (it must not
     * fan out to the org's other subscriptions) together with its single, manual delivery.
     */
    async insertTestPing(
      sub: { id: string; org_id: string; environment: string },
      data: Record<string, unknown>,
    ): Promise<{ eventId: string; job: DeliveryJob }> {
      const eventId = newId('evt');
      const deliveryId = newId('dlv');
      await db.query(
        `WITH e AS (
           INSERT INTO events (id, org_id, environment, type, data, relayed_at) VALUES ($1, $2, $3, 'webhook.test', $4, now()) RETURNING id)
         INSERT INTO webhook_deliveries (id, org_id, environment, subscription_id, event_id, event_type, status, manual, next_attempt_at)
         SELECT $5, $2, $3, $6, e.id, 'webhook.test', 'pending', true, now() FROM e`,
        [eventId, sub.org_id, sub.environment, JSON.stringify(data), deliveryId, sub.id],
      );
      return { eventId, job: { deliveryId, seq: 1 } };
    },
  };
}

export type DeliveriesRepository = ReturnType<typeof createDeliveriesRepository>;
