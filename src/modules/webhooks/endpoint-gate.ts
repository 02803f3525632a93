// Fair use of a process's delivery slots. A receiver that never answers holds each request for
// the whole timeout; without limits, one organization's dead endpoint fills every slot and
// everyone's webhooks wait behind it. The gate admits an attempt only while its endpoint (scheme,
// host and port — several subscriptions to one server share it) and its organization are under
// their limits, and says until when to put it off otherwise:
//  - an endpoint's limit starts small and grows by one per quick answer up to `endpointMax`
//    (a busy, healthy receiver soon gets most slots); a slow answer halves it back to the start
//    value, a timeout halves it down to one;
//  - after `breakAfter` timeouts in a row the endpoint's circuit opens: nothing is sent to it for
//    `openMs` (doubling up to `maxOpenMs` while it stays dead); then one probe goes out, and an
//    answer closes the circuit;
//  - an organization never holds more than `orgMax` slots, however many endpoints it has.
// Put-off attempts are not attempts: nothing is sent, logged or counted against the retry
// schedule, so a schedule delay is a minimum while an endpoint is held back.
// State is per process (no Redis round trip per delivery): with N worker processes a dead
// endpoint holds at most N times its limit, the same share of the whole.

export interface EndpointGateOptions {
  /** Ceiling of one endpoint's in-flight attempts in this process. */
  endpointMax: number;
  /** Limit of an endpoint not seen before (or just recovered). Default min(4, endpointMax). */
  endpointStart?: number;
  /** Ceiling of one organization's in-flight attempts in this process. */
  orgMax: number;
  /** The request deadline, ms: how long an attempt can hold its slot. */
  timeoutMs: number;
  /** An answer slower than this halves the endpoint's limit (not below the start value). Default min(2000, timeoutMs / 2). */
  slowMs?: number;
  /** Timeouts in a row that open an endpoint's circuit. Default 3. */
  breakAfter?: number;
  /** First open period, ms; doubles after each failed probe. Default 30000. */
  openMs?: number;
  /** Longest open period, ms. Default 300000. */
  maxOpenMs?: number;
  /** Clock, ms. Default Date.now. */
  now?: () => number;
  /** Random source for spreading put-off attempts. Default Math.random. */
  random?: () => number;
}

export type DeferReason = 'endpoint-busy' | 'org-busy' | 'circuit-open';

/** How an admitted attempt ended, for the endpoint's limit and circuit. */
export interface AttemptEnd {
  /** No complete answer within the deadline (including connect timeouts). */
  timedOut: boolean;
  durationMs: number;
}

export type Admission =
  | { ok: true; done(end: AttemptEnd): void }
  /** `soon`: the endpoint is only busy with quick attempts, so a slot is moments away (see slotFreed). */
  | { ok: false; until: number; reason: DeferReason; soon: boolean };

export interface EndpointState {
  limit: number;
  inFlight: number;
  timeoutsInARow: number;
  /** 0 when closed; otherwise when the next probe may go. */
  openUntil: number;
}

export interface EndpointGate {
  /** Admits an attempt or says until when to put it off. `ignoreCircuit`: manual attempts are sent even to an open circuit. */
  admit(endpoint: string, orgId: string, opts?: { ignoreCircuit?: boolean }): Admission;
  /** The same decision without taking a slot (to put off a job before loading it). */
  wouldDefer(
    endpoint: string,
    orgId: string,
    opts?: { ignoreCircuit?: boolean },
  ): { until: number; reason: DeferReason } | null;
  /**
   * Resolves when an attempt of `endpoint` ends (a slot may be free) or after `maxMs`. A job
   * held back by a busy but quick endpoint waits here rather than going round the queue: its
   * slot frees within milliseconds, and bouncing it would cost more than the delivery.
   */
  slotFreed(endpoint: string, maxMs: number): Promise<void>;
  /** For logs, metrics and tests. */
  state(endpoint: string): EndpointState | undefined;
}

/** The key attempts are grouped by: scheme, host and port of the URL; '' for an unparseable one. */
export function endpointKey(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`.toLowerCase();
  } catch {
    return '';
  }
}

interface Endpoint {
  limit: number;
  /** Start times of in-flight attempts, by admission number. */
  running: Map<number, number>;
  timeoutsInARow: number;
  openUntil: number;
  openMs: number;
  probing: boolean;
  lastUsed: number;
}

/** Endpoints idle this long with nothing to remember are forgotten. */
const FORGET_AFTER_MS = 15 * 60_000;

export function createEndpointGate(o: EndpointGateOptions): EndpointGate {
  const now = o.now ?? Date.now;
  const random = o.random ?? Math.random;
  const start = Math.max(1, Math.min(o.endpointStart ?? 4, o.endpointMax));
  const slowMs = o.slowMs ?? Math.min(2000, o.timeoutMs / 2);
  const breakAfter = o.breakAfter ?? 3;
  const baseOpenMs = o.openMs ?? 30_000;
  const maxOpenMs = Math.max(baseOpenMs, o.maxOpenMs ?? 300_000);
  const endpoints = new Map<string, Endpoint>();
  const orgs = new Map<string, number>();
  let seq = 0;
  let lastForget = now();

  const spread = (ms: number): number => ms * (0.75 + 0.5 * random());

  const forgetIdle = (t: number): void => {
    if (t - lastForget < 60_000) return;
    lastForget = t;
    for (const [k, e] of endpoints) {
      if (e.running.size === 0 && e.openUntil === 0 && e.timeoutsInARow === 0 && t - e.lastUsed > FORGET_AFTER_MS)
        endpoints.delete(k);
    }
  };

  const get = (key: string, t: number): Endpoint => {
    let e = endpoints.get(key);
    if (!e) {
      e = {
        limit: start,
        running: new Map(),
        timeoutsInARow: 0,
        openUntil: 0,
        openMs: baseOpenMs,
        probing: false,
        lastUsed: t,
      };
      endpoints.set(key, e);
    }
    return e;
  };

  /** When a slot of a full endpoint is likely free: soon if its attempts are quick, else when the oldest must end. */
  const busyUntil = (e: Endpoint, t: number): number => {
    let oldest = t;
    for (const s of e.running.values()) oldest = Math.min(oldest, s);
    const age = t - oldest;
    if (age < slowMs) return t + spread(Math.max(50, Math.min(250, slowMs / 4)));
    return t + spread(Math.min(5_000, Math.max(250, oldest + o.timeoutMs - t)));
  };

  const waiters = new Map<string, Set<() => void>>();
  const wakeOne = (endpoint: string): void => {
    const set = waiters.get(endpoint);
    const first = set?.values().next().value;
    if (!set || !first) return;
    set.delete(first);
    if (set.size === 0) waiters.delete(endpoint);
    first();
  };

  const decide = (
    e: Endpoint,
    orgId: string,
    t: number,
    ignoreCircuit: boolean,
  ): { until: number; reason: DeferReason; soon?: boolean } | { probe: boolean } => {
    let probe = false;
    if (e.openUntil > 0 && !ignoreCircuit) {
      // Spread over a little while after the probe time, so the held-back attempts do not all return at once.
      if (t < e.openUntil)
        return { until: e.openUntil + (random() * Math.min(e.openMs, 5_000)) / 2, reason: 'circuit-open' };
      // Half-open: one probe at a time; the rest come back after it has had its chance.
      if (e.probing) return { until: t + spread(Math.min(o.timeoutMs, 5_000)), reason: 'circuit-open' };
      probe = true;
    } else if (e.running.size >= e.limit) {
      let oldest = t;
      for (const st of e.running.values()) oldest = Math.min(oldest, st);
      return { until: busyUntil(e, t), reason: 'endpoint-busy', soon: t - oldest < slowMs };
    }
    if ((orgs.get(orgId) ?? 0) >= o.orgMax) return { until: t + spread(500), reason: 'org-busy' };
    return { probe };
  };

  return {
    wouldDefer(endpoint, orgId, opts = {}) {
      const t = now();
      const e = endpoints.get(endpoint);
      if (!e) return (orgs.get(orgId) ?? 0) >= o.orgMax ? { until: t + spread(500), reason: 'org-busy' } : null;
      const d = decide(e, orgId, t, opts.ignoreCircuit ?? false);
      // Busy but quick: not worth putting off without a look (the caller may wait for a slot).
      return 'until' in d && !d.soon ? { until: d.until, reason: d.reason } : null;
    },

    admit(endpoint, orgId, opts = {}) {
      const t = now();
      forgetIdle(t);
      const e = get(endpoint, t);
      const d = decide(e, orgId, t, opts.ignoreCircuit ?? false);
      if ('until' in d) return { ok: false, until: d.until, reason: d.reason, soon: d.soon ?? false };
      const id = ++seq;
      const probe = d.probe;
      if (probe) e.probing = true;
      e.running.set(id, t);
      e.lastUsed = t;
      orgs.set(orgId, (orgs.get(orgId) ?? 0) + 1);
      let finished = false;
      return {
        ok: true,
        done(end) {
          if (finished) return;
          finished = true;
          e.running.delete(id);
          const n = (orgs.get(orgId) ?? 1) - 1;
          if (n > 0) orgs.set(orgId, n);
          else orgs.delete(orgId);
          // After the limit has been adjusted below, a waiting job of this endpoint may go.
          queueMicrotask(() => wakeOne(endpoint));
          if (probe) e.probing = false;
          if (end.timedOut) {
            e.timeoutsInARow++;
            e.limit = Math.max(1, Math.floor(e.limit / 2));
            if (probe) {
              e.openMs = Math.min(maxOpenMs, e.openMs * 2);
              e.openUntil = now() + e.openMs;
            } else if (e.openUntil === 0 && e.timeoutsInARow >= breakAfter) {
              e.openUntil = now() + e.openMs;
            }
            return;
          }
          // Any answer (even an error status) shows the receiver is there and not hanging.
          e.timeoutsInARow = 0;
          if (e.openUntil > 0) {
            e.openUntil = 0;
            e.openMs = baseOpenMs;
            e.limit = start;
          } else if (end.durationMs >= slowMs) {
            e.limit = Math.max(start, Math.floor(e.limit / 2));
          } else {
            e.limit = Math.min(o.endpointMax, e.limit + 1);
          }
        },
      };
    },

    slotFreed(endpoint, maxMs) {
      return new Promise<void>((resolve) => {
        let set = waiters.get(endpoint);
        if (!set) waiters.set(endpoint, (set = new Set()));
        const wake = (): void => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          const s2 = waiters.get(endpoint);
          s2?.delete(wake);
          if (s2?.size === 0) waiters.delete(endpoint);
          resolve();
        }, maxMs);
        set.add(wake);
      });
    },

    state(endpoint) {
      const e = endpoints.get(endpoint);
      return (
        e && { limit: e.limit, inFlight: e.running.size, timeoutsInARow: e.timeoutsInARow, openUntil: e.openUntil }
      );
    },
  };
}
