// Schedule triggers as BullMQ job schedulers (cron with a seconds field of 0, in the trigger's
// IANA time zone). BullMQ keeps one scheduler per id, so however many processes upsert it there
// is one job per tick; the run a tick creates is keyed by (workflow, tick time), so even a tick
// handled twice makes one run. Schedulers live only in Redis: the process that owns schedulers
// re-asserts them from the database on a timer and on every reconnect, like the maintenance ones.
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import { schedulerId, type RunProducer, type WorkflowJob } from './jobs.js';
import type { RunsRepository } from './runs.repository.js';
import type { WorkflowsRepository } from './workflows.repository.js';
import type { WorkflowRow } from './workflows.types.js';
import { removeStaleSchedulers } from '../../jobs/open-records.js';
import { keepAsserted as keepSchedulersAsserted } from '../../lib/keep-asserted.js';

const PREFIX = schedulerId('');
/** Consecutive crashed runs after which a schedule is paused. */
export const PAUSE_AFTER = 3;
/** Run failures that pause a schedule when they repeat. */
const POISON = new Set(['EXPRESSION_CRASHED', 'RUN_CRASHED', 'RUN_EXPRESSION_BUDGET']);

/** The scheduled time of a tick job (`repeat:<scheduler>:<millis>`), falling back to its creation plus delay. */
export function tickMillis(job: Pick<Job, 'id' | 'timestamp' | 'delay'>): number {
  const m = /:(\d+)$/.exec(job.id ?? '');
  return m ? Number(m[1]) : job.timestamp + (job.delay ?? 0);
}

export function createWorkflowSchedules(deps: {
  db: Db;
  producer: RunProducer;
  workflows: WorkflowsRepository;
  runs: RunsRepository;
  logger: Logger;
}) {
  const queue = () => deps.producer.queue();

  async function upsert(id: string, cfg: { cron: string; timezone?: string }): Promise<void> {
    await queue().upsertJobScheduler(
      schedulerId(id),
      { pattern: `0 ${cfg.cron.trim()}`, tz: cfg.timezone ?? 'UTC' },
      {
        name: 'tick',
        data: { kind: 'tick', workflowId: id } satisfies WorkflowJob,
        opts: { removeOnComplete: true, removeOnFail: { age: 86_400 } },
      },
    );
  }

  /** Brings one workflow's scheduler in line with its row (after a save or a delete). */
  async function apply(w: WorkflowRow | { id: string; status: 'deleted' }): Promise<void> {
    if ('trigger_type' in w && w.status === 'active' && w.trigger_type === 'schedule' && w.trigger_config) {
      await upsert(w.id, w.trigger_config as { cron: string; timezone?: string });
    } else {
      await queue().removeJobScheduler(schedulerId(w.id));
    }
  }

  /** Every active schedule from the database is upserted; schedulers of workflows no longer scheduled are removed. */
  async function reassert(): Promise<{ upserted: number; removed: number }> {
    const active = await deps.workflows.scheduled(deps.db);
    for (const w of active) await upsert(w.id, w.trigger_config);
    const keep = new Set(active.map((w) => schedulerId(w.id)));
    const removed = await removeStaleSchedulers(queue(), PREFIX, keep);
    return { upserted: active.length, removed };
  }

  /**
   * A schedule whose last PAUSE_AFTER runs all failed by crashing (their evaluator, their worker)
   * or by spending their expression budget is paused instead of run again: with no request at
   * all it would otherwise repeat the damage every tick. The reason stays on the workflow.
   */
  async function pausedForCrashes(workflowId: string): Promise<boolean> {
    const recent = await deps.runs.recentScheduled(workflowId, PAUSE_AFTER);
    if (recent.length < PAUSE_AFTER || !recent.every((r) => r.status === 'failed' && POISON.has(r.code ?? '')))
      return false;
    const reason =
      `paused after ${PAUSE_AFTER} scheduled runs in a row failed with ${recent[0].code}: ${recent[0].message ?? ''}`.slice(
        0,
        1000,
      );
    const paused = await deps.workflows.pause(workflowId, reason);
    if (paused) {
      await queue().removeJobScheduler(schedulerId(workflowId));
      deps.logger.warn({ workflowId, reason }, 'scheduled workflow paused');
    }
    return true;
  }

  /** A tick: one run of the workflow for this scheduled time, if it is still active and scheduled. */
  async function tick(job: Pick<Job<WorkflowJob>, 'id' | 'timestamp' | 'delay' | 'data'>): Promise<string | null> {
    if (job.data.kind !== 'tick') return null;
    const w = await deps.workflows.getById(job.data.workflowId);
    if (!w || w.status !== 'active' || w.trigger_type !== 'schedule') return null;
    if (await pausedForCrashes(w.id)) return null;
    const at = new Date(tickMillis(job));
    const run = await deps.runs.insert(deps.db, {
      workflowId: w.id,
      mode: 'execute',
      trigger: { type: 'schedule', scheduled_for: at.toISOString() },
      triggerKey: `schedule:${at.getTime()}`,
      documentId: null,
      input: {},
      variables: {},
      chain: [],
      createdBy: null,
    });
    if (!run) return null;
    await deps.producer.enqueue(run.id);
    return run.id;
  }

  /** Keeps the schedulers asserted (timer + reconnect); resolves once they are in place. */
  function keepAsserted(redis: Redis, everyMs: number): Promise<{ stop(): void }> {
    return keepSchedulersAsserted(redis, everyMs, reassert, deps.logger, 'workflow schedulers');
  }

  return { apply, reassert, tick, keepAsserted, upsert };
}

export type WorkflowSchedules = ReturnType<typeof createWorkflowSchedules>;
