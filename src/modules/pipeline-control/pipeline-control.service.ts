import { errors } from '../../lib/errors.js';
import type { Scope } from '../../lib/scope.js';
import { BULLMQ_QUEUES, type QueueName, type Queues } from '../../jobs/queues.js';
import type { ActivityRepository } from '../documents/activity.repository.js';
import type { DocumentsService } from '../documents/documents.service.js';
import { STAGES, type Stage } from '../documents/documents.types.js';

export interface QueueCounts {
  name: QueueName;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
  paused: boolean;
}

/**
 * The pipeline page. Per stage, the caller's own documents in progress and failed (tenant data,
 * any admin). The BullMQ queues are shared by every organization of the install: their counts and
 * pause / resume / retry belong to the operator — the organizations listed in
 * PIPELINE_OPERATOR_ORGS, or, when none are listed, the only organization of a one-organization
 * install (the usual self-hosted case).
 */
export function createPipelineControl(deps: {
  queues: Queues;
  activity: ActivityRepository;
  documents: DocumentsService;
  operatorOrgs: readonly string[];
  countOrgs: () => Promise<number>;
}) {
  const operatorCheck = async (orgId: string): Promise<{ allowed: boolean; reason?: string }> => {
    if (deps.operatorOrgs.length) {
      return deps.operatorOrgs.includes(orgId)
        ? { allowed: true }
        : {
            allowed: false,
            reason:
              'The queues are shared by every organization: only the operator organizations (PIPELINE_OPERATOR_ORGS) control them',
          };
    }
    return Number(await deps.countOrgs()) === 1
      ? { allowed: true }
      : {
          allowed: false,
          reason:
            'The queues are shared by several organizations: set PIPELINE_OPERATOR_ORGS to say whose admins control them',
        };
  };
  const mustOperate = async (orgId: string) => {
    const c = await operatorCheck(orgId);
    if (!c.allowed) throw errors.forbidden(c.reason!);
  };
  const queueName = (name: string): QueueName => {
    if (!(BULLMQ_QUEUES as readonly string[]).includes(name)) throw errors.notFound(`Queue ${name}`);
    return name as QueueName;
  };
  const counts = async (name: QueueName): Promise<QueueCounts> => {
    const q = deps.queues.get(name);
    const [c, paused] = await Promise.all([
      q.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'),
      q.isPaused(),
    ]);
    return {
      name,
      waiting: c.waiting ?? 0,
      active: c.active ?? 0,
      delayed: c.delayed ?? 0,
      failed: c.failed ?? 0,
      completed: c.completed ?? 0,
      paused,
    };
  };
  const stage = (s: string): Stage => {
    if (!(STAGES as readonly string[]).includes(s)) throw errors.notFound(`Stage ${s}`);
    return s as Stage;
  };

  return {
    async overview(scope: Scope) {
      const [perStage, skipped] = await Promise.all([
        deps.activity.perStage(scope),
        deps.activity.skippedPerStage(scope),
      ]);
      const stages = Object.fromEntries(
        STAGES.map((s) => [s, { in_progress: 0, failed: 0, skipped: 0, skipped_reason: null }]),
      ) as Record<string, { in_progress: number; failed: number; skipped: number; skipped_reason: string | null }>;
      for (const r of perStage) if (r.stage && stages[r.stage]) stages[r.stage][r.state] += r.n;
      // A stage that let documents through without its work must not look complete.
      for (const r of skipped)
        if (stages[r.stage]) Object.assign(stages[r.stage], { skipped: r.n, skipped_reason: r.reason });
      const op = await operatorCheck(scope.orgId);
      return {
        stages,
        queues: op.allowed ? await Promise.all(BULLMQ_QUEUES.map(counts)) : null,
        can_control_queues: op.allowed,
        ...(op.reason ? { queues_reason: op.reason } : {}),
      };
    },
    async pause(scope: Scope, name: string) {
      await mustOperate(scope.orgId);
      const n = queueName(name);
      await deps.queues.get(n).pause();
      return counts(n);
    },
    async resume(scope: Scope, name: string) {
      await mustOperate(scope.orgId);
      const n = queueName(name);
      await deps.queues.get(n).resume();
      return counts(n);
    },
    /** Moves the queue's failed jobs back to waiting (their processors decide again; a stage job re-reads the database). */
    async retryFailedJobs(scope: Scope, name: string) {
      await mustOperate(scope.orgId);
      const n = queueName(name);
      const before = (await counts(n)).failed;
      await deps.queues.get(n).retryJobs({ state: 'failed', count: 1000 });
      return { ...(await counts(n)), retried: before };
    },
    /** This organization's documents that failed at `stage`, run again from that stage on. */
    async retryFailedDocuments(scope: Scope, s: string) {
      const st = stage(s);
      return deps.documents.reprocessBatch(scope, {
        failed_at: st,
        stages: STAGES.slice(STAGES.indexOf(st)),
        mode: 'all',
      });
    },
    /** One stage over every document of the scope: `missing` (never run, or with older versions) or `all`. */
    async reprocessStage(scope: Scope, s: string, mode: 'missing' | 'all') {
      return deps.documents.reprocessBatch(scope, { all_documents: true, stages: [stage(s)], mode });
    },
  };
}

export type PipelineControl = ReturnType<typeof createPipelineControl>;
