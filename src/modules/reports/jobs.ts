// Jobs on the `reports` queue: one per execution (it carries the execution id only; the database
// holds the execution), the ticks of report schedules (made by BullMQ job schedulers) and
// follow-up ticks for an occurrence the cron pattern reached early.
import type { Queues } from '../../jobs/queues.js';

export const REPORTS_QUEUE = 'reports' as const;

export type ReportJob = { kind: 'run'; executionId: string } | { kind: 'tick'; reportId: string };

export const executionJobId = (executionId: string) => `rptexe-${executionId}`;
export const schedulerId = (reportId: string) => `rptsched-${reportId}`;
/** A follow-up tick for one occurrence: the id makes it one job however often it is added. */
export const followUpJobId = (reportId: string, at: number) => `rpttick-${reportId}-${at}`;

/** How far ahead a follow-up tick is added. */
export const FOLLOW_UP_HORIZON_MS = 86_400_000;

/** Attempts of an execution's job: a failure before the last one is retried, the last one is recorded. */
export const EXECUTION_ATTEMPTS = 3;

export function createReportJobs(queues: Queues) {
  const queue = () => queues.get(REPORTS_QUEUE);
  return {
    queue,
    async enqueue(executionId: string): Promise<void> {
      await queue().add('run', { kind: 'run', executionId } satisfies ReportJob, {
        jobId: executionJobId(executionId),
        attempts: EXECUTION_ATTEMPTS,
        backoff: { type: 'exponential', delay: 2_000 },
        // Finished jobs go at once so the sweep can add one again under the same id.
        removeOnComplete: true,
        removeOnFail: { age: 86_400 },
      });
    },
    /**
     * A wake-up at `at`. Only for occurrences within a day: a longer delay overflows the worker's
     * timers, and the schedulers' re-assertion (every minute) adds it once the occurrence is near.
     */
    async followUp(reportId: string, at: number): Promise<void> {
      if (at - Date.now() > FOLLOW_UP_HORIZON_MS) return;
      await queue().add('tick', { kind: 'tick', reportId } satisfies ReportJob, {
        jobId: followUpJobId(reportId, at),
        delay: Math.max(0, at - Date.now()),
        attempts: 3,
        removeOnComplete: true,
        removeOnFail: { age: 86_400 },
      });
    },
  };
}

export type ReportJobs = ReturnType<typeof createReportJobs>;
