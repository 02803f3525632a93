import type { Db, Queryable } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import type { Queues } from '../../jobs/queues.js';
import { newId } from '../../lib/ids.js';
import type { EventType } from '../events/events.types.js';
import type { BatchesRepository } from './batches.repository.js';
import type { DocumentsRepository } from './documents.repository.js';
import type { StageContext, StageProject, StageReadResult, StageStateRepository } from './stage-state.repository.js';
import type { EventEmitter } from '../events/emitter.js';
import { STAGE_DESCRIPTORS } from '../../pipeline/stages.js';
import { documentEventData } from './document-event.js';
import type { DocumentRow, DocumentStatus, Stage } from './documents.types.js';
import { enqueueStage, nextStage, type StageJobData } from './flow.js';

/** What a stage computed; written in one transaction with its event. */
export interface StageOutcome {
  cols: Record<string, unknown>;
  /**
   * Extra writes in the stage's commit statement (e.g. embedding chunks): `name AS (…)` clauses
   * that may read the updated document from `u` (empty when the guard did not match); `param`
   * adds a query parameter and returns its placeholder.
   */
  cte?: (param: (value: unknown) => string) => string[];
  /** Text to index for full-text search, written with the stage's columns. */
  searchText?: string;
  /** The text's language, when known (its stems are indexed too). */
  searchLanguage?: string | null;
  /** A note kept on the document (e.g. why embedding was skipped). */
  note?: string;
  /**
   * The stage could not do its work and let the document go on without it (no embedding
   * model): a batch reports the document as skipped, not completed.
   */
  skipped?: { code: string; message: string };
  /** Stop the run here in needs_review (low classification confidence). */
  needsReview?: boolean;
}

export type StageCompute = (
  doc: DocumentRow,
  project: StageProject | null,
  context: StageContext,
) => Promise<StageOutcome>;

export interface RunResult {
  outcome: 'done' | 'already-done' | 'stale';
  next: Stage | null;
  /** The next stage was handed to the caller to run here instead of being queued. */
  continued?: boolean;
  /** With `continued`: the next stage's read, returned by this stage's commit. */
  read?: StageReadResult;
}

export interface RunOptions {
  /**
   * Asked after the stage computed and before it commits, with the stage that comes next: true
   * when the caller will run it here right away (its job is then not queued, and the commit
   * returns its read). A process that dies meanwhile leaves the document with that stage
   * recorded as current and the job being run unfinished; the job is run again, finds this stage
   * committed and queues the next one (settleRepeat). Callers that take something (a slot) in
   * it must pass `giveBack`.
   */
  continueHere?: (next: Stage) => Promise<boolean>;
  /** Gives back what `continueHere` took when the commit then failed or matched nothing. */
  giveBack?: (next: Stage) => void;
  /**
   * This stage's read, as the previous stage's commit returned it (a continued stage). A
   * reprocess or failure landing after that commit is caught by this stage's guarded commit, as
   * one landing between a read and its commit always was.
   */
  read?: StageReadResult;
}

/**
 * Runs one stage of one document version. The stage's result, its timestamp, its event and
 * the pointer to the next stage commit together; a stage_runs row makes a re-delivered job
 * (a worker killed after commit) a no-op that only makes sure the next stage is queued.
 */
export function createStageRunner(deps: {
  db: Db;
  docs: DocumentsRepository;
  stages: StageStateRepository;
  batches: BatchesRepository;
  queues: Queues;
  logger: Logger;
  events: EventEmitter;
  /** Called once after a document is marked failed (e.g. tell the sender of mailed documents). Errors are logged. */
  onFailed?: (doc: DocumentRow, error: { stage: Stage; code: string; message: string }) => Promise<void>;
}) {
  async function finishBatch(
    q: Queryable,
    doc: Pick<DocumentRow, 'id' | 'pipeline'>,
    outcome: 'completed' | 'failed',
    error?: unknown,
  ) {
    if (!doc.pipeline.batch_id) return;
    // A run that reached its end with a stage skipped did not do all that was asked of it.
    const skip = outcome === 'completed' ? Object.entries(doc.pipeline.skipped ?? {})[0] : undefined;
    if (skip)
      await deps.batches.finishItem(q, doc.pipeline.batch_id, doc.id, 'skipped', { stage: skip[0], ...skip[1] });
    else await deps.batches.finishItem(q, doc.pipeline.batch_id, doc.id, outcome, error);
  }

  /** A re-delivered job for a stage that already committed: make sure the next one is queued. */
  async function settleRepeat(stage: Stage, job: StageJobData): Promise<RunResult> {
    if (!(await deps.stages.stageRecorded(job.documentId, job.version, stage))) return { outcome: 'stale', next: null };
    const doc = await deps.docs.getById(job.documentId);
    const cur = doc && doc.version === job.version && doc.status !== 'failed' ? (doc.pipeline.current ?? null) : null;
    if (cur && doc) await enqueueStage(deps.queues, cur, doc);
    return { outcome: 'already-done', next: cur };
  }

  async function run(
    stage: Stage,
    job: StageJobData,
    compute: StageCompute,
    opts: RunOptions = {},
  ): Promise<RunResult> {
    const startedAt = new Date();
    const read = opts.read ?? (await deps.stages.getForStage(job.documentId, stage));
    const doc = read?.doc;
    if (!doc || doc.version !== job.version || doc.status === 'failed') return { outcome: 'stale', next: null };
    if (doc.pipeline.current !== stage) return settleRepeat(stage, job);
    const out = await compute(doc, read.project, read.context);

    // The write is guarded by (version, current stage, not failed) instead of a locking read
    // first: a reprocess, a failure or a duplicate job that committed meanwhile makes it match
    // nothing. Only this stage's job moves `pipeline` on while it is current, so the state read
    // above is still the one being replaced when the guard matches.
    const next = out.needsReview ? null : nextStage(doc.pipeline.stages, stage);
    const status: DocumentStatus = out.needsReview
      ? 'needs_review'
      : next === null
        ? 'completed'
        : STAGE_DESCRIPTORS[stage].statusAfter;
    const notes = { ...(doc.pipeline.notes ?? {}) };
    if (out.note) notes[stage] = out.note;
    else delete notes[stage];
    const pipeline = { ...doc.pipeline, current: next, notes };
    if (out.skipped) pipeline.skipped = { ...doc.pipeline.skipped, [stage]: out.skipped };
    const cols: Record<string, unknown> = { ...out.cols, status, pipeline };
    if (status === 'completed') cols.completed_at = new Date();
    // document.processed marks parse+embed done; a run without embed reports it after parse.
    // The descriptor's event name must be a known EventType (this assignment checks it).
    let eventType: EventType | null = STAGE_DESCRIPTORS[stage].eventAfter;
    if (stage === 'parse' && next !== 'embed') eventType = 'document.processed';
    const event = eventType ? { id: newId('evt'), type: eventType, extra: { stage } } : undefined;

    // Whether the next stage runs here is settled before the commit, so that the commit can
    // return that stage's read (one round trip less per continued stage).
    const here = next !== null && (await opts.continueHere?.(next)) === true;
    // One autocommitted statement; closing a batch needs a transaction around it. What the
    // stage's event causes (deliveries, workflow runs, Sheets exports) is the relay's work.
    const commit = async (q: Queryable) => {
      const updated = await deps.stages.commitStage(q, doc.id, cols, {
        guard: { version: job.version, stage },
        searchText: out.searchText,
        searchLanguage: out.searchLanguage,
        event,
        cte: out.cte,
        startedAt,
        readFor: here && next ? next : undefined,
      });
      if (!updated) return null;
      if (next === null) await finishBatch(q, updated.state, 'completed');
      return { doc: updated.state, read: updated.next, next };
    };
    const needsTx = next === null && !!doc.pipeline.batch_id;
    let committed: Awaited<ReturnType<typeof commit>>;
    try {
      committed = needsTx ? await deps.db.tx(commit) : await commit(deps.db);
    } catch (err) {
      if (here && next) opts.giveBack?.(next);
      throw err;
    }
    if (!committed) {
      if (here && next) opts.giveBack?.(next);
      return settleRepeat(stage, job);
    }
    if (here && committed.next) return { outcome: 'done', next: committed.next, continued: true, read: committed.read };
    if (committed.next) await enqueueStage(deps.queues, committed.next, committed.doc);
    return { outcome: 'done', next: committed.next };
  }

  /**
   * Marks the document failed with the stage's reason (permanent error or retries exhausted),
   * with its document.failed event in the same transaction.
   */
  async function fail(stage: Stage, job: StageJobData, code: string, message: string): Promise<void> {
    const error = { stage, code, message: message.slice(0, 2000) };
    const failed = await deps.db.tx(async (q) => {
      const d = await deps.docs.getById(job.documentId, q, true);
      if (!d || d.version !== job.version || d.status === 'failed') return null;
      const updated = await deps.docs.update(q, d.id, {
        status: 'failed',
        error,
        pipeline: { ...d.pipeline, current: null },
      });
      await finishBatch(q, updated, 'failed', error);
      await deps.events.insert(q, {
        orgId: updated.org_id,
        environment: updated.environment,
        type: 'document.failed',
        data: documentEventData(updated, { error }),
      });
      return updated;
    });
    deps.logger.warn({ documentId: job.documentId, stage, code }, `document failed: ${message}`);
    if (failed && deps.onFailed)
      await deps
        .onFailed(failed, error)
        .catch((err: unknown) => deps.logger.warn({ err, documentId: failed.id }, 'a document-failed hook failed'));
  }

  /** Queues a stage's job (a continued stage that could not finish here goes back to its queue). */
  const enqueue = (stage: Stage, doc: Pick<DocumentRow, 'id' | 'version'>) => enqueueStage(deps.queues, stage, doc);

  return { run, fail, enqueue };
}

export type StageRunner = ReturnType<typeof createStageRunner>;
