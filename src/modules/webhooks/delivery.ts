// One delivery attempt, start to finish: check the job is current, sign the payload, POST it
// through the SSRF-safe client, record the attempt and schedule what follows. Free of queue
// types: the worker calls `attempt(job)` and the dispatcher is an interface.
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/crypto.js';
import type { AllowList } from '../../lib/http-client/allow-list.js';
import type { SafeHttpClient, SafeResponse } from '../../lib/http-client/safe-fetch.js';
import { presentEvent, type EventType } from '../events/events.types.js';
import { classifyAttempt } from './attempt.js';
import type { DeliveryDispatcher } from './dispatcher.js';
import type { AttemptRecord, DeliveryStore, LoadedDelivery } from './delivery-store.repository.js';
import { honourRetryAfter, nextDelayMs, type Jitter } from './schedule.js';
import { buildSignatureHeaders } from './signature.js';
import { endpointKey, type DeferReason, type EndpointGate } from './endpoint-gate.js';

export type AttemptResult = 'stale' | 'suspended' | 'cancelled' | 'delivered' | 'retry' | 'failed' | 'gone';

/** Not attempted now (its endpoint or organization is at its limit): run the job again at `until`. */
export interface DeferredAttempt {
  deferred: DeferReason;
  /** Epoch ms. */
  until: number;
}

/** Dependencies of {@link createDeliveryExecutor}. */
export interface DeliveryExecutorDeps {
  store: DeliveryStore;
  http: SafeHttpClient;
  dispatcher: DeliveryDispatcher;
  secretBox: SecretBox;
  allow: AllowList;
  /** Retry delays in ms (WEBHOOK_RETRY_DELAYS parsed); attempts = 1 + length. */
  retryDelaysMs: readonly number[];
  /** Request deadline, ms. */
  timeoutMs: number;
  /** Applied to each retry delay. Default ±20 % uniform. */
  jitter?: Jitter;
  logger: Logger;
  /** Clock, ms. Default Date.now. */
  now?: () => number;
  /** Per-endpoint and per-organization limits; without one every attempt is sent at once. */
  gate?: EndpointGate;
}

/** PostgreSQL text cannot hold NUL; a receiver's body is diagnostic text, so strip it. */
const clean = (s: string): string => (s.includes('\u0000') ? s.replace(/\u0000/g, '') : s);

export function createDeliveryExecutor(deps: DeliveryExecutorDeps) {
  const now = deps.now ?? Date.now;
  // Unsealing costs microseconds, but a busy endpoint is signed for thousands of times.
  const plain = new Map<string, string>();
  const unseal = (sealed: string): string => {
    let s = plain.get(sealed);
    if (s === undefined) {
      if (plain.size > 5000) plain.clear();
      s = deps.secretBox.decrypt(sealed);
      plain.set(sealed, s);
    }
    return s;
  };

  const secretsOf = (d: LoadedDelivery, at: number): string[] => {
    const out = [unseal(d.secret_sealed)];
    if (d.previous_secret_sealed && d.previous_secret_expires_at && d.previous_secret_expires_at.getTime() > at) {
      out.push(unseal(d.previous_secret_sealed));
    }
    return out;
  };

  const plan = (
    d: LoadedDelivery,
    res: SafeResponse,
    finishedAt: number,
  ): AttemptRecord['next'] & { delayMs: number | null } => {
    const outcome = classifyAttempt(res);
    const keep = { seq: d.dispatch_seq, retryIndex: d.retry_index, at: null, failSubscription: false, delayMs: null };
    if (outcome === 'delivered') return { ...keep, status: 'delivered' };
    if (outcome === 'gone') return { ...keep, status: 'gone' };
    // Manual attempts (resend, recover, test ping) are one-shot: no schedule behind them.
    if (d.manual) return { ...keep, status: 'failed' };
    const base = nextDelayMs(d.retry_index + 1, deps.retryDelaysMs, deps.jitter);
    if (base === null) return { ...keep, status: 'failed', failSubscription: true };
    const delay = res.status > 0 ? honourRetryAfter(base, res.headers['retry-after'], finishedAt) : base;
    return {
      status: 'pending',
      seq: d.dispatch_seq + 1,
      retryIndex: d.retry_index + 1,
      at: new Date(finishedAt + delay),
      failSubscription: false,
      delayMs: delay,
    };
  };

  // Where a put-off delivery goes, so that while its endpoint stays held back the job can be put
  // off again without loading the row each time (a dead endpoint's backlog would otherwise cost
  // a database read per delivery every few seconds).
  const hints = new Map<string, { endpoint: string; orgId: string; manual: boolean; deferrals: number }>();
  // Each put-off of the same delivery waits longer (0.1 s doubling to 5 s, or the gate's own
  // later time): a busy but quick endpoint gets its backlog back in quickly, while a hanging
  // one's backlog is not re-checked several times a second.
  const putOff = (
    deliveryId: string,
    hint: { endpoint: string; orgId: string; manual: boolean },
    wait: { reason: DeferReason; until: number },
    previous: number,
  ): DeferredAttempt => {
    if (hints.size > 20_000) hints.clear();
    hints.set(deliveryId, { ...hint, deferrals: previous + 1 });
    const backoff = Math.min(5_000, 100 * 2 ** Math.min(previous, 10));
    return { deferred: wait.reason, until: Math.max(wait.until, Date.now() + backoff) };
  };

  return {
    async attempt(job: { deliveryId: string; seq: number }): Promise<AttemptResult | DeferredAttempt> {
      const gate = deps.gate;
      const hint = gate ? hints.get(job.deliveryId) : undefined;
      if (gate && hint) {
        const wait = gate.wouldDefer(hint.endpoint, hint.orgId, { ignoreCircuit: hint.manual });
        if (wait) return putOff(job.deliveryId, hint, wait, hint.deferrals);
      }
      const d = await deps.store.load(job.deliveryId);
      if (!d || d.status !== 'pending' || d.dispatch_seq !== job.seq) {
        hints.delete(job.deliveryId);
        return 'stale';
      }
      if (!d.manual && d.sub_status !== 'active') {
        hints.delete(job.deliveryId);
        // Failing: keep it for when the owner re-enables. Disabled: the owner switched it off.
        const parked =
          d.sub_status === 'failing'
            ? await deps.store.park(d.id, d.dispatch_seq, 'suspended', 'subscription is failing')
            : await deps.store.park(d.id, d.dispatch_seq, 'failed', 'subscription is disabled');
        return !parked ? 'stale' : d.sub_status === 'failing' ? 'suspended' : 'cancelled';
      }
      const endpoint = endpointKey(d.url);
      let admission = gate?.admit(endpoint, d.org_id, { ignoreCircuit: d.manual });
      // A busy but quick endpoint frees a slot within moments: wait here for up to a second
      // instead of sending the job round the queue (which would cost more than the delivery).
      const waitUntil = Date.now() + 1_000;
      while (gate && admission && !admission.ok && admission.soon && Date.now() < waitUntil) {
        await gate.slotFreed(endpoint, waitUntil - Date.now());
        admission = gate.admit(endpoint, d.org_id, { ignoreCircuit: d.manual });
      }
      if (admission && !admission.ok) {
        deps.logger.debug(
          { deliveryId: d.id, reason: admission.reason, until: admission.until },
          'webhook attempt put off',
        );
        return putOff(d.id, { endpoint, orgId: d.org_id, manual: d.manual }, admission, hint?.deferrals ?? 0);
      }
      hints.delete(d.id);
      let sent: { res: SafeResponse; startedAt: number } | undefined;
      try {
        sent = await send(d);
      } finally {
        // Released on every path; a throw before the request counts as a quick non-timeout.
        admission?.done(
          sent
            ? { timedOut: sent.res.error?.code === 'TIMEOUT', durationMs: sent.res.durationMs }
            : { timedOut: false, durationMs: 0 },
        );
      }
      return record(d, sent.res, sent.startedAt);
    },
  };

  async function send(d: LoadedDelivery): Promise<{ res: SafeResponse; startedAt: number }> {
    // Serialise once; these exact bytes are signed and sent.
    const body = JSON.stringify(
      presentEvent({
        id: d.event_id,
        org_id: d.org_id,
        environment: d.environment,
        type: d.event_type as EventType,
        data: d.event_data,
        created_at: d.event_created_at,
        relayed_at: null,
      }),
    );
    const startedAt = now();
    const headers = buildSignatureHeaders({
      eventId: d.event_id,
      eventType: d.event_type,
      rawBody: body,
      secrets: secretsOf(d, startedAt),
      now: new Date(startedAt),
    });
    return {
      res: await deps.http.post(d.url, { headers, body, timeoutMs: deps.timeoutMs, allow: deps.allow }),
      startedAt,
    };
  }

  async function record(d: LoadedDelivery, res: SafeResponse, startedAt: number): Promise<AttemptResult> {
    const next = plan(d, res, now());
    const lastError = res.error
      ? `${res.error.code}: ${res.error.message}`
      : next.status === 'delivered'
        ? null
        : `HTTP ${res.status}`;
    const recorded = await deps.store.record({
      deliveryId: d.id,
      subscriptionId: d.subscription_id,
      seq: d.dispatch_seq,
      trigger: d.manual ? 'manual' : 'scheduled',
      statusCode: res.status,
      errorCode: res.error?.code ?? null,
      errorMessage: res.error ? clean(res.error.message) : null,
      durationMs: res.durationMs,
      responseBody: clean(res.body),
      truncated: res.truncated,
      attemptedAt: new Date(startedAt),
      lastError: lastError === null ? null : clean(lastError),
      next,
    });
    deps.logger.debug(
      {
        deliveryId: d.id,
        eventId: d.event_id,
        attempt: recorded.attempt,
        status: res.status,
        ms: res.durationMs,
        outcome: next.status,
        applied: recorded.applied,
      },
      'webhook attempt',
    );
    if (!recorded.applied) return 'stale';
    if (next.failSubscription) {
      deps.logger.warn(
        { subscriptionId: d.subscription_id, deliveryId: d.id },
        'webhook retries exhausted; subscription marked failing',
      );
    }
    if (next.status === 'pending' && next.delayMs !== null) {
      // If this enqueue is lost (crash), the row says pending with next_attempt_at set and the sweep re-adds it.
      await deps.dispatcher.dispatch([{ deliveryId: d.id, seq: next.seq, delayMs: next.delayMs }]);
      return 'retry';
    }
    return next.status === 'delivered' ? 'delivered' : next.status === 'gone' ? 'gone' : 'failed';
  }
}

export type DeliveryExecutor = ReturnType<typeof createDeliveryExecutor>;
