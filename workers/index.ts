import type { Worker } from 'bullmq';
import type { Deps } from '../src/container.js';
import type { Stage } from '../src/modules/documents/documents.types.js';
import { startMaintenance, type MaintenanceOptions } from './maintenance.js';
import { startPipelineWorkers } from './pipeline.js';

export interface WorkerHandle {
  /** Closes every worker, waiting at most `timeoutMs` for running jobs. */
  close(timeoutMs?: number): Promise<void>;
}

export interface StartWorkersOptions {
  /** Queue names to serve; all when absent. */
  queues?: string[];
  concurrency: number;
  /** Also install repeatable schedulers (maintenance, reports) and keep them installed. */
  schedulers?: boolean;
  /** Maintenance timing (sweeper period, staleness, scheduler re-assertion); production defaults otherwise. */
  maintenance?: Omit<MaintenanceOptions, 'schedulers'>;
}

/** Extra worker roles registered by other modules (webhooks, mail, sheets). */
export type WorkerStarter = (deps: Deps, opts: StartWorkersOptions) => Promise<{ close(timeoutMs?: number): Promise<void> }>;

const STAGES: Stage[] = ['parse', 'embed', 'classify', 'extract'];

export async function startWorkers(deps: Deps, opts: StartWorkersOptions, extra: { name: string; start: WorkerStarter }[] = []): Promise<WorkerHandle> {
  const wanted = (name: string) => !opts.queues || opts.queues.includes(name);
  const workers: Worker[] = startPipelineWorkers(deps, STAGES.filter(wanted), opts.concurrency);
  const maintenance = wanted('maintenance') ? await startMaintenance(deps, { ...opts.maintenance, schedulers: opts.schedulers ?? false }) : undefined;
  if (maintenance) workers.push(maintenance.worker);
  const others: { close(timeoutMs?: number): Promise<void> }[] = [];
  for (const e of extra) if (wanted(e.name)) others.push(await e.start(deps, opts));
  return {
    async close(timeoutMs = 20_000) {
      maintenance?.stopTimers();
      // BullMQ's close waits for running jobs without a limit of its own.
      const all = Promise.all([...workers.map((w) => w.close()), ...others.map((o) => o.close(timeoutMs))]);
      await Promise.race([all, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
      if (workers.some((w) => w.isRunning())) await Promise.all(workers.map((w) => w.close(true)));
    },
  };
}
