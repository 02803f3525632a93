import { Queue, type JobsOptions, type ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { createWorkerRedis, parseRedisUrl, sentinelOptions } from '../lib/redis.js';
import { STAGES } from '../pipeline/stages.js';

/** Every queue and worker role: one per pipeline stage (src/pipeline/stages.ts), then the others. */
export const QUEUE_NAMES = [
  ...STAGES,
  'export',
  'webhooks',
  'workflows',
  'reports',
  'mail',
  // not BullMQ queues: the SMTP receiver and the folder watcher are worker roles like mail, and
  // `events` runs the outbox relay (it reads the events table, not a queue)
  'smtp',
  'watch',
  'events',
  'maintenance',
] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];
/** Worker roles that have no BullMQ queue behind them (nothing to count, pause or retry). */
const NOT_QUEUES: readonly QueueName[] = ['smtp', 'watch', 'events'];
/** The names of the BullMQ queues: what the pipeline page and the metrics show. */
export const BULLMQ_QUEUES: readonly QueueName[] = QUEUE_NAMES.filter((q) => !NOT_QUEUES.includes(q));

/** Completed jobs are kept a while (waitUntilFinished needs them), failed ones longer for diagnosis. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 3600, count: 5000 },
  removeOnFail: { age: 7 * 86_400, count: 20_000 },
};

export interface Queues {
  readonly prefix: string;
  get(name: QueueName): Queue;
  /** Connection options for Workers / QueueEvents of this install. */
  workerConnection(): ConnectionOptions;
  close(): Promise<void>;
}

/**
 * Producers share one ioredis connection (fails fast on the HTTP path); workers get their own
 * blocking connections created from the URL.
 */
export function createQueues(opts: { redis: Redis; redisUrl: string; prefix: string }): Queues {
  const queues = new Map<QueueName, Queue>();
  const target = parseRedisUrl(opts.redisUrl);
  // BullMQ takes options for one server or Sentinel, but a cluster only as a client instance; the
  // ones handed out are closed with the queues (BullMQ leaves a passed-in client open).
  const clusterClients: Redis[] = [];
  return {
    prefix: opts.prefix,
    get(name) {
      let q = queues.get(name);
      if (!q) {
        q = new Queue(name, { connection: opts.redis, prefix: opts.prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
        q.on('error', () => undefined);
        queues.set(name, q);
      }
      return q;
    },
    workerConnection() {
      if (target.kind === 'cluster') {
        const c = createWorkerRedis(opts.redisUrl);
        clusterClients.push(c);
        return c;
      }
      if (target.kind === 'sentinel')
        return { ...sentinelOptions(target), maxRetriesPerRequest: null } as ConnectionOptions;
      const u = new URL(opts.redisUrl);
      return {
        host: u.hostname,
        port: Number(u.port || 6379),
        username: u.username || undefined,
        password: u.password ? decodeURIComponent(u.password) : undefined,
        db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined,
        tls: u.protocol === 'rediss:' ? {} : undefined,
        maxRetriesPerRequest: null,
      };
    },
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
      queues.clear();
      for (const c of clusterClients.splice(0)) c.disconnect();
    },
  };
}
