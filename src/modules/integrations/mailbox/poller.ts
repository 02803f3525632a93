// The `mail` worker role: keeps one runner (one IMAP connection) per active mailbox whose Redis
// lease this process holds. The mailbox table is re-read periodically and on every change
// nudge (Redis pub/sub from the API), so new, updated and deleted mailboxes are picked up by
// running workers; leases are renewed in the background and a lost lease stops its runner.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SecretBox } from '../../../lib/crypto.js';
import type { Logger } from '../../../lib/logger.js';
import type { Intake } from '../../documents/intake.js';
import type { HostPolicy } from './host-policy.js';
import type { ImapConnectOptions } from './imap/index.js';
import { createLeaseStore, type LeaseStore } from './lease.js';
import type { MailboxesRepository } from './mailboxes.repository.js';
import type { MessagesRepository } from './messages.repository.js';
import { MailboxRunner, type RunnerStats } from './runner.js';

/** Tuning of the mail poller. Every field is optional; the defaults suit production. */
export interface MailPollerOptions {
  /** Re-read of the mailbox table (new, changed, deleted mailboxes), ms. Default 5000. */
  refreshIntervalMs?: number;
  /** Mailbox lease lifetime, ms; renewed every third of it. A dead worker's mailboxes move after this. Default 30000. */
  leaseTtlMs?: number;
  /** Fallback poll when IDLE stays silent, ms. Default 60000. */
  pollIntervalMs?: number;
  /** Quiet time after the last command before IDLE starts, ms (bounds new-mail pick-up). Default 250. */
  autoIdleDelayMs?: number;
  /** First reconnect delay after a lost connection, doubled per failure, ms. Default 1000. */
  reconnectBaseMs?: number;
  /** Longest reconnect delay, ms. Default 60000. */
  reconnectMaxMs?: number;
  /** Wait before retrying settings that failed (bad password, TLS, missing folder), ms; an update retries at once. Default 900000. */
  errorRetryMs?: number;
  /** Consecutive transient connection failures before the mailbox shows status `error`. Default 5. */
  transientErrorThreshold?: number;
  /** Messages processed at the same time per mailbox connection (overlaps IMAP and database round trips). Default 4. */
  concurrency?: number;
  /** Delays before retries 1..n of a failed message, ms; after the last the failure is final. Default 1 min, 5 min, 30 min, 2 h, 12 h. */
  retryDelaysMs?: readonly number[];
  /** How long a worker's claim on a message lasts before another may take it over, ms. Default 600000. */
  claimTtlMs?: number;
  /** Network timeouts, message size limit, certificate checks, name resolution for IMAP. */
  connect?: Pick<
    ImapConnectOptions,
    'connectTimeoutMs' | 'openTimeoutMs' | 'socketTimeoutMs' | 'maxMessageBytes' | 'tlsRejectUnauthorized' | 'lookup'
  >;
  /** Clock for message rules and retry scheduling. Default `() => new Date()`. */
  now?: () => Date;
}

export interface MailPollerDeps {
  mailboxes: MailboxesRepository;
  messages: MessagesRepository;
  intake: Pick<Intake, 'fromBuffer'>;
  redis: Redis;
  secretBox: SecretBox;
  hosts: HostPolicy;
  logger: Logger;
  /** Redis key prefix (REDIS_PREFIX). */
  prefix: string;
  /** Pub/sub channel carrying change nudges. */
  channel: string;
}

export interface MailPoller {
  /** This worker's lease token. */
  readonly token: string;
  /** Re-read the mailbox table now; with an id, also wake that mailbox's runner. */
  nudge(mailboxId?: string): void;
  /** Mailboxes this worker holds, with their runner counters. */
  stats(): Record<string, RunnerStats>;
  /** Stops every runner (each finishes its current message, bounded by `timeoutMs`) and releases the leases. */
  close(timeoutMs?: number): Promise<void>;
  /** Simulates the process dying: connections dropped, nothing finished, leases kept until they expire. */
  crash(): Promise<void>;
}

export const DEFAULT_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 43_200_000] as const;

/** Wraps every method so that, once `dead()`, calls fail instead of writing anything. */
function guarded<T extends object>(target: T, dead: () => boolean): T {
  return new Proxy(target, {
    get(obj, prop, recv) {
      const v = Reflect.get(obj, prop, recv);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (dead()) throw new Error('mail poller stopped');
        return (v as (...a: unknown[]) => unknown).apply(obj, args);
      };
    },
  });
}

export async function startMailPoller(deps: MailPollerDeps, opts: MailPollerOptions = {}): Promise<MailPoller> {
  const token = `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  const ttlMs = opts.leaseTtlMs ?? 30_000;
  const refreshMs = opts.refreshIntervalMs ?? 5_000;
  // A poller is counted alive while it refreshes; three missed refreshes (or a lease lifetime,
  // whichever is longer) and the others stop leaving room for it.
  const lease: LeaseStore = createLeaseStore(deps.redis, {
    prefix: deps.prefix,
    token,
    ttlMs,
    presenceTtlMs: Math.max(ttlMs, 3 * refreshMs),
  });
  let dead = false;
  let closing = false;
  const isDead = () => dead;
  const mailboxes = guarded(deps.mailboxes, isDead);
  const messages = guarded(deps.messages, isDead);
  const intake = guarded(deps.intake, isDead);
  const runners = new Map<string, MailboxRunner>();
  const lastRenewed = new Map<string, number>();

  const newRunner = (row: NonNullable<Awaited<ReturnType<MailboxesRepository['getById']>>>) =>
    new MailboxRunner(
      {
        mailboxes,
        messages,
        secretBox: deps.secretBox,
        hosts: deps.hosts,
        logger: deps.logger,
        ingest: {
          messages,
          intake,
          logger: deps.logger,
          token,
          claimTtlMs: opts.claimTtlMs ?? 600_000,
          retryDelaysMs: opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
          now: opts.now ?? (() => new Date()),
        },
        connect: { autoIdleDelayMs: opts.autoIdleDelayMs ?? 250, ...opts.connect, now: opts.now },
        timing: {
          pollIntervalMs: opts.pollIntervalMs ?? 60_000,
          reconnectBaseMs: opts.reconnectBaseMs ?? 1_000,
          reconnectMaxMs: opts.reconnectMaxMs ?? 60_000,
          errorRetryMs: opts.errorRetryMs ?? 900_000,
          transientErrorThreshold: opts.transientErrorThreshold ?? 5,
          concurrency: Math.max(1, opts.concurrency ?? 4),
        },
      },
      row,
    );

  const drop = async (id: string, release: boolean): Promise<void> => {
    const r = runners.get(id);
    runners.delete(id);
    lastRenewed.delete(id);
    await r?.stop();
    if (release) await lease.release(id).catch(() => undefined);
  };

  const startRunner = async (id: string): Promise<void> => {
    const row = await deps.mailboxes.getById(id);
    if (!row || !row.is_active || closing || dead) {
      await lease.release(id).catch(() => undefined);
      return;
    }
    const r = newRunner(row);
    runners.set(id, r);
    lastRenewed.set(id, Date.now());
    r.start();
  };

  let reconciling: Promise<void> | undefined;
  let again = false;
  const reconcileOnce = async (): Promise<void> => {
    const active = await deps.mailboxes.listActive();
    // Counted alive only once the mailbox table could be read: a poller that cannot serve does
    // not hold room for itself.
    const live = Math.max(1, await lease.heartbeat());
    const share = Math.ceil(active.length / live);
    const want = new Map(active.map((a) => [a.id, a.config_version]));
    for (const [id, r] of [...runners]) {
      const v = want.get(id);
      // Changed settings: same lease, fresh runner. Deleted or deactivated: hand the lease back.
      if (v === undefined) await drop(id, true);
      else if (v !== r.version) {
        await drop(id, false);
        await startRunner(id);
      }
    }
    // More than the fair share (another poller came up): hand the newest back, each after its
    // message in hand; the others take them on their next refresh.
    for (const id of [...runners.keys()].slice(share).reverse()) {
      if (closing || dead) return;
      deps.logger.info({ mailboxId: id, share, live }, 'mail poller: handing a mailbox to another poller');
      await drop(id, true);
    }
    for (const a of active) {
      if (closing || dead || runners.size >= share) return;
      if (runners.has(a.id)) continue;
      if (await lease.acquire(a.id)) await startRunner(a.id);
    }
  };
  const reconcile = (): Promise<void> => {
    if (reconciling) {
      again = true;
      return reconciling;
    }
    reconciling = (async () => {
      do {
        again = false;
        try {
          await reconcileOnce();
        } catch (err) {
          if (!dead) deps.logger.warn({ err }, 'mail poller: could not refresh mailboxes');
        }
      } while (again && !closing && !dead);
    })().finally(() => {
      reconciling = undefined;
    });
    return reconciling;
  };

  const renew = async (): Promise<void> => {
    for (const id of [...runners.keys()]) {
      try {
        if (await lease.renew(id)) {
          lastRenewed.set(id, Date.now());
          continue;
        }
        deps.logger.warn({ mailboxId: id }, 'mail poller: lease lost; stopping this mailbox here');
      } catch (err) {
        // Redis unreachable: keep going while the lease would still be ours.
        if (Date.now() - (lastRenewed.get(id) ?? 0) < ttlMs * 0.9) continue;
        deps.logger.warn(
          { err, mailboxId: id },
          'mail poller: lease could not be renewed in time; stopping this mailbox here',
        );
      }
      runners.get(id)?.abort();
      await drop(id, false);
    }
  };

  const sub = deps.redis.duplicate({ lazyConnect: true });
  sub.on('error', (err) => deps.logger.warn({ err }, 'mail poller subscriber error'));
  const onNudge = (mailboxId?: string): void => {
    if (closing || dead) return;
    if (mailboxId) runners.get(mailboxId)?.nudge();
    void reconcile();
  };
  sub.on('message', (_channel: string, id: string) => onNudge(id || undefined));
  try {
    await sub.connect();
    await sub.subscribe(deps.channel);
  } catch (err) {
    deps.logger.warn({ err }, 'mail poller: cannot subscribe to change nudges; relying on the periodic refresh');
  }

  const refreshTimer = setInterval(() => void reconcile(), refreshMs);
  const renewTimer = setInterval(() => void renew(), Math.max(50, Math.floor(ttlMs / 3)));
  refreshTimer.unref();
  renewTimer.unref();
  await reconcile();

  const stopTimers = () => {
    clearInterval(refreshTimer);
    clearInterval(renewTimer);
    sub.disconnect();
  };

  return {
    token,
    nudge: onNudge,
    stats: () => Object.fromEntries([...runners].map(([id, r]) => [id, r.stats])),
    async close(timeoutMs = 20_000) {
      if (closing || dead) return;
      closing = true;
      stopTimers();
      await reconciling;
      await lease.leave().catch(() => undefined);
      const ids = [...runners.keys()];
      const held = [...runners.values()];
      const all = Promise.all(ids.map((id) => drop(id, true)));
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        all.then(() => false),
        new Promise<boolean>((r) => {
          timer = setTimeout(() => r(true), timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (late) {
        // A message still in hand past the limit: its claim lapses and another worker redoes it.
        dead = true;
        for (const r of held) r.abort();
        for (const id of ids) await lease.release(id).catch(() => undefined);
      }
    },
    async crash() {
      dead = true;
      stopTimers();
      for (const r of runners.values()) r.abort();
      runners.clear();
    },
  };
}
