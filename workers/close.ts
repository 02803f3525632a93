import type { Worker } from 'bullmq';

/**
 * Stops a BullMQ worker: no new jobs, then waits up to `timeoutMs` for running ones (BullMQ's own
 * close waits without a limit) and force-closes. Jobs cut off keep their lock and are run again
 * elsewhere once it expires.
 */
export async function closeWorker(worker: Worker, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const result = await Promise.race([worker.close().then(() => 'closed' as const), timedOut]);
  clearTimeout(timer);
  if (result === 'timeout') await worker.close(true);
}
