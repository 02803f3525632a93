// Wiring of the workflows capability: the definitions and runs service, the run engine with its
// node executors, schedule triggers, the outbox consumer that starts document-triggered runs, and
// what the `workflows` worker and its sweeper need (workers/workflows.processor.ts starts them).
import type { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Queues } from '../../jobs/queues.js';
import type { SecretBox } from '../../lib/crypto.js';
import { createAllowList, createSafeHttpClient, type Resolver } from '../../lib/http-client/index.js';
import type { Logger } from '../../lib/logger.js';
import type { Scope } from '../../lib/scope.js';
import type { DocumentsModule } from '../documents/index.js';
import type { WorkflowExport } from '../integrations/sheets/workflow-export.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { DirectDeliveries } from '../webhooks/direct-delivery.js';
import { checkSubscriptionUrl } from '../webhooks/url-policy.js';
import { createWorkflowDocuments } from './documents.port.js';
import { createRunner } from './engine/runner.js';
import { createExpressionEvaluator, type EvaluatorOptions, type ExpressionEvaluator } from './expressions/evaluator.js';
import { createWorkflowFanOut } from './fanout.js';
import { createRunProducer } from './jobs.js';
import { createExecutors } from './nodes/catalogue.js';
import { createRunsRepository } from './runs.repository.js';
import { createWorkflowSchedules } from './schedules.js';
import { sweepRuns } from './sweep.js';
import { createWorkflowsRepository } from './workflows.repository.js';
import { createWorkflowsService } from './workflows.service.js';

export type { WorkflowsService } from './workflows.service.js';

export interface WorkflowsModuleDeps {
  db: Db;
  redis: Redis;
  queues: Queues;
  secretBox: SecretBox;
  logger: Logger;
  keys: { lock(name: string): string };
  config: Pick<
    Config,
    | 'WORKFLOW_ALLOWED_HOSTS'
    | 'WORKFLOW_MAX_RUNNING_PER_ORG'
    | 'WORKFLOW_MAX_ACTIVE_SCHEDULES'
    | 'WORKFLOW_EXPRESSION_BUDGET_MS'
  >;
  documents: Pick<DocumentsModule, 'docs' | 'stages' | 'computes'>;
  projects: Pick<ProjectsRepository, 'get'>;
  sheets?: WorkflowExport;
  deliveries?: DirectDeliveries;
}

/** Tuning and test hooks; every field is optional. */
export interface WorkflowsModuleOptions {
  evaluator?: EvaluatorOptions;
  /** Name resolution for http_request (tests point hosts at a local receiver). */
  resolver?: Resolver;
  /** Run job lock, ms (how soon a crashed worker's run resumes elsewhere). Default 30000. */
  lockDurationMs?: number;
  /** Stalled-job check period, ms. Default 30000. */
  stalledIntervalMs?: number;
  /** Sweeper period, ms; 0 turns it off. Default 30000. */
  sweepIntervalMs?: number;
  /** How long an unfinished run may go untouched before the sweeper checks its job, ms. Default 60000. */
  staleMs?: number;
  /** Schedulers re-assertion period, ms. Default 60000. */
  reassertIntervalMs?: number;
  /** How long a run waits for a free slot (max_concurrent_runs) before trying again, ms. Default 1000. */
  slotWaitMs?: number;
  /** Retry waits up to this long stay in the job. Default 2000. */
  inlineRetryMaxMs?: number;
  /** A run yields its worker slot after this long (at a step boundary), ms. Default 10000. */
  sliceMs?: number;
}

/** What the `workflows` worker, its sweeper and the schedule re-assertion need. */
export interface WorkflowWorkerDeps {
  queues: Queues;
  redis: Redis;
  logger: Logger;
  keys: { lock(name: string): string };
  runner: ReturnType<typeof createRunner>;
  schedules: ReturnType<typeof createWorkflowSchedules>;
  sweep(): Promise<unknown>;
  options: WorkflowsModuleOptions;
}

export function createWorkflowsModule(deps: WorkflowsModuleDeps, opts: WorkflowsModuleOptions = {}) {
  const workflows = createWorkflowsRepository(deps.db);
  const runs = createRunsRepository(deps.db);
  const producer = createRunProducer(deps.queues);
  const documents = createWorkflowDocuments(deps.documents.docs, deps.documents.stages);
  // http_request has its own allow-list: a host allowed for webhook POSTs is not thereby
  // readable (GET/PUT/DELETE) by every member through step output.
  const allow = createAllowList(deps.config.WORKFLOW_ALLOWED_HOSTS);
  const httpCheckUrl = (url: string) => checkSubscriptionUrl(url, allow, 'WORKFLOW_ALLOWED_HOSTS');
  const http = createSafeHttpClient({
    allow,
    resolver: opts.resolver,
    timeoutMs: 30_000,
    connectTimeoutMs: 5_000,
    maxResponseBytes: 64 * 1024,
    userAgent: 'docpipe-workflows/1',
  });
  let evaluator: ReturnType<typeof createExpressionEvaluator> | undefined;
  const getEvaluator = () => (evaluator ??= createExpressionEvaluator(opts.evaluator));
  const lazyEvaluator: ExpressionEvaluator = {
    evaluate: (e, i, o) => getEvaluator().evaluate(e, i, o),
    check: (e, o) => getEvaluator().check(e, o),
    get processesStarted() {
      return evaluator?.processesStarted ?? 0;
    },
    close: async () => {
      await evaluator?.close();
    },
  };

  const executors = createExecutors({
    documents: { documents, computes: deps.documents.computes, projects: deps.projects },
    outbound: {
      sheets: deps.sheets,
      deliveries: deps.deliveries,
      checkUrl: httpCheckUrl,
      http: { request: (url, o) => http.post(url, o) },
      async secretFor(scope: Scope, workflowId: string) {
        const w = await workflows.get(scope, workflowId);
        if (!w) throw new Error('the workflow no longer exists');
        return deps.secretBox.decrypt(w.secret_sealed);
      },
    },
  });
  const runner = createRunner({
    db: deps.db,
    runs,
    documents,
    evaluator: lazyEvaluator,
    executors,
    logger: deps.logger,
    slotWaitMs: opts.slotWaitMs,
    inlineRetryMaxMs: opts.inlineRetryMaxMs,
    sliceMs: opts.sliceMs,
    maxRunningPerOrg: deps.config.WORKFLOW_MAX_RUNNING_PER_ORG,
    expressionBudgetMs: deps.config.WORKFLOW_EXPRESSION_BUDGET_MS,
  });
  const schedules = createWorkflowSchedules({ db: deps.db, producer, workflows, runs, logger: deps.logger });
  const service = createWorkflowsService({
    db: deps.db,
    workflows,
    runs,
    secretBox: deps.secretBox,
    enqueueRun: (id) => producer.enqueue(id),
    dropRun: (id) => producer.drop(id),
    onScheduleChange: (w) => schedules.apply(w),
    checkExpressions: (items, orgId) => lazyEvaluator.check(items, { key: orgId }),
    maxActiveSchedules: deps.config.WORKFLOW_MAX_ACTIVE_SCHEDULES,
    checkUrl: (type, url) => (type === 'http_request' ? httpCheckUrl(url) : (deps.deliveries?.checkUrl(url) ?? null)),
  });
  const fanOut = createWorkflowFanOut({ workflows, runs, enqueue: (ids) => producer.enqueueMany(ids) });
  const sweep = () => sweepRuns({ runs, producer, runner, logger: deps.logger }, opts.staleMs ?? 60_000);

  return {
    service,
    runner,
    producer,
    schedules,
    fanOut,
    sweep,
    repos: { workflows, runs },
    evaluator: lazyEvaluator,
    worker: {
      queues: deps.queues,
      redis: deps.redis,
      logger: deps.logger,
      keys: deps.keys,
      runner,
      schedules,
      sweep,
      options: opts,
    } satisfies WorkflowWorkerDeps,
    async close() {
      await lazyEvaluator.close();
      http.close();
    },
  };
}

export type WorkflowsModule = ReturnType<typeof createWorkflowsModule>;
