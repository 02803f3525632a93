import type { Db } from '../../db/client.js';
import type { SecretBox } from '../../lib/crypto.js';
import type { AllowList } from '../../lib/http-client/allow-list.js';
import { errors } from '../../lib/errors.js';
import type { Scope } from '../../lib/scope.js';
import { presentEvent } from '../events/events.types.js';
import type { DeliveriesRepository } from './deliveries.repository.js';
import type { DeliveryDispatcher } from './dispatcher.js';
import { generateWebhookSecret } from './signature.js';
import type { SubscriptionsRepository } from './subscriptions.repository.js';
import { checkSubscriptionUrl } from './url-policy.js';
import {
  presentAttempt,
  presentDelivery,
  presentSubscription,
  type CreateWebhookInput,
  type ListDeliveriesQuery,
  type ListWebhooksQuery,
  type SubscriptionRow,
  type UpdateWebhookInput,
} from './webhooks.types.js';

/** Longest recovery window. */
export const MAX_RECOVER_WINDOW_MS = 14 * 24 * 3600 * 1000;
/** Default rotation grace period: the old secret keeps signing this long. */
export const DEFAULT_ROTATION_GRACE_HOURS = 24;

export interface WebhooksServiceDeps {
  db: Db;
  subs: SubscriptionsRepository;
  deliveries: DeliveriesRepository;
  secretBox: SecretBox;
  dispatcher: DeliveryDispatcher;
  /** Operator SSRF exceptions (WEBHOOK_ALLOWED_HOSTS), also applied when a URL is saved. */
  allow: AllowList;
  /** Clock, ms. Default Date.now. */
  now?: () => number;
}

/** `*` alone stands for everything; duplicates are dropped, order kept. */
function normaliseEvents(events: readonly string[]): string[] {
  return events.includes('*') ? ['*'] : [...new Set(events)];
}

export function createWebhooksService(deps: WebhooksServiceDeps) {
  const now = deps.now ?? Date.now;
  const checkUrl = (url: string): void => {
    const problem = checkSubscriptionUrl(url, deps.allow);
    if (problem) throw errors.invalidField('url', problem);
  };
  const mustGet = async (scope: Scope, id: string): Promise<SubscriptionRow> => {
    const s = await deps.subs.get(scope, id);
    if (!s) throw errors.notFound('Webhook');
    return s;
  };
  const present = (s: SubscriptionRow) => presentSubscription(s, new Date(now()));

  /** active again + every suspended delivery released, in one transaction; jobs after commit. */
  const reactivate = async (scope: Scope, id: string) => {
    const { sub, jobs } = await deps.db.tx(async (q) => {
      const sub = await deps.subs.setStatus(scope, id, 'active', q);
      if (!sub) throw errors.notFound('Webhook');
      return { sub, jobs: await deps.deliveries.releaseSuspended(id, q) };
    });
    // A lost enqueue here is recovered by the sweep (the rows are pending and due now).
    await deps.dispatcher.dispatch(jobs);
    return { ...present(sub), released_deliveries: jobs.length };
  };

  return {
    async create(scope: Scope, input: CreateWebhookInput, createdBy: string | null) {
      checkUrl(input.url);
      const secret = input.secret ?? generateWebhookSecret();
      const row = await deps.subs.insert(scope, {
        url: input.url,
        events: normaliseEvents(input.events),
        description: input.description ?? null,
        secretSealed: deps.secretBox.encrypt(secret),
        createdBy,
      });
      // The only time the secret is shown.
      return { ...present(row), secret };
    },

    async list(scope: Scope, query: ListWebhooksQuery) {
      const { rows, total } = await deps.subs.list(scope, query);
      return { items: rows.map(present), total };
    },

    async get(scope: Scope, id: string) {
      return present(await mustGet(scope, id));
    },

    async update(scope: Scope, id: string, input: UpdateWebhookInput) {
      if (input.url !== undefined) checkUrl(input.url);
      const row = await deps.subs.update(scope, id, {
        url: input.url,
        events: input.events ? normaliseEvents(input.events) : undefined,
        description: input.description,
      });
      if (!row) throw errors.notFound('Webhook');
      if (input.status === 'disabled' && row.status !== 'disabled') {
        return present((await deps.subs.setStatus(scope, id, 'disabled')) ?? row);
      }
      if (input.status === 'active' && row.status !== 'active') return reactivate(scope, id);
      return present(row);
    },

    async remove(scope: Scope, id: string) {
      if (!(await deps.subs.delete(scope, id))) throw errors.notFound('Webhook');
      return { id, deleted: true };
    },

    /** Re-enables a failing (or disabled) subscription and delivers what was kept meanwhile. */
    async enable(scope: Scope, id: string) {
      await mustGet(scope, id);
      return reactivate(scope, id);
    },

    async rotateSecret(scope: Scope, id: string, input: { secret?: string; grace_period_hours?: number }) {
      await mustGet(scope, id);
      const secret = input.secret ?? generateWebhookSecret();
      const graceUntil = new Date(now() + (input.grace_period_hours ?? DEFAULT_ROTATION_GRACE_HOURS) * 3600_000);
      const row = await deps.subs.rotate(scope, id, deps.secretBox.encrypt(secret), graceUntil);
      if (!row) throw errors.notFound('Webhook');
      return { ...present(row), secret };
    },

    /** Sends a `webhook.test` ping to this subscription only, whatever its status. */
    async sendTest(scope: Scope, id: string) {
      const sub = await mustGet(scope, id);
      const { eventId, job } = await deps.deliveries.insertTestPing(sub, {
        webhookId: sub.id,
        message: 'This is a test event from docpipe.',
      });
      await deps.dispatcher.dispatch([job]);
      return { event_id: eventId, delivery_id: job.deliveryId };
    },

    async listDeliveries(scope: Scope, subscriptionId: string, query: ListDeliveriesQuery) {
      await mustGet(scope, subscriptionId);
      const { rows, total } = await deps.deliveries.list(scope, subscriptionId, query);
      return { items: rows.map(presentDelivery), total };
    },

    async getDelivery(scope: Scope, id: string) {
      const d = await deps.deliveries.get(scope, id);
      if (!d) throw errors.notFound('Delivery');
      const [attempts, event] = await Promise.all([deps.deliveries.attempts(id), deps.deliveries.event(d.event_id)]);
      return {
        ...presentDelivery(d),
        payload: event ? presentEvent(event) : null,
        attempt_log: attempts.map(presentAttempt),
      };
    },

    /** One manual attempt now, whatever the subscription's status; a pending delivery is already on its way. */
    async resend(scope: Scope, id: string) {
      const job = await deps.deliveries.resend(scope, id);
      if (!job) {
        const d = await deps.deliveries.get(scope, id);
        if (!d) throw errors.notFound('Delivery');
        throw errors.conflict('Delivery is already pending; it will be attempted at next_attempt_at', {
          next_attempt_at: d.next_attempt_at,
        });
      }
      await deps.dispatcher.dispatch([job]);
      const d = await deps.deliveries.get(scope, id);
      return presentDelivery(d!);
    },

    /** Re-sends (once each) the deliveries that failed in [since, until); at most 14 days. */
    async recover(scope: Scope, subscriptionId: string, input: { since: string; until?: string }) {
      await mustGet(scope, subscriptionId);
      const since = new Date(input.since);
      const until = input.until ? new Date(input.until) : new Date(now());
      if (!(since.getTime() < until.getTime())) throw errors.invalidField('since', 'must be before until');
      if (until.getTime() - since.getTime() > MAX_RECOVER_WINDOW_MS) {
        throw errors.invalidField('until', 'the recovery window must be at most 14 days');
      }
      const jobs = await deps.deliveries.recover(subscriptionId, since, until);
      await deps.dispatcher.dispatch(jobs);
      return { queued: jobs.length, since: since.toISOString(), until: until.toISOString() };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
