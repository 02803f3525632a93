// Wiring of the reports capability: the definitions/schedules/executions service, the runner that
// computes an execution into its result file, the schedule claims behind BullMQ job schedulers,
// the sweep (stuck executions, lost ticks, retention) and what the `reports` worker needs
// (workers/reports.processor.ts starts them).
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client.js';
import type { Queues } from '../../jobs/queues.js';
import type { Logger } from '../../lib/logger.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { EventEmitter } from '../events/emitter.js';
import { createExecutionsRepository } from './executions.repository.js';
import { createReportJobs } from './jobs.js';
import { createReportsRepository } from './reports.repository.js';
import { createReportsService } from './reports.service.js';
import { createReportRunner } from './runner.js';
import { createReportSchedules } from './schedules.js';
import { createSchedulesRepository } from './schedules.repository.js';
import { deleteExpired, sweepExecutions } from './sweep.js';

export type { ReportsService } from './reports.service.js';

export interface ReportsModuleDeps {
  db: Db;
  redis: Redis;
  queues: Queues;
  /** The report file store (result files). */
  files: BlobStore;
  events: EventEmitter;
  logger: Logger;
  keys: { lock(name: string): string };
}

/** Tuning and test hooks; every field is optional. */
export interface ReportsModuleOptions {
  /** Execution job lock, ms: a crashed worker's execution runs again elsewhere after this. Default 60000. */
  lockDurationMs?: number;
  /** Stalled-job check period, ms. Default 30000. */
  stalledIntervalMs?: number;
  /** Sweep period (stuck executions, lost ticks, retention), ms; 0 turns it off. Default 60000. */
  sweepIntervalMs?: number;
  /** How long a queued or running execution may go untouched before the sweep checks its job, ms. Default 300000. */
  staleMs?: number;
  /** How late a schedule's tick may be before the sweep claims it, ms. Default 120000. */
  overdueGraceMs?: number;
  /** Schedulers re-assertion period, ms. Default 60000. */
  reassertIntervalMs?: number;
  /** Rows per page of paged reads. Default 5000. */
  batchSize?: number;
}

/** What the `reports` worker, its sweep and the schedule re-assertion need. */
export interface ReportWorkerDeps {
  queues: Queues;
  redis: Redis;
  logger: Logger;
  keys: { lock(name: string): string };
  runner: ReturnType<typeof createReportRunner>;
  schedules: ReturnType<typeof createReportSchedules>;
  sweep(): Promise<unknown>;
  options: ReportsModuleOptions;
}

export function createReportsModule(deps: ReportsModuleDeps, opts: ReportsModuleOptions = {}) {
  const reports = createReportsRepository(deps.db);
  const schedulesRepo = createSchedulesRepository(deps.db);
  const executions = createExecutionsRepository(deps.db);
  const jobs = createReportJobs(deps.queues);
  const runner = createReportRunner({
    db: deps.db,
    executions,
    files: deps.files,
    logger: deps.logger,
    events: deps.events,
    batchSize: opts.batchSize,
  });
  const schedules = createReportSchedules({
    db: deps.db,
    jobs,
    schedules: schedulesRepo,
    executions,
    logger: deps.logger,
  });
  const service = createReportsService({
    db: deps.db,
    reports,
    schedules: schedulesRepo,
    executions,
    scheduler: schedules,
    jobs,
    files: deps.files,
    logger: deps.logger,
  });
  let filesSweptAt = 0;
  /**
   * One pass: lost ticks claimed, stuck executions re-queued or failed, expired executions deleted
   * and (hourly) result files no execution refers to removed (runs cut short by a crash).
   */
  const sweep = async () => {
    const out = {
      ticks: await schedules.catchUp(opts.overdueGraceMs ?? 120_000),
      executions: await sweepExecutions({ executions, jobs, runner, logger: deps.logger }, opts.staleMs ?? 300_000),
      retention: await deleteExpired({ executions, files: deps.files, logger: deps.logger }),
      files: null as unknown,
    };
    if (Date.now() - filesSweptAt >= 3_600_000) {
      filesSweptAt = Date.now();
      out.files = await deps.files.sweep({
        olderThanMs: 6 * 3_600_000,
        inUse: (keys) => executions.fileKeysInUse(keys),
      });
    }
    return out;
  };
  return {
    service,
    runner,
    schedules,
    jobs,
    sweep,
    repos: { reports, schedules: schedulesRepo, executions },
    worker: {
      queues: deps.queues,
      redis: deps.redis,
      logger: deps.logger,
      keys: deps.keys,
      runner,
      schedules,
      sweep,
      options: opts,
    } satisfies ReportWorkerDeps,
  };
}

export type ReportsModule = ReturnType<typeof createReportsModule>;
