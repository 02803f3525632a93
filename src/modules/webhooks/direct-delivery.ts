// Deliveries a workflow step sends to a URL of its own (send_webhook_event), through the same
// machinery as subscriptions: a delivery row, the same signing, retry schedule, attempt log and
// sweep. The URL is held by a subscription the workflow owns (hidden from the /webhooks API, never
// matched by event fan-out), signed with the workflow's secret. Each step inserts its event and
// delivery in the step's own transaction, so a resumed run never sends a second one.
import type { Queryable } from '../../db/client.js';
import type { AllowList } from '../../lib/http-client/allow-list.js';
import type { EventSource } from '../events/events.types.js';
import { insertDirectDelivery } from './deliveries.repository.js';
import type { DeliveryDispatcher } from './dispatcher.js';
import { checkSubscriptionUrl } from './url-policy.js';

export interface DirectDelivery {
  deliveryId: string;
  eventId: string;
  seq: number;
}

export function createDirectDeliveries(deps: { dispatcher: DeliveryDispatcher; allow: AllowList }) {
  return {
    /** Why the URL can never be delivered to, or null. */
    checkUrl: (url: string): string | null => checkSubscriptionUrl(url, deps.allow),
    /**
     * Stores the event (already relayed: it goes to this URL only) and its delivery. The event id
     * keeps the time-sortable shape of the others.
     */
    async enqueue(
      q: Queryable,
      d: { workflowId: string; url: string; eventType: string; data: Record<string, unknown>; source: EventSource },
    ): Promise<DirectDelivery> {
      const row = await insertDirectDelivery(q, d);
      if (!row) throw new Error(`workflow ${d.workflowId} no longer exists`);
      return { deliveryId: row.id, eventId: row.event_id, seq: row.dispatch_seq };
    },
    /** Queues the delivery's first attempt (after the commit; the webhook sweep covers a lost one). */
    dispatch: (d: DirectDelivery) => deps.dispatcher.dispatch([{ deliveryId: d.deliveryId, seq: d.seq }]),
  };
}

export type DirectDeliveries = ReturnType<typeof createDirectDeliveries>;
