// Report schedules on BullMQ job schedulers. The database decides what runs: each schedule row
// holds its next occurrence (computed per local calendar date, see schedule-math.ts), and a tick
// claims the latest occurrence that is due under the row's lock, inserts its execution keyed by
// the occurrence's local date and moves next_run_at past now. So however many processes tick, and
// however late, a period runs once: two ticks of one occurrence make one execution (lock + unique
// run key), and a worker coming back after several missed ticks runs only the latest of them.
// Nothing else decides: the cron pattern (in the schedule's zone) and a follow-up job at the exact
// next occurrence (added after every claim and every re-assertion, one job per occurrence by its
// id) only wake the claim up. The follow-up covers what cron-parser gets wrong — a day whose
// local midnight does not exist (America/Santiago, America/Havana) is skipped by cron, a
// half-hour DST shift (Australia/Lord_Howe) can make it throw — and the sweep claims schedules
// whose wake-ups were all lost (Redis lost its data). Schedulers live only in Redis: the process
// that owns them re-asserts them from the database on a timer and on reconnect.
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import { resolvePeriod } from './definition.js';
import type { ExecutionsRepository } from './executions.repository.js';
import { schedulerId, type ReportJob, type ReportJobs } from './jobs.js';
import type { ReportRow, ScheduleRow } from './reports.types.js';
import { latestOccurrence, nextOccurrence, WEEKDAYS, type ScheduleSpec } from './schedule-math.js';
import type { SchedulesRepository } from './schedules.repository.js';
import { removeStaleSchedulers } from '../../jobs/open-records.js';
import { keepAsserted as keepSchedulersAsserted } from '../../lib/keep-asserted.js';

const PREFIX = schedulerId('');
/** A wake-up this much early (clocks of processes differ) still claims the occurrence it was for. */
const EARLY_MS = 5_000;

export const specOf = (
  s: Pick<ScheduleRow, 'frequency' | 'time' | 'timezone' | 'day_of_week' | 'day_of_month'>,
): ScheduleSpec => ({
  frequency: s.frequency,
  time: s.time,
  timezone: s.timezone,
  day_of_week: s.day_of_week,
  day_of_month: s.day_of_month,
});

/**
 * The cron pattern (seconds first) that wakes a schedule. Monthly days 29-31 fire on every day
 * from the 28th: the claim runs only the one that is the month's occurrence (the day itself, or
 * the last day of a shorter month).
 */
export function cronPattern(spec: ScheduleSpec): string {
  const [h, m] = spec.time.split(':').map(Number);
  if (spec.frequency === 'weekly') return `0 ${m} ${h} * * ${WEEKDAYS.indexOf(spec.day_of_week ?? 'monday')}`;
  if (spec.frequency === 'monthly') {
    const d = spec.day_of_month ?? 1;
    return `0 ${m} ${h} ${d >= 29 ? '28-31' : d} * *`;
  }
  return `0 ${m} ${h} * * *`;
}

export interface ClaimResult {
  /** The occurrence was due and claimed (its execution may have existed already). */
  due: boolean;
  /** The execution this claim created, if any. */
  executionId: string | null;
  nextRunAt: Date;
}

export function createReportSchedules(deps: {
  db: Db;
  jobs: ReportJobs;
  schedules: SchedulesRepository;
  executions: ExecutionsRepository;
  logger: Logger;
}) {
  const queue = () => deps.jobs.queue();

  /**
   * Installs (or replaces) the schedule's job scheduler and, with `nextRunAt`, the follow-up for
   * that occurrence. A scheduler cron-parser cannot compute is logged, not thrown: the follow-ups
   * and the sweep run the schedule without it.
   */
  async function upsert(reportId: string, spec: ScheduleSpec, nextRunAt?: Date): Promise<void> {
    try {
      await queue().upsertJobScheduler(
        schedulerId(reportId),
        { pattern: cronPattern(spec), tz: spec.timezone },
        {
          name: 'tick',
          data: { kind: 'tick', reportId } satisfies ReportJob,
          opts: { removeOnComplete: true, removeOnFail: { age: 86_400 } },
        },
      );
    } catch (err) {
      deps.logger.warn(
        { err, reportId },
        "could not install the report's job scheduler; follow-up ticks and the sweep run it",
      );
    }
    if (nextRunAt) await deps.jobs.followUp(reportId, nextRunAt.getTime());
  }

  async function remove(reportId: string): Promise<void> {
    await queue().removeJobScheduler(schedulerId(reportId));
  }

  /** Claims the schedule's latest due occurrence (see the file comment); null when it has no schedule. */
  async function claim(reportId: string, now = Date.now()): Promise<ClaimResult | null> {
    const res = await deps.db.tx(async (q) => {
      const locked = await deps.schedules.lock(q, reportId);
      if (!locked) return null;
      const { schedule, report } = locked as { schedule: ScheduleRow; report: ReportRow };
      if (schedule.next_run_at.getTime() > now + EARLY_MS)
        return { due: false, executionId: null, nextRunAt: schedule.next_run_at };
      const spec = specOf(schedule);
      const at = Math.max(now, schedule.next_run_at.getTime());
      const occ = latestOccurrence(spec, at);
      const previous = latestOccurrence(spec, occ.at - 1);
      const timezone = report.data_source?.timezone ?? schedule.timezone;
      const period = resolvePeriod(report.data_source?.period, timezone, occ.at, previous.at);
      const exe = await deps.executions.insert(q, {
        report,
        trigger: 'schedule',
        runKey: `schedule:${occ.key}`,
        definition: {
          type: report.type,
          name: report.name,
          data_source: report.data_source ?? {},
          filters: report.filters ?? {},
          timezone,
        },
        periodFrom: period.from,
        periodTo: period.to,
        scheduledFor: new Date(occ.at),
      });
      const next = new Date(nextOccurrence(spec, at).at);
      await deps.schedules.advance(q, reportId, {
        nextRunAt: next,
        lastRunAt: new Date(occ.at),
        periodKey: occ.key,
        executionId: exe?.id ?? null,
      });
      return { due: true, executionId: exe?.id ?? null, nextRunAt: next };
    });
    // A crash between the commit and this leaves a queued execution the sweep re-queues.
    if (res?.executionId) await deps.jobs.enqueue(res.executionId);
    if (res?.due) await deps.jobs.followUp(reportId, res.nextRunAt.getTime());
    return res;
  }

  /** A tick job (the scheduler's or a follow-up). */
  async function tick(job: Pick<Job<ReportJob>, 'data'>): Promise<ClaimResult | null> {
    if (job.data.kind !== 'tick') return null;
    return claim(job.data.reportId);
  }

  /** Claims schedules overdue by more than `graceMs`: their tick never came. */
  async function catchUp(graceMs: number, now = Date.now()): Promise<number> {
    let claimed = 0;
    for (const s of await deps.schedules.overdue(new Date(now - graceMs), 500)) {
      const r = await claim(s.report_id, now);
      if (r?.executionId) claimed++;
    }
    if (claimed) deps.logger.warn({ claimed }, 'report schedules whose tick never came were run');
    return claimed;
  }

  /** Every schedule in the database is upserted; schedulers of reports no longer scheduled are removed. */
  async function reassert(): Promise<{ upserted: number; removed: number }> {
    const keep = new Set<string>();
    let after = '';
    for (;;) {
      const page = await deps.schedules.page(after, 500);
      for (const s of page) {
        await upsert(s.report_id, specOf(s), s.next_run_at);
        keep.add(schedulerId(s.report_id));
      }
      if (page.length < 500) break;
      after = page[page.length - 1].report_id;
    }
    const removed = await removeStaleSchedulers(queue(), PREFIX, keep);
    return { upserted: keep.size, removed };
  }

  /** Keeps the schedulers asserted (timer + reconnect); resolves once they are in place. */
  function keepAsserted(redis: Redis, everyMs: number): Promise<{ stop(): void }> {
    return keepSchedulersAsserted(redis, everyMs, reassert, deps.logger, 'report schedulers');
  }

  return { upsert, remove, claim, tick, catchUp, reassert, keepAsserted };
}

export type ReportSchedules = ReturnType<typeof createReportSchedules>;
