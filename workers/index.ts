// The one table of worker roles: each queue name maps to the function that starts its worker from
// the container, handing it only what it uses. `docpipe start` and `docpipe worker [--queues …]`
// start their roles from here; a new queue gets a row here and nowhere else.
import type { Deps } from '../src/container.js';
import { STAGES, type Stage } from '../src/modules/documents/documents.types.js';
import type { MailPollerOptions } from '../src/modules/integrations/mailbox/index.js';
import { closeWorker } from './close.js';
import { startExportWorkers } from './export.processor.js';
import type { SmtpReceiverOptions } from '../src/modules/integrations/inbound/index.js';
import { startMailWorker } from './mail.js';
import { startSmtpWorker } from './smtp.js';
import { startMaintenance, type MaintenanceOptions } from './maintenance.js';
import { startStageWorker, type PipelineWorkerOptions } from './pipeline.js';
import { startReportWorkers } from './reports.processor.js';
import { startEventsWorker } from './events.js';
import { startWebhookWorkers } from './webhook-delivery.js';
import { startWorkflowWorkers } from './workflows.processor.js';

export interface WorkerHandle {
  /** Closes every worker, waiting at most `timeoutMs` for running jobs. */
  close(timeoutMs?: number): Promise<void>;
}

export interface StartWorkersOptions {
  /** Queue names to serve; all when absent. */
  queues?: readonly string[];
  /** WORKER_CONCURRENCY: the unit each role scales its own concurrency from. */
  concurrency: number;
  /** Also install repeatable schedulers (maintenance, reports) and keep them installed. */
  schedulers?: boolean;
  /** Maintenance timing (sweeper period, staleness, scheduler re-assertion); production defaults otherwise. */
  maintenance?: Omit<MaintenanceOptions, 'schedulers'>;
  /** Lock tuning of the stage workers; production defaults otherwise. */
  pipeline?: PipelineWorkerOptions;
  /** Export jobs in parallel. Default 4 × concurrency, at least 8 (they wait on Google). */
  exportConcurrency?: number;
  /** Deliveries in parallel (default 50: they wait on the network). */
  webhooks?: { concurrency?: number };
  /** Mail poller tuning over the container's. */
  mail?: MailPollerOptions;
  /** Watched-folder settings over the configuration's (tests: a folder, short waits). */
  watch?: Parameters<Deps['watch']['start']>[0];
  /** SMTP receiver settings over the configuration's. */
  smtp?: Partial<SmtpReceiverOptions>;
}

type Starter = (deps: Deps, opts: StartWorkersOptions) => Promise<WorkerHandle>;

/**
 * What to tell the operator when a worker is started with queues that leave out `events`:
 * nothing reaches webhooks, workflow triggers or Sheets exports unless some process relays the
 * outbox, and a split deployment that lists its queues by hand can leave it out everywhere.
 */
export function eventsRelayWarning(queues: readonly string[] | undefined): string | null {
  if (!queues || queues.includes('events')) return null;
  return (
    `this worker does not relay events (--queues ${queues.join(',')}): webhooks, workflow triggers and Sheets ` +
    'exports wait until a process runs the events queue (docpipe worker --queues events, or a worker without --queues)'
  );
}

const stageWorker =
  (stage: Stage): Starter =>
  async (deps, o) => {
    const worker = startStageWorker(stage, deps, o.concurrency, {
      continueStages: deps.config.PIPELINE_CONTINUE,
      ...o.pipeline,
    });
    return { close: (timeoutMs = 20_000) => closeWorker(worker, timeoutMs) };
  };

/** Every worker role, in start order: the pipeline stages (from STAGES), then the others. */
export const WORKERS = {
  ...(Object.fromEntries(STAGES.map((s) => [s, stageWorker(s)])) as Record<Stage, Starter>),
  maintenance: (deps, o) => startMaintenance(deps, { ...o.maintenance, schedulers: o.schedulers ?? false }),
  mail: (deps, o) => startMailWorker(deps.mail.worker, o.mail, deps.metrics),
  // Off unless SMTP_PORT is set (or the role is named): most installs receive no mail directly.
  smtp: (deps, o) => startSmtpWorker(deps.inbound, o.queues?.includes('smtp') ?? false, o.smtp),
  // Off unless WATCH_DIR is set (or the role is named).
  watch: async (deps, o) => {
    if (!deps.watch.enabled && !o.queues?.includes('watch')) return { close: async () => undefined };
    const w = await deps.watch.start(o.watch);
    return { close: () => w.close() };
  },
  export: async (deps, o) =>
    startExportWorkers(deps.sheets.worker, {
      concurrency: o.exportConcurrency ?? Math.max(8, o.concurrency * 4),
      metrics: deps.metrics,
    }),
  webhooks: (deps, o) =>
    startWebhookWorkers(deps.webhooks.worker, {
      concurrency: o.webhooks?.concurrency ?? 50,
      metrics: deps.metrics,
    }),
  // Runs mostly wait (HTTP steps, delays, slots): several per unit of concurrency.
  workflows: (deps, o) =>
    startWorkflowWorkers(deps.workflows.worker, {
      concurrency: Math.max(4, o.concurrency * 4),
      schedulers: o.schedulers,
    }),
  // An execution is one long database read streamed to a file: one per unit of concurrency.
  reports: (deps, o) =>
    startReportWorkers(deps.reports.worker, { concurrency: Math.max(1, o.concurrency), schedulers: o.schedulers }),
  // The outbox relay: every committed event to its consumers (deliveries, workflow runs, Sheets rows).
  events: async (deps) => startEventsWorker(deps.events.worker),
} satisfies Record<string, Starter>;

export type WorkerRole = keyof typeof WORKERS;
export const WORKER_ROLES = Object.keys(WORKERS) as WorkerRole[];

/** Starts the roles `opts.queues` names (all when absent); unknown names start nothing. */
export async function startWorkers(deps: Deps, opts: StartWorkersOptions): Promise<WorkerHandle> {
  const running: WorkerHandle[] = [];
  try {
    for (const role of WORKER_ROLES) {
      if (!opts.queues || opts.queues.includes(role)) running.push(await WORKERS[role](deps, opts));
    }
  } catch (err) {
    await Promise.all(running.map((r) => r.close(1_000)));
    throw err;
  }
  return {
    async close(timeoutMs = 20_000) {
      await Promise.all(running.map((r) => r.close(timeoutMs)));
    },
  };
}
