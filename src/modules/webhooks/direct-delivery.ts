// Deliveries a workflow step sends to a URL of its own (send_webhook_event), through the same
// machinery as subscriptions: a delivery row, the same signing, retry schedule, attempt log and
// sweep. The URL is held by a subscription the workflow owns (hidden from the /webhooks API, never
// matched by event fan-out), signed with the workflow's secret. Each step inserts its event and
// delivery in the step's own transaction, so a resumed run never sends a second one.
import type { Queryable } from '../../db/client.js';
import type { AllowList } from '../../lib/http-client/allow-list.js';
import { newId } from '../../lib/ids.js';
import type { DeliveryDispatcher } from './dispatcher.js';
import { checkSubscriptionUrl } from './url-policy.js';

export interface DirectDelivery {
  deliveryId: string;
  eventId: string;
  seq: number;
}

// A subscription that went failing after a previous step's retries ran out is made active again:
// each step is a new delivery with the full retry schedule.
const ENQUEUE_SQL = `
  WITH sub AS (
    INSERT INTO webhook_subscriptions (id, org_id, environment, url, events, description, status, secret_sealed, owner_workflow_id)
    SELECT $1, w.org_id, w.environment, $2, '{}'::text[], 'send_webhook_event of workflow ' || w.id, 'active', w.secret_sealed, w.id
    FROM workflows w WHERE w.id = $3
    ON CONFLICT (owner_workflow_id, url) WHERE owner_workflow_id IS NOT NULL
      DO UPDATE SET status = 'active', failing_since = NULL, secret_sealed = EXCLUDED.secret_sealed, updated_at = now()
    RETURNING id, org_id, environment
  ),
  ev AS (
    INSERT INTO events (id, org_id, environment, type, data, relayed_at)
    SELECT $4, sub.org_id, sub.environment, $5, $6, now() FROM sub RETURNING id, org_id, environment
  )
  INSERT INTO webhook_deliveries (id, org_id, environment, subscription_id, event_id, event_type, status, next_attempt_at)
  SELECT $7, ev.org_id, ev.environment, sub.id, ev.id, $5, 'pending', now() FROM sub, ev
  RETURNING id, event_id, dispatch_seq`;

export function createDirectDeliveries(deps: { dispatcher: DeliveryDispatcher; allow: AllowList }) {
  return {
    /** Why the URL can never be delivered to, or null. */
    checkUrl: (url: string): string | null => checkSubscriptionUrl(url, deps.allow),
    /**
     * Stores the event (already relayed: it goes to this URL only) and its delivery. The event id
     * keeps the time-sortable shape of the others.
     */
    async enqueue(q: Queryable, d: { workflowId: string; url: string; eventType: string; data: Record<string, unknown> }): Promise<DirectDelivery> {
      const eventId = newId('evt');
      const { rows } = await q.query<{ id: string; event_id: string; dispatch_seq: number }>(ENQUEUE_SQL, [
        newId('whk'), d.url, d.workflowId, eventId, d.eventType, JSON.stringify(d.data), newId('dlv'),
      ]);
      if (!rows[0]) throw new Error(`workflow ${d.workflowId} no longer exists`);
      return { deliveryId: rows[0].id, eventId: rows[0].event_id, seq: rows[0].dispatch_seq };
    },
    /** Queues the delivery's first attempt (after the commit; the webhook sweep covers a lost one). */
    dispatch: (d: DirectDelivery) => deps.dispatcher.dispatch([{ deliveryId: d.deliveryId, seq: d.seq }]),
  };
}

export type DirectDeliveries = ReturnType<typeof createDirectDeliveries>;
