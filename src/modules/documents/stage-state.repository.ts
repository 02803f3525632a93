// The pipeline's state machine in SQL: a stage's read, its guarded commit (document columns, the
// stage_runs row and its event in one statement), whether a stage already committed, and the
// documents a sweeper checks. The document's own CRUD is in documents.repository.ts.
import type { Queryable } from '../../db/client.js';
import { STAGE_DESCRIPTORS, TERMINAL_STATUSES, type StageRead } from '../../pipeline/stages.js';
import { insertEventFromRowSql } from '../events/events.repository.js';
import { EXTRACTION_ORDER, type ExtractionTemplate } from '../templates/templates.repository.js';
import { DOCUMENT_EVENT_COLUMNS, documentEventSql } from './document-event.js';
import { LIST_COLUMNS, updateSql, type UpdateOptions } from './document-sql.js';
import type { DocumentRow, Stage } from './documents.types.js';

/**
 * What a stage looks up besides the document, read in the same statement: the organisation's
 * classifier version (null: none trained, the built-in model) when the stage reads `classifier`,
 * its templates when it reads `templates`.
 */
export interface StageContext {
  classifierVersion?: string | null;
  templates?: ExtractionTemplate[];
}

/** The project settings a stage honours, read with the document in one query. */
export interface StageProject {
  id: string;
  auto_classify: boolean;
  auto_extract: boolean;
  default_template_id: string | null;
  classification_threshold: number;
  on_near_duplicate: 'keep' | 'review' | 'reject';
}

/** What a stage commit returns unless the whole row is asked for. */
export type StageState = Pick<DocumentRow, 'id' | 'version' | 'status' | 'pipeline'>;
// The event built inside the commit reads its payload from the updated row too.
const STATE_COLUMNS = [
  ...new Set([
    'id',
    'version',
    'status',
    'pipeline',
    'org_id',
    'environment',
    'duplicate_of',
    ...DOCUMENT_EVENT_COLUMNS,
  ]),
].join(', ');

/** The organisation's templates in extraction order (classification matches them too); `d` is the document row's alias. */
const templatesSql = (
  d: string,
) => `(SELECT coalesce(json_agg(json_build_object('id', t.id, 'version', t.version, 'definition', t.definition) ORDER BY ${EXTRACTION_ORDER}), '[]'::json)
            FROM templates t WHERE t.org_id = ${d}.org_id AND t.environment = ${d}.environment) AS stage_templates`;
const classifierSql = (d: string) =>
  `(SELECT c.version FROM classifier_models c WHERE c.org_id = ${d}.org_id AND c.environment = ${d}.environment) AS stage_classifier`;
const projectSql = (d: string) =>
  `(SELECT json_build_object('id', p.id, 'auto_classify', p.auto_classify, 'auto_extract', p.auto_extract,
                     'default_template_id', p.default_template_id, 'classification_threshold', p.classification_threshold,
                     'on_near_duplicate', p.on_near_duplicate)
            FROM projects p WHERE p.id = ${d}.project_id AND p.org_id = ${d}.org_id AND p.environment = ${d}.environment) AS stage_project`;

// What each stage reads back, from its descriptor's `reads`: the text only once it exists and a
// stage uses it, the vector only for classification (nearest neighbours). A stage's read and
// commit run for every document, and shipping and parsing a long text or a 384-number array that
// nobody looks at is not free.
function stageColumns(reads: readonly StageRead[]): string {
  const text = reads.includes('text') ? 'text_content' : 'NULL::text AS text_content';
  const embedding = reads.includes('embedding') ? 'embedding' : 'NULL::real[] AS embedding';
  const layout = reads.includes('layout') ? ', layout' : '';
  return LIST_COLUMNS.replace(
    'NULL::text AS text_content',
    `${text}, ${embedding}, parser_version, extractor_version${layout}`,
  );
}
function stageExtras(reads: readonly StageRead[], d: string): string {
  const classifier = reads.includes('classifier') ? classifierSql(d) : 'NULL::text AS stage_classifier';
  const templates = reads.includes('templates') ? templatesSql(d) : 'NULL::json AS stage_templates';
  return `${projectSql(d)},\n           ${classifier},\n           ${templates}`;
}

/** What a stage's read gives its compute: the document, its project's settings, the stage's context. */
export interface StageReadResult {
  doc: DocumentRow;
  project: StageProject | null;
  context: StageContext;
}

type ReadRow = DocumentRow & {
  stage_project: StageProject | null;
  stage_classifier: string | null;
  stage_templates: ExtractionTemplate[] | null;
};

function toStageRead(row: ReadRow, reads: readonly StageRead[]): StageReadResult {
  const { stage_project, stage_classifier, stage_templates, ...doc } = row;
  const context: StageContext = {};
  if (reads.includes('classifier')) context.classifierVersion = stage_classifier;
  if (reads.includes('templates')) context.templates = stage_templates ?? [];
  return { doc: doc as DocumentRow, project: stage_project, context };
}

/**
 * A next stage's read columns plus the state columns the commit itself needs (its event is built
 * from them) that the read does not already hold, so the commit can return both.
 */
function withStateColumns(columns: string): string {
  const names = new Set(columns.split(',').map((c) => c.trim().split(/\s+/).pop()));
  const missing = STATE_COLUMNS.split(', ').filter((c) => !names.has(c));
  return missing.length ? `${columns}, ${missing.join(', ')}` : columns;
}

/** A row is pending while its status is not one where the run stopped. */
const NOT_TERMINAL = `status NOT IN (${TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ')})`;

export function createStageStateRepository(db: Queryable) {
  /**
   * A stage's whole commit as one statement: the guarded document update, its stage_runs row and
   * its outbox event (data-modifying CTEs see the same snapshot and commit together). Null when
   * the guard matched nothing (the guard also excludes a stage already recorded for the version).
   * `state` holds what queueing the next stage and closing a batch need (with `row`, the list
   * columns); with `readFor`, `next` is that stage's read of the row as written.
   */
  async function commitStage(
    q: Queryable,
    id: string,
    cols: Record<string, unknown>,
    opts: UpdateOptions & {
      guard: NonNullable<UpdateOptions['guard']>;
      /** The stage's event: its payload is built from the row as written, `extra` merged over it. */
      event?: { id: string; type: string; extra: Record<string, unknown> };
      cte?: (param: (value: unknown) => string) => string[];
      row?: boolean;
      /** When the stage's work began (reports tell processing time from queueing time). */
      startedAt?: Date;
      /**
       * The stage that runs next in this process: the commit returns that stage's read as well
       * (what a read right after the commit would find unless something wrote in between),
       * saving the next stage a round trip.
       */
      readFor?: Stage;
    },
  ): Promise<{ state: DocumentRow | StageState; next?: StageReadResult } | null> {
    const nextReads = opts.readFor ? STAGE_DESCRIPTORS[opts.readFor].reads : null;
    const returning = nextReads ? withStateColumns(stageColumns(nextReads)) : opts.row ? LIST_COLUMNS : STATE_COLUMNS;
    const { sql, values } = updateSql(id, cols, opts, returning);
    const p = (v: unknown) => {
      values.push(v);
      return `$${values.length}`;
    };
    const stage = p(opts.guard.stage);
    const startedAt = p(opts.startedAt ?? null);
    // Fields a person or a project move can change while the stage ran are taken from the row
    // as written rather than from the caller's earlier read.
    // document.processed also says whether the text nearly repeats an earlier document.
    const extraData = (e: NonNullable<typeof opts.event>) =>
      e.type === 'document.processed'
        ? `(${p(JSON.stringify(e.extra))}::jsonb || jsonb_build_object('duplicate_of', u.duplicate_of))`
        : `${p(JSON.stringify(e.extra))}::jsonb`;
    const event = opts.event
      ? `, e AS (${insertEventFromRowSql('u', { id: p(opts.event.id), type: p(opts.event.type), data: documentEventSql('u', extraData(opts.event)) })} RETURNING 1)`
      : '';
    const extra = (opts.cte?.(p) ?? []).map((c) => `, ${c}`).join('');
    const { rows } = await q.query<ReadRow>(
      `WITH u AS (${sql}),
       r AS (INSERT INTO stage_runs (document_id, version, stage, started_at) SELECT id, version, ${stage}::text, ${startedAt}::timestamptz FROM u)${event}${extra}
       SELECT u.*${nextReads ? `, ${stageExtras(nextReads, 'u')}` : ''} FROM u`,
      values,
    );
    const row = rows[0];
    if (!row) return null;
    return nextReads ? { state: row, next: toStageRead(row, nextReads) } : { state: row };
  }

  return {
    commitStage,
    /**
     * A stage's read: the document as `stage` needs it (its descriptor's `reads`) and its
     * project's settings in one round trip. A document still `uploaded` is marked `processing` by
     * the same statement (the row returned is the one before that change) unless `opts.mark` is
     * false (a workflow step, whose dry run must change nothing).
     */
    async getForStage(id: string, stage: Stage, opts: { mark?: boolean } = {}): Promise<StageReadResult | null> {
      const reads: readonly StageRead[] = STAGE_DESCRIPTORS[stage].reads;
      const mark =
        opts.mark === false
          ? ''
          : `WITH mark AS (UPDATE documents SET status = 'processing', updated_at = now() WHERE id = $1 AND status = 'uploaded' RETURNING 1)`;
      const { rows } = await db.query<ReadRow>(
        `${mark}
         SELECT ${stageColumns(reads)},
           ${stageExtras(reads, 'documents')}
         FROM documents WHERE id = $1`,
        [id],
      );
      return rows[0] ? toStageRead(rows[0], reads) : null;
    },
    /** Whether `stage` already committed for this document version (a re-delivered job). */
    async stageRecorded(documentId: string, version: number, stage: Stage): Promise<boolean> {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*) AS n FROM stage_runs WHERE document_id = $1 AND version = $2 AND stage = $3',
        [documentId, version, stage],
      );
      return Number(rows[0].n) > 0;
    },
    /**
     * Documents (any organization) with a stage pending whose row has not changed for `staleMs`:
     * the sweeper checks that each still has a live job. Oldest first.
     */
    async stalePending(staleMs: number, limit: number): Promise<Pick<DocumentRow, 'id' | 'version' | 'pipeline'>[]> {
      const { rows } = await db.query<Pick<DocumentRow, 'id' | 'version' | 'pipeline'>>(
        `SELECT id, version, pipeline FROM documents WHERE pipeline->>'current' IS NOT NULL AND ${NOT_TERMINAL}
           AND updated_at < now() - ($1::int * interval '1 millisecond') ORDER BY updated_at LIMIT $2`,
        [staleMs, limit],
      );
      return rows;
    },
  };
}

export type StageStateRepository = ReturnType<typeof createStageStateRepository>;
