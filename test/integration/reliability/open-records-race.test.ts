// The report and workflow sweeps look at an open record's job: a job that fails while the sweep
// reads it must be judged by its failure, not by a copy read a moment before (that copy has no
// failed reason and no attempt counted, so it passed for a job to retry and the sweep queued
// the record again: a poisoned workflow run ran a third time).
import { randomBytes } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { sweepOpenRecords } from '../../../src/jobs/open-records.js';

describe('sweepOpenRecords reading a job that fails meanwhile', () => {
  const prefix = `t${randomBytes(5).toString('hex')}`;
  const connection = { url: inject('redisUrl') };
  const queue = new Queue('race', { connection, prefix });
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  const worker = new Worker(
    'race',
    async () => {
      await released;
      throw new Error('boom');
    },
    { connection, prefix, concurrency: 1 },
  );
  afterAll(async () => {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('fails the record (never re-queues it) when the job fails between the sweep reading it and its state', async () => {
    const failedOnce = new Promise<void>((r) => worker.once('failed', () => r()));
    const started = new Promise<void>((r) => worker.once('active', () => r()));
    await queue.add('run', {}, { jobId: 'run-1', attempts: 1 });
    await started;
    // The job fails the first time the sweep asks for it, after the copy it gets back was read.
    let raced = false;
    const racing = new Proxy(queue, {
      get(target, prop, receiver) {
        if (prop !== 'getJob') return Reflect.get(target, prop, receiver) as unknown;
        return async (id: string) => {
          const job = await target.getJob(id);
          if (!raced) {
            raced = true;
            release();
            await failedOnce;
          }
          return job;
        };
      },
    });
    const fails: Job[] = [];
    const requeues: string[] = [];
    const sweep = () =>
      sweepOpenRecords(['run-1'], {
        queue: racing,
        jobIdOf: (id) => id,
        gaveUp: (job) => job.attemptsMade >= (job.opts.attempts ?? 1) && /boom/.test(job.failedReason ?? ''),
        fail: async (_id, job) => {
          fails.push(job);
        },
        requeue: async (id) => {
          requeues.push(id);
        },
      });
    await sweep();
    expect(raced).toBe(true);
    await sweep();
    expect(requeues).toEqual([]);
    expect(fails).toHaveLength(1);
    expect(fails[0].failedReason).toBe('boom');
    expect(await queue.getJob('run-1')).toBeUndefined();
  });
});
