// Jobs on the `workflows` queue: one per run (it carries the run id only; the database holds the
// run) and the ticks of schedule triggers, made by BullMQ job schedulers.
import type { Queues } from '../../jobs/queues.js';

export const WORKFLOWS_QUEUE = 'workflows' as const;

export type WorkflowJob = { kind: 'run'; runId: string } | { kind: 'tick'; workflowId: string };

export const runJobId = (runId: string) => `wfrun-${runId}`;
export const schedulerId = (workflowId: string) => `wfsched-${workflowId}`;

export function createRunProducer(queues: Queues) {
  const queue = () => queues.get(WORKFLOWS_QUEUE);
  const job = (runId: string, delay?: number) => ({
    name: 'run',
    data: { kind: 'run', runId } satisfies WorkflowJob,
    // A run's job fails only on infrastructure errors (database down): node failures are handled
    // by the engine. Completed jobs go at once so the sweeper can re-add one under the same id.
    opts: {
      jobId: runJobId(runId),
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: { age: 86_400 },
      ...(delay && delay > 0 ? { delay } : {}),
    },
  });
  return {
    async enqueue(runId: string, delayMs?: number): Promise<void> {
      const j = job(runId, delayMs);
      await queue().add(j.name, j.data, j.opts);
    },
    async enqueueMany(runIds: readonly string[]): Promise<void> {
      for (let i = 0; i < runIds.length; i += 500) await queue().addBulk(runIds.slice(i, i + 500).map((id) => job(id)));
    },
    /** Removes a run's job unless it is running (a cancelled run's delayed job). */
    async drop(runId: string): Promise<void> {
      const j = await queue().getJob(runJobId(runId));
      if (j && !(await j.isActive())) await j.remove().catch(() => undefined);
    },
    queue,
  };
}

export type RunProducer = ReturnType<typeof createRunProducer>;
