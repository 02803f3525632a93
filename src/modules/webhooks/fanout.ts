// Outbox consumer: turns events into delivery rows, one per matching subscription.
import { ARRAYS_PLAN_FREE, type Queryable } from '../../db/client.js';
import type { EventRow } from '../events/events.types.js';
import type { AfterCommit, OutboxConsumer } from '../events/relay.js';
import type { DeliveryDispatcher } from './dispatcher.js';
import type { DeliveryStatus } from './webhooks.types.js';

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
    ON s.org_id = e.org_id AND s.environment = e.environment AND s.status <> 'disabled'
   AND (e.type = ANY(s.events) OR ('*' = ANY(s.events) AND e.type <> 'webhook.test'))
  ON CONFLICT (event_id, subscription_id) DO NOTHING
  RETURNING id, status, dispatch_seq`;

/**
 * Fan-out inside the relay transaction. Disabled subscriptions get nothing; failing ones get a
 * `suspended` delivery (kept, not attempted, released by enable). The unique (event, subscription)
 * key makes a second relay of the same event a no-op, and only rows inserted now are dispatched.
 */
export function createWebhookFanOut(dispatcher: DeliveryDispatcher): OutboxConsumer {
  return {
    async fanOut(q: Queryable, events: readonly EventRow[]): Promise<AfterCommit | void> {
      const { rows } = await q.query<{ id: string; status: DeliveryStatus; dispatch_seq: number }>(FAN_OUT_SQL, [
        events.map((e) => e.id), events.map((e) => e.org_id), events.map((e) => e.environment), events.map((e) => e.type),
      ]);
      const jobs = rows.filter((r) => r.status === 'pending').map((r) => ({ deliveryId: r.id, seq: r.dispatch_seq }));
      if (jobs.length === 0) return;
      return () => dispatcher.dispatch(jobs);
    },
  };
}
