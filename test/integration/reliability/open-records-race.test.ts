// The report and workflow sweeps (and the document sweeper) look at an open record's job while
// workers and operators move it. A job that fails while the sweep reads it must be judged by its
// failure, not by a copy read a moment before (that copy has no failed reason and no attempt
// counted, so it passed for a job to retry and the sweep queued the record again: a poisoned
// workflow run ran a third time). A failed job retried meanwhile is left to its retry, and job
// data left under an id with the job in no queue list is removed before the id is queued again.
import { randomBytes } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { sweepOpenRecords } from '../../../src/jobs/open-records.js';

describe('sweepOpenRecords reading a job that moves meanwhile', () => {
  const prefix = `t${randomBytes(5).toString('hex')}`;
  const connection = { url: inject('redisUrl') };
  let queue: Queue;
  let worker: Worker | undefined;
  let release = (): void => undefined;
  beforeAll(() => {
    queue = new Queue('race', { connection, prefix });
  });
  afterAll(async () => {
    release();
    await worker?.close(true);
    await queue.obliterate({ force: true });
    await queue.close();
  });

  /** A queue whose getJob runs `meanwhile` once, after reading the job it returns. */
  const racing = (meanwhile: () => Promise<void>) => {
    let ran = false;
    const q = new Proxy(queue, {
      get(target, prop, receiver) {
        if (prop !== 'getJob') return Reflect.get(target, prop, receiver) as unknown;
        return async (id: string) => {
          const job = await target.getJob(id);
          if (!ran) {
            ran = true;
            await meanwhile();
          }
          return job;
        };
      },
    });
    return { q, ran: () => ran };
  };

  const sweeper = (q: Queue, id: string) => {
    const fails: Job[] = [];
    const requeues: string[] = [];
    const sweep = () =>
      sweepOpenRecords([id], {
        queue: q,
        jobIdOf: (x) => x,
        gaveUp: (job) => job.attemptsMade >= (job.opts.attempts ?? 1) && /boom/.test(job.failedReason ?? ''),
        fail: async (_x, job) => {
          fails.push(job);
        },
        requeue: async (x) => {
          requeues.push(x);
          await queue.add('run', {}, { jobId: x });
        },
      });
    return { sweep, fails, requeues };
  };

  it('fails the record (never re-queues it) when the job fails between the sweep reading it and its state', async () => {
    const released = new Promise<void>((r) => {
      release = r;
    });
    const w = new Worker<unknown, unknown>(
      'race',
      async () => {
        await released;
        throw new Error('boom');
      },
      { connection, prefix, concurrency: 1 },
    );
    worker = w;
    const failedOnce = new Promise<void>((r) => w.once('failed', () => r()));
    const started = new Promise<void>((r) => w.once('active', () => r()));
    await queue.add('run', {}, { jobId: 'run-1', attempts: 1 });
    await started;
    const { q, ran } = racing(async () => {
      release();
      await failedOnce;
    });
    const s = sweeper(q, 'run-1');
    await s.sweep();
    expect(ran()).toBe(true);
    await s.sweep();
    expect(s.requeues).toEqual([]);
    expect(s.fails).toHaveLength(1);
    expect(s.fails[0].failedReason).toBe('boom');
    expect(await queue.getJob('run-1')).toBeUndefined();
    await w.close();
    worker = undefined;
  });

  it('leaves a failed job that is retried between the reads to its retry', async () => {
    const w = new Worker(
      'race',
      async () => {
        throw new Error('boom');
      },
      { connection, prefix, concurrency: 1 },
    );
    const failed = new Promise<void>((r) => w.once('failed', () => r()));
    await queue.add('run', {}, { jobId: 'run-2', attempts: 1 });
    await failed;
    await w.close();
    expect(await queue.getJobState('run-2')).toBe('failed');
    const { q, ran } = racing(async () => {
      await (await queue.getJob('run-2'))!.retry();
    });
    const s = sweeper(q, 'run-2');
    await s.sweep();
    expect(ran()).toBe(true);
    expect(s.fails).toEqual([]);
    expect(s.requeues).toEqual([]);
    expect(await queue.getJobState('run-2')).toBe('waiting');
  });

  it('removes job data that no queue list holds, so the record is queued again for real', async () => {
    await queue.add('run', {}, { jobId: 'run-3' });
    // The job's data stays, its place in the wait list is lost (as after a partial loss of data).
    const redis = new Redis(inject('redisUrl'));
    try {
      expect(await redis.lrem(`${prefix}:race:wait`, 0, 'run-3')).toBe(1);
      expect(await redis.exists(`${prefix}:race:run-3`)).toBe(1);
    } finally {
      redis.disconnect();
    }
    expect(await queue.getJobState('run-3')).toBe('unknown');
    const s = sweeper(queue, 'run-3');
    await s.sweep();
    expect(s.requeues).toEqual(['run-3']);
    expect(await queue.getJobState('run-3')).toBe('waiting');
  });
});
