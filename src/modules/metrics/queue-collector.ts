// Queue depth and oldest-job age per queue, read from Redis when scraped. The numbers are the
// same from every process (they come from the shared Redis), so only processes serving the API
// report them (see docs/operations.md, "Metrics"); a short cache keeps several scrapers from multiplying the
// Redis round trips.
import { Gauge, type Registry } from 'prom-client';
import type { Queue } from 'bullmq';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
type State = (typeof STATES)[number];

interface Snapshot {
  at: number;
  rows: { queue: string; state: State; count: number; oldestAgeSec: number }[];
}

export interface QueueSource {
  get(name: string): Pick<Queue, 'getJobCounts' | 'getJobs'>;
}

/** Registers `docpipe_queue_jobs{queue,state}` and `docpipe_queue_oldest_job_age_seconds{queue,state}`. */
export function trackQueues(
  registry: Registry,
  queues: QueueSource,
  names: readonly string[],
  opts: { cacheMs?: number; now?: () => number } = {},
): void {
  const now = opts.now ?? Date.now;
  const cacheMs = opts.cacheMs ?? 5_000;
  let last: Snapshot | undefined;
  let pending: Promise<Snapshot> | undefined;

  const read = async (): Promise<Snapshot> => {
    const at = now();
    const perQueue = await Promise.all(
      names.map(async (queue) => {
        const q = queues.get(queue);
        const counts = await q.getJobCounts(...STATES);
        // The oldest job of each state: lists and sets read from their old end, one job each.
        const oldest = await Promise.all(
          STATES.map(async (state) => {
            if (!counts[state]) return 0;
            const [job] = await q.getJobs([state], 0, 0, true);
            return job?.timestamp ? Math.max(0, (at - job.timestamp) / 1000) : 0;
          }),
        );
        return STATES.map((state, i) => ({ queue, state, count: counts[state] ?? 0, oldestAgeSec: oldest[i] }));
      }),
    );
    return { at, rows: perQueue.flat() };
  };
  const snapshot = (): Promise<Snapshot> => {
    if (last && now() - last.at < cacheMs) return Promise.resolve(last);
    pending ??= read()
      .then((s) => {
        last = s;
        return s;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };

  new Gauge({
    name: 'docpipe_queue_jobs',
    help: 'Jobs per queue and state (waiting, active, delayed, failed), read from Redis',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      const s = await snapshot();
      this.reset();
      for (const r of s.rows) this.set({ queue: r.queue, state: r.state }, r.count);
    },
  });
  new Gauge({
    name: 'docpipe_queue_oldest_job_age_seconds',
    help: 'Age of the oldest job per queue and state (0 when none), read from Redis',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      const s = await snapshot();
      this.reset();
      for (const r of s.rows) this.set({ queue: r.queue, state: r.state }, r.oldestAgeSec);
    },
  });
}
