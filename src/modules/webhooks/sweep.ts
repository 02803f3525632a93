// Safety net for lost jobs. A pending delivery always has a current dispatch number; if its
// attempt is overdue by more than the grace period, its job may never have been enqueued (the
// process died between commit and enqueue) or was dropped. Only jobs that do not exist are added
// (and re-adding an existing id would be a no-op anyway), so the sweep never causes a second
// attempt by itself and costs little even behind a large backlog. Returns how many were re-added.
import type { Queryable } from '../../db/client.js';
import { overduePendingDeliveries } from './deliveries.repository.js';
import type { DeliveryDispatcher } from './dispatcher.js';

/** Options of {@link sweepOverdueDeliveries}. */
export interface SweepOptions {
  /** How late an attempt must be before its job is re-added, ms. Default 15000. */
  graceMs?: number;
  /** Deliveries per sweep. Default 1000. */
  limit?: number;
}

export async function sweepOverdueDeliveries(
  db: Queryable,
  dispatcher: DeliveryDispatcher,
  opts: SweepOptions = {},
): Promise<number> {
  const rows = await overduePendingDeliveries(db, opts.graceMs ?? 15_000, opts.limit ?? 1000);
  const jobs = rows.map((r) => ({ deliveryId: r.id, seq: r.dispatch_seq }));
  if (dispatcher.redispatchMissing) return dispatcher.redispatchMissing(jobs);
  await dispatcher.dispatch(jobs);
  return jobs.length;
}
