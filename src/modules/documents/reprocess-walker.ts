// The walker of a reprocess batch: it queues the batch's documents a page at a time, by keyset on
// (created_at, id), from the cursor stored on the batch. Each page is one transaction that adds
// the page's batch items, starts their runs and moves the cursor; the stage jobs are queued after
// the commit. So a walker stopped anywhere resumes at the cursor: a page either committed whole
// (its jobs, if the process died before queueing them, are found by the maintenance sweeper) or
// not at all. Memory holds one page, never the batch's ids.
import type { Db } from '../../db/client.js';
import type { BatchesRepository, WalkState } from './batches.repository.js';
import type { DocumentsRepository, ReprocessSelection } from './documents.repository.js';
import type { RunStarter } from './runs.js';

export interface WalkOptions {
  /** Documents per page (one transaction). */
  pageSize: number;
  /**
   * Back-pressure: at most this many of a batch's documents queued and not finished. A full batch
   * waits for the stage workers instead of filling Redis with the whole batch.
   */
  maxInFlight: number;
  /** How long a full batch waits before looking again, ms. */
  fullWaitMs: number;
}

export const WALK_DEFAULTS: WalkOptions = { pageSize: 500, maxInFlight: 5_000, fullWaitMs: 1_000 };

/** A page's outcome: `more` to walk, `full` (back-pressure), or `done` (walked, or no such batch). */
export type PageOutcome = 'more' | 'full' | 'done';

export function selectionOf(w: Pick<WalkState, 'target' | 'walk_until' | 'mode' | 'stages'>): ReprocessSelection {
  const versions = w.target.versions;
  return {
    target: w.target.target,
    until: w.walk_until,
    missing: w.mode === 'missing' && versions ? { stages: w.stages, versions } : undefined,
  };
}

export function createReprocessWalker(
  deps: {
    db: Db;
    docs: Pick<DocumentsRepository, 'reprocessPage' | 'lockForRuns'>;
    batches: Pick<BatchesRepository, 'lockWalk' | 'addItems' | 'advance'>;
    runs: Pick<RunStarter, 'startMany' | 'enqueueMany'>;
  },
  opts: Partial<WalkOptions> = {},
) {
  const o: WalkOptions = { ...WALK_DEFAULTS, ...opts };

  async function page(batchId: string): Promise<PageOutcome> {
    const res = await deps.db.tx(async (q) => {
      const w = await deps.batches.lockWalk(q, batchId);
      if (!w || w.walked_at) return { outcome: 'done' as const, started: [] };
      // Waits until a whole page fits: a walker topping up a few documents at a time would pay a
      // page's transaction for each few.
      const limit = Math.min(o.pageSize, o.maxInFlight);
      if (o.maxInFlight - w.in_flight < limit) return { outcome: 'full' as const, started: [] };
      const scope = { orgId: w.org_id, environment: w.environment };
      const cursor = w.cursor_at && w.cursor_id ? { at: w.cursor_at, id: w.cursor_id } : null;
      const rows = await deps.docs.reprocessPage(scope, selectionOf(w), cursor, limit, q);
      // Locked before they join the batch: a document deleted meanwhile is neither item nor run.
      const locked = rows.length
        ? await deps.docs.lockForRuns(
            q,
            rows.map((r) => r.id),
          )
        : [];
      const fresh = new Set(
        await deps.batches.addItems(
          q,
          batchId,
          locked.map((d) => d.id),
        ),
      );
      const started = await deps.runs.startMany(
        q,
        locked.filter((d) => fresh.has(d.id)),
        w.stages,
        batchId,
      );
      const last = rows.length < limit;
      const end = rows.at(-1);
      await deps.batches.advance(q, batchId, end ? { at: end.at, id: end.id } : null, started.length, last);
      return { outcome: last ? ('done' as const) : ('more' as const), started };
    });
    await deps.runs.enqueueMany(res.started);
    return res.outcome;
  }

  return {
    options: o,
    page,
    /**
     * Walks pages for about `budgetMs` (a job's time slice, so other jobs of its queue get a
     * turn). Returns `done`, or how long to wait before the next slice.
     */
    async walk(batchId: string, budgetMs: number): Promise<{ done: true } | { done: false; waitMs: number }> {
      const until = Date.now() + budgetMs;
      for (;;) {
        const outcome = await page(batchId);
        if (outcome === 'done') return { done: true };
        if (outcome === 'full') return { done: false, waitMs: o.fullWaitMs };
        if (Date.now() >= until) return { done: false, waitMs: 0 };
      }
    },
  };
}

export type ReprocessWalker = ReturnType<typeof createReprocessWalker>;
