// Outbox consumer: turns events into delivery rows, one per matching subscription.
import type { Queryable } from '../../db/client.js';
import type { EventRow } from '../events/events.types.js';
import type { AfterCommit, OutboxConsumer } from '../events/relay.js';
import type { DeliveryDispatcher } from './dispatcher.js';
import { insertDeliveriesForEvents } from './deliveries.repository.js';

/**
 * Fan-out inside the relay transaction. Disabled subscriptions get nothing; failing ones get a
 * `suspended` delivery (kept, not attempted, released by enable). The unique (event, subscription)
 * key makes a second relay of the same event a no-op, and only rows inserted now are dispatched.
 */
export function createWebhookFanOut(dispatcher: DeliveryDispatcher): OutboxConsumer {
  return {
    async fanOut(q: Queryable, events: readonly EventRow[]): Promise<AfterCommit | void> {
      const rows = await insertDeliveriesForEvents(q, events);
      const jobs = rows.filter((r) => r.status === 'pending').map((r) => ({ deliveryId: r.id, seq: r.dispatch_seq }));
      if (jobs.length === 0) return;
      return () => dispatcher.dispatch(jobs);
    },
  };
}
