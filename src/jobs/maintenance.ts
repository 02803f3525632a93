// The `maintenance` queue's jobs: the sweeper and retention run from job schedulers
// (workers/maintenance-timers.ts keeps them installed); retraining an organization's classifier
// is queued whenever a person confirms a document's type, from whichever process saw it; a
// reprocess batch's walker is one job per batch that re-schedules itself until the batch is walked.
import type { Logger } from '../lib/logger.js';
import type { Scope } from '../lib/scope.js';
import type { QueueName, Queues } from './queues.js';

/** The queue's name, as its producers and its worker use it. */
export const MAINTENANCE_QUEUE = 'maintenance' satisfies QueueName;

export type MaintenanceJob =
  { kind: 'sweep' } | { kind: 'retention' } | ({ kind: 'retrain' } & Scope) | { kind: 'reprocess'; batchId: string };

/** How long corrections gather before a retrain starts. */
const RETRAIN_DELAY_MS = 5_000;

/**
 * Queues a retrain of the scope's classifier. One per organization and environment at a time
 * (fixed job id): corrections arriving meanwhile join the next one. Never throws.
 */
export function queueRetrain(queues: Queues, logger: Logger, scope: Scope): void {
  const job: MaintenanceJob = { kind: 'retrain', orgId: scope.orgId, environment: scope.environment };
  queues
    .get(MAINTENANCE_QUEUE)
    .add('retrain', job, {
      jobId: `retrain-${scope.orgId}-${scope.environment}`,
      delay: RETRAIN_DELAY_MS,
      removeOnComplete: true,
      removeOnFail: true,
    })
    .catch((err: unknown) => logger.warn({ err }, 'could not queue classifier retraining'));
}

/** The one walker job of a batch (fixed id: queueing it again while it lives is a no-op). */
export function walkJobId(batchId: string): string {
  return `reprocess-${batchId}`;
}

/** Queues the walker of a reprocess batch. */
export async function queueWalk(queues: Queues, batchId: string): Promise<void> {
  const job: MaintenanceJob = { kind: 'reprocess', batchId };
  await queues.get(MAINTENANCE_QUEUE).add('reprocess', job, {
    jobId: walkJobId(batchId),
    removeOnComplete: true,
    // Kept when failed: the sweep finds it there and queues it again.
    removeOnFail: false,
  });
}
