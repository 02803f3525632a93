import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import { MAX_DOCUMENT_VALUES_BYTES } from '../../lib/limits.js';
import type { Scope } from '../../lib/scope.js';
import { searchConfigFor, searchVectorSql } from '../../lib/text-search.js';
import type { StoredLayout } from '../../pipeline/parse/index.js';
import { EXTRACTION_ORDER, type ExtractionTemplate } from '../templates/templates.repository.js';
import type {
  Classification,
  DocumentRow,
  DocumentStatus,
  FieldValue,
  PipelineState,
  Stage,
} from './documents.types.js';
import { missingStageSql, type StageVersions } from './missing.js';
import { DOCUMENT_EVENT_COLUMNS, documentEventSql } from './document-event.js';
import { insertEventFromRowSql } from '../events/events.repository.js';

/** Which documents a reprocess covers: a project's, a list, every one, or those that failed at a stage. */
export type ReprocessTarget = { projectId: string } | { documentIds: string[] } | { all: true } | { failedAt: Stage };

export interface DocumentFilters {
  project_id?: string;
  status?: string;
  classification?: string;
  source?: string;
  created_after?: string;
  created_before?: string;
  q?: string;
  /** Comma-separated document ids (the route bounds them to 100): one request to follow a set. */
  ids?: string;
  /** Classification confidence bounds, inclusive below and exclusive above (documents without one are left out). */
  min_confidence?: number;
  max_confidence?: number;
  /** Only documents flagged (true) or not flagged (false) as near-duplicates. */
  duplicate?: boolean;
  page: number;
  per_page: number;
}

/** Confirmed documents' texts fetched per query when retraining (a long text can be megabytes). */
const CONFIRMED_TEXT_PAGE = 20;

// Columns for lists: everything but the (possibly megabytes of) text and the vector.
const LIST_COLUMNS = `id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key, source,
  source_metadata, metadata, status, error, page_count, language, duplicate_of, classification, fields, version, pipeline, uploaded_by,
  parsed_at, embedded_at, classified_at, extracted_at, exported_at, completed_at, embedding_model, classifier_version,
  template_id, template_version, confirmed, created_at, updated_at, NULL::text AS text_content`;

// A page of a list: fields and metadata of a document over twice the bound (written before the
// bound existed; the factor allows for jsonb's spacing) are left out in the database, so a list
// never ships them; values_oversized says so. The service cuts the rest to the list budget.
const VALUES_TEXT_BYTES = `(octet_length(coalesce(fields, '{}'::jsonb)::text) + octet_length(coalesce(metadata, '{}'::jsonb)::text))`;
const IN_BOUND = `${VALUES_TEXT_BYTES} <= ${2 * MAX_DOCUMENT_VALUES_BYTES}`;
const LIST_PAGE_COLUMNS = LIST_COLUMNS.replace(
  'source_metadata, metadata,',
  `source_metadata, CASE WHEN ${IN_BOUND} THEN metadata ELSE '{}'::jsonb END AS metadata,`,
).replace(
  'classification, fields,',
  `classification, CASE WHEN ${IN_BOUND} THEN fields END AS fields, NOT (${IN_BOUND}) AS values_oversized,`,
);

// Whole rows for workers: everything but the tsvector, which nothing reads back (it is only
// searched) and which would otherwise be shipped and parsed with every read.
const ROW_COLUMNS = LIST_COLUMNS.replace(
  'NULL::text AS text_content',
  'text_content, embedding, parser_version, extractor_version',
);

// What each stage reads back: the text only once it exists and a stage uses it, the vector only
// for classification (nearest neighbours). A stage's read and commit run for every document, and
// shipping and parsing a long text or a 384-number array that nobody looks at is not free.
const STAGE_COLUMNS: Record<Stage, string> = {
  parse: LIST_COLUMNS.replace(
    'NULL::text AS text_content',
    'NULL::text AS text_content, NULL::real[] AS embedding, parser_version, extractor_version',
  ),
  embed: LIST_COLUMNS.replace(
    'NULL::text AS text_content',
    'text_content, NULL::real[] AS embedding, parser_version, extractor_version',
  ),
  // The layout too: a template's keywords are matched on the same text extraction reads.
  classify: `${ROW_COLUMNS}, layout`,
  extract: LIST_COLUMNS.replace(
    'NULL::text AS text_content',
    'text_content, NULL::real[] AS embedding, parser_version, extractor_version, layout',
  ),
};

/**
 * What a stage looks up besides the document, read in the same statement: the organisation's
 * classifier version (null: none trained, the built-in model) for classify, its templates for
 * extract.
 */
export interface StageContext {
  classifierVersion?: string | null;
  templates?: ExtractionTemplate[];
}

/** The organisation's templates in extraction order (classification matches them too). */
const TEMPLATES_SQL = `(SELECT coalesce(json_agg(json_build_object('id', t.id, 'version', t.version, 'definition', t.definition) ORDER BY ${EXTRACTION_ORDER}), '[]'::json)
            FROM templates t WHERE t.org_id = documents.org_id AND t.environment = documents.environment) AS stage_templates`;

const STAGE_EXTRAS: Record<Stage, string> = {
  parse: 'NULL::text AS stage_classifier, NULL::json AS stage_templates',
  embed: 'NULL::text AS stage_classifier, NULL::json AS stage_templates',
  classify: `(SELECT c.version FROM classifier_models c WHERE c.org_id = documents.org_id AND c.environment = documents.environment) AS stage_classifier,
           ${TEMPLATES_SQL}`,
  extract: `NULL::text AS stage_classifier,
           ${TEMPLATES_SQL}`,
};

/** A document as the template trace reads it. */
export interface TraceDocument {
  id: string;
  status: string;
  text_content: string | null;
  layout: StoredLayout | null;
  /** For learning a template from the document. */
  fields: Record<string, FieldValue> | null;
  classification: Classification | null;
  template_id: string | null;
  template_version: number | null;
  default_template_id: string | null;
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

/** The project settings a stage honours, read with the document in one query. */
export interface StageProject {
  id: string;
  auto_classify: boolean;
  auto_extract: boolean;
  default_template_id: string | null;
  classification_threshold: number;
  on_near_duplicate: 'keep' | 'review' | 'reject';
}

/** Optional parts of {@link DocumentsRepository.update}. */
export interface UpdateOptions {
  /** Also refresh the full-text index from this text (the one the update stores). */
  searchText?: string;
  /** The text's language (stems in that language are indexed too; unknown: words only). */
  searchLanguage?: string | null;
  /** Only update while the document is still at this version and stage and not failed. */
  guard?: { version: number; stage: Stage };
}

export function createDocumentsRepository(db: Queryable) {
  /** An UPDATE … RETURNING statement of the given columns and its parameters ($1 is the id). */
  function updateSql(
    id: string,
    cols: Record<string, unknown>,
    opts: UpdateOptions,
    returning = ROW_COLUMNS,
  ): { sql: string; values: unknown[] } {
    const keys = Object.keys(cols);
    const values: unknown[] = [
      id,
      ...keys.map((k) => {
        const v = cols[k];
        return v !== null && typeof v === 'object' && !(v instanceof Date) && !Array.isArray(v) ? JSON.stringify(v) : v;
      }),
    ];
    const sets = keys.map((k, i) => `${k} = $${i + 2}`);
    sets.push('updated_at = now()');
    const param = (v: unknown) => {
      values.push(v);
      return `$${values.length}`;
    };
    if (opts.searchText !== undefined) {
      const cfg = param(searchConfigFor(opts.searchLanguage));
      sets.push(`search = ${searchVectorSql(param(opts.searchText), cfg)}`, `search_config = ${cfg}::text`);
    }
    let where = 'id = $1';
    if (opts.guard) {
      const v = param(opts.guard.version);
      const st = param(opts.guard.stage);
      // A stage recorded for this version (a state that should not arise) is never written twice.
      where += ` AND version = ${v}::int AND status <> 'failed' AND pipeline->>'current' = ${st}::text
        AND NOT EXISTS (SELECT 1 FROM stage_runs WHERE document_id = $1 AND version = ${v}::int AND stage = ${st}::text)`;
    }
    return { sql: `UPDATE documents SET ${sets.join(', ')} WHERE ${where} RETURNING ${returning}`, values };
  }

  /**
   * A stage's whole commit as one statement: the guarded document update, its stage_runs row and
   * its outbox event (data-modifying CTEs see the same snapshot and commit together). Null when
   * the guard matched nothing (the guard also excludes a stage already recorded for the version).
   * With `row`, the row comes back without its text and vector (`text_content` is null);
   * otherwise only the state that queueing the next stage and closing a batch need.
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
    },
  ): Promise<DocumentRow | StageState | null> {
    const { sql, values } = updateSql(id, cols, opts, opts.row ? LIST_COLUMNS : STATE_COLUMNS);
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
    const { rows } = await q.query<DocumentRow>(
      `WITH u AS (${sql}),
       r AS (INSERT INTO stage_runs (document_id, version, stage, started_at) SELECT id, version, ${stage}::text, ${startedAt}::timestamptz FROM u)${event}${extra}
       SELECT * FROM u`,
      values,
    );
    return rows[0] ?? null;
  }

  return {
    commitStage,
    /** Inserts a document and, in the same statement, its outbox event (built from the new row). */
    async insert(
      q: Queryable,
      d: {
        scope: Scope;
        projectId: string;
        filename: string;
        mimeType: string;
        size: number;
        sha256: string;
        storageKey: string;
        source: DocumentRow['source'];
        sourceMetadata: Record<string, unknown>;
        metadata: Record<string, unknown>;
        uploadedBy: string | null;
        pipeline: PipelineState;
      },
      event?: { type: string; extra?: Record<string, unknown> },
    ): Promise<DocumentRow> {
      const id = newId('doc');
      const values: unknown[] = [
        id,
        d.scope.orgId,
        d.scope.environment,
        d.projectId,
        d.filename,
        d.mimeType,
        d.size,
        d.sha256,
        d.storageKey,
        d.source,
        JSON.stringify(d.sourceMetadata),
        JSON.stringify(d.metadata),
        d.uploadedBy,
        JSON.stringify(d.pipeline),
      ];
      const insertSql = `INSERT INTO documents (id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key, source,
           source_metadata, metadata, uploaded_by, pipeline, status)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,'uploaded') RETURNING ${ROW_COLUMNS}`;
      if (!event) return (await q.query<DocumentRow>(insertSql, values)).rows[0];
      values.push(newId('evt'), event.type, JSON.stringify(event.extra ?? {}));
      const { rows } = await q.query<DocumentRow>(
        `WITH d AS (${insertSql}),
         e AS (${insertEventFromRowSql('d', { id: '$15', type: '$16', data: documentEventSql('d', '$17::jsonb') })})
         SELECT * FROM d`,
        values,
      );
      return rows[0];
    },
    async findDuplicate(projectId: string, sha256: string, q: Queryable = db): Promise<DocumentRow | null> {
      const { rows } = await q.query<DocumentRow>(
        `SELECT ${LIST_COLUMNS} FROM documents WHERE project_id = $1 AND sha256 = $2 ORDER BY created_at LIMIT 1`,
        [projectId, sha256],
      );
      return rows[0] ?? null;
    },
    async get(scope: Scope, id: string, q: Queryable = db): Promise<DocumentRow | null> {
      const { rows } = await q.query<DocumentRow>(
        `SELECT ${LIST_COLUMNS} FROM documents WHERE id = $1 AND org_id = $2 AND environment = $3`,
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    async getText(scope: Scope, id: string): Promise<{ text: string | null; status: string } | null> {
      const { rows } = await db.query<{ text_content: string | null; status: string }>(
        'SELECT text_content, status FROM documents WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ? { text: rows[0].text_content, status: rows[0].status } : null;
    },
    /** Workers read by id alone: the job came from a scoped request. */
    async getById(id: string, q: Queryable = db, forUpdate = false): Promise<DocumentRow | null> {
      const { rows } = await q.query<DocumentRow>(
        `SELECT ${ROW_COLUMNS} FROM documents WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
        [id],
      );
      return rows[0] ?? null;
    },
    /**
     * A stage's read: the document as `stage` needs it (see STAGE_COLUMNS) and its project's
     * settings in one round trip. A document still `uploaded` is marked `processing` by the same
     * statement (the row returned is the one before that change) unless `opts.mark` is false
     * (a workflow step, whose dry run must change nothing).
     */
    async getForStage(
      id: string,
      stage: Stage,
      opts: { mark?: boolean } = {},
    ): Promise<{ doc: DocumentRow; project: StageProject | null; context: StageContext } | null> {
      const mark =
        opts.mark === false
          ? ''
          : `WITH mark AS (UPDATE documents SET status = 'processing', updated_at = now() WHERE id = $1 AND status = 'uploaded' RETURNING 1)`;
      const { rows } = await db.query<
        DocumentRow & {
          stage_project: StageProject | null;
          stage_classifier: string | null;
          stage_templates: ExtractionTemplate[] | null;
        }
      >(
        `${mark}
         SELECT ${STAGE_COLUMNS[stage]},
           (SELECT json_build_object('id', p.id, 'auto_classify', p.auto_classify, 'auto_extract', p.auto_extract,
                     'default_template_id', p.default_template_id, 'classification_threshold', p.classification_threshold,
                     'on_near_duplicate', p.on_near_duplicate)
            FROM projects p WHERE p.id = documents.project_id AND p.org_id = documents.org_id AND p.environment = documents.environment) AS stage_project,
           ${STAGE_EXTRAS[stage]}
         FROM documents WHERE id = $1`,
        [id],
      );
      if (!rows[0]) return null;
      const { stage_project, stage_classifier, stage_templates, ...doc } = rows[0];
      const context: StageContext = {};
      if (stage === 'classify') context.classifierVersion = stage_classifier;
      if (stage === 'extract' || stage === 'classify') context.templates = stage_templates ?? [];
      return { doc: doc as DocumentRow, project: stage_project, context };
    },
    async list(
      scope: Scope,
      f: DocumentFilters,
    ): Promise<{ rows: (DocumentRow & { values_oversized?: boolean })[]; total: number }> {
      const where = ['org_id = $1', 'environment = $2'];
      const params: unknown[] = [scope.orgId, scope.environment];
      const add = (sql: string, v: unknown) => {
        params.push(v);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (f.project_id) add('project_id = ?', f.project_id);
      if (f.status) add('status = ?', f.status);
      if (f.classification) add(`classification->>'type' = ?`, f.classification);
      if (f.source) add('source = ?', f.source);
      if (f.created_after) add('created_at >= ?', new Date(f.created_after));
      if (f.created_before) add('created_at < ?', new Date(f.created_before));
      if (f.q) add(`search @@ websearch_to_tsquery('simple', ?)`, f.q);
      if (f.ids) add('id = ANY(?::text[])', f.ids.split(','));
      if (f.duplicate !== undefined) where.push(f.duplicate ? 'duplicate_of IS NOT NULL' : 'duplicate_of IS NULL');
      if (f.min_confidence !== undefined) add(`(classification->>'confidence')::float8 >= ?`, f.min_confidence);
      if (f.max_confidence !== undefined) add(`(classification->>'confidence')::float8 < ?`, f.max_confidence);
      const w = where.join(' AND ');
      const offset = (f.page - 1) * f.per_page;
      const page = await db.query<DocumentRow & { total_count: number }>(
        `SELECT ${LIST_PAGE_COLUMNS}, count(*) OVER () AS total_count FROM documents WHERE ${w} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, f.per_page, offset],
      );
      let total = page.rows[0]?.total_count;
      if (total === undefined)
        total = (await db.query<{ n: number }>(`SELECT count(*) AS n FROM documents WHERE ${w}`, params)).rows[0].n;
      return { rows: page.rows.map(({ total_count: _t, ...r }) => r as DocumentRow), total };
    },
    async update(q: Queryable, id: string, cols: Record<string, unknown>): Promise<DocumentRow> {
      const { sql, values } = updateSql(id, cols, {});
      return (await q.query<DocumentRow>(sql, values)).rows[0];
    },
    /**
     * A workflow step's change, inside the step's transaction: fields and metadata merged in (not
     * replaced, so concurrent writers of other keys are kept), and optionally a status and project.
     */
    async applyWorkflowChange(
      q: Queryable,
      id: string,
      c: {
        fields?: Record<string, FieldValue>;
        metadata?: Record<string, unknown>;
        status?: DocumentStatus;
        projectId?: string;
      },
    ): Promise<DocumentRow | null> {
      const { rows } = await q.query<DocumentRow>(
        `UPDATE documents SET fields = coalesce(fields, '{}'::jsonb) || $2::jsonb, metadata = coalesce(metadata, '{}'::jsonb) || $3::jsonb,
           status = coalesce($4::text, status), project_id = coalesce($5::text, project_id), updated_at = now()
         WHERE id = $1 RETURNING ${LIST_COLUMNS}`,
        [id, JSON.stringify(c.fields ?? {}), JSON.stringify(c.metadata ?? {}), c.status ?? null, c.projectId ?? null],
      );
      return rows[0] ?? null;
    },
    async delete(q: Queryable, id: string): Promise<DocumentRow | null> {
      const { rows } = await q.query<DocumentRow>(`DELETE FROM documents WHERE id = $1 RETURNING ${LIST_COLUMNS}`, [
        id,
      ]);
      return rows[0] ?? null;
    },
    async storageKeyInUse(key: string, q: Queryable = db): Promise<boolean> {
      const { rows } = await q.query<{ n: number }>('SELECT count(*) AS n FROM documents WHERE storage_key = $1', [
        key,
      ]);
      return rows[0].n > 0;
    },
    /** Which of `keys` some document (any organization) still refers to. */
    async storageKeysInUse(keys: string[], q: Queryable = db): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const { rows } = await q.query<{ storage_key: string }>(
        'SELECT DISTINCT storage_key FROM documents WHERE storage_key = ANY($1::text[])',
        [keys],
      );
      return new Set(rows.map((r) => r.storage_key));
    },
    /** Whether `stage` already committed for this document version (a re-delivered job). */
    async stageRecorded(documentId: string, version: number, stage: Stage): Promise<boolean> {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*) AS n FROM stage_runs WHERE document_id = $1 AND version = $2 AND stage = $3',
        [documentId, version, stage],
      );
      return Number(rows[0].n) > 0;
    },
    async exists(scope: Scope, id: string): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM documents WHERE id = $1 AND org_id = $2 AND environment = $3', [
        id,
        scope.orgId,
        scope.environment,
      ]);
      return rows.length > 0;
    },
    /** By id alone, without text and vector (workers; the job came from a scoped request). */
    async getSummaryById(id: string): Promise<DocumentRow | null> {
      const { rows } = await db.query<DocumentRow>(`SELECT ${LIST_COLUMNS} FROM documents WHERE id = $1`, [id]);
      return rows[0] ?? null;
    },
    /** What the template trace reads: the text as templates see it, what extracted it, and the project's default template. */
    async getForTrace(scope: Scope, id: string): Promise<TraceDocument | null> {
      const { rows } = await db.query<TraceDocument>(
        `SELECT d.id, d.status, d.text_content, d.layout, d.fields, d.classification, d.template_id, d.template_version, p.default_template_id
           FROM documents d LEFT JOIN projects p ON p.id = d.project_id
          WHERE d.id = $1 AND d.org_id = $2 AND d.environment = $3`,
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    /**
     * Ids (oldest first) of the documents a reprocess request names: a project's or a list, and
     * with `missing`, only those where one of its stages never ran with the current versions.
     */
    async idsForReprocess(
      scope: Scope,
      target: ReprocessTarget,
      missing?: { stages: Stage[]; versions: StageVersions },
    ): Promise<string[]> {
      const params: unknown[] = [scope.orgId, scope.environment];
      let where = 'org_id = $1 AND environment = $2';
      if ('projectId' in target) {
        params.push(target.projectId);
        where += ` AND project_id = $${params.length}`;
      } else if ('documentIds' in target) {
        params.push(target.documentIds);
        where += ` AND id = ANY($${params.length}::text[])`;
      } else if ('failedAt' in target) {
        params.push(target.failedAt);
        where += ` AND status = 'failed' AND error->>'stage' = $${params.length}`;
      }
      if (missing) {
        const m = missingStageSql(missing.stages, missing.versions, params.length + 1);
        params.push(...m.params);
        where += ` AND (${m.sql})`;
      }
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM documents WHERE ${where} ORDER BY created_at`,
        params,
      );
      return rows.map((r) => r.id);
    },
    /** Vectors and types of the documents whose type a person confirmed (kNN neighbours), newest first. */
    async confirmedVectors(
      scope: Scope,
      modelId: string,
      excludeId: string,
      limit: number,
    ): Promise<{ embedding: number[]; type: string }[]> {
      const { rows } = await db.query<{ embedding: number[]; type: string }>(
        `SELECT embedding, classification->>'type' AS type FROM documents
         WHERE org_id = $1 AND environment = $2 AND embedding_model = $3 AND embedding IS NOT NULL AND id <> $4
           AND (classification->>'confirmed')::boolean = true
         ORDER BY updated_at DESC LIMIT $5`,
        [scope.orgId, scope.environment, modelId, excludeId, limit],
      );
      return rows;
    },
    /**
     * Texts and types of the documents whose type a person confirmed, newest first (at most
     * `limit`): training data. Each text goes through `read` (training reads a bounded part of a
     * long text, from start to end) as it arrives; texts are fetched a few at a time, so long
     * documents never pile up in memory whole.
     */
    async confirmedTexts(
      scope: Scope,
      limit: number,
      read: (text: string) => string,
    ): Promise<{ text: string; type: string }[]> {
      const { rows: ids } = await db.query<{ id: string }>(
        `SELECT id FROM documents
         WHERE org_id = $1 AND environment = $2 AND (classification->>'confirmed')::boolean = true AND text_content IS NOT NULL
         ORDER BY updated_at DESC LIMIT $3`,
        [scope.orgId, scope.environment, limit],
      );
      const out: { text: string; type: string }[] = [];
      for (let i = 0; i < ids.length; i += CONFIRMED_TEXT_PAGE) {
        const page = ids.slice(i, i + CONFIRMED_TEXT_PAGE).map((r) => r.id);
        // Ids travel as JSON (see ARRAY_PARAMS in db/client.ts).
        const { rows } = await db.query<{ id: string; text: string; type: string }>(
          `SELECT id, text_content AS text, classification->>'type' AS type FROM documents
           WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND org_id = $2 AND environment = $3
             AND (classification->>'confirmed')::boolean = true AND text_content IS NOT NULL`,
          [JSON.stringify(page), scope.orgId, scope.environment],
        );
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const id of page) {
          const r = byId.get(id);
          if (r) out.push({ text: read(r.text), type: r.type });
        }
      }
      return out;
    },
    /**
     * Documents (any organization) with a stage pending whose row has not changed for `staleMs`:
     * the sweeper checks that each still has a live job. Oldest first.
     */
    async stalePending(staleMs: number, limit: number): Promise<Pick<DocumentRow, 'id' | 'version' | 'pipeline'>[]> {
      const { rows } = await db.query<Pick<DocumentRow, 'id' | 'version' | 'pipeline'>>(
        `SELECT id, version, pipeline FROM documents WHERE pipeline->>'current' IS NOT NULL AND status NOT IN ('failed', 'completed', 'needs_review')
           AND updated_at < now() - ($1::int * interval '1 millisecond') ORDER BY updated_at LIMIT $2`,
        [staleMs, limit],
      );
      return rows;
    },
    /** Documents (any organization) older than their project's retention_days. */
    async pastRetention(limit: number): Promise<DocumentRow[]> {
      const { rows } = await db.query<DocumentRow>(
        `SELECT ${LIST_COLUMNS} FROM documents
          WHERE EXISTS (SELECT 1 FROM projects p WHERE p.id = documents.project_id AND p.retention_days IS NOT NULL
                          AND documents.created_at < now() - (p.retention_days * interval '1 day'))
          LIMIT $1`,
        [limit],
      );
      return rows;
    },
    async listInProject(scope: Scope, projectId: string): Promise<DocumentRow[]> {
      const { rows } = await db.query<DocumentRow>(
        `SELECT ${LIST_COLUMNS} FROM documents WHERE project_id = $1 AND org_id = $2 AND environment = $3`,
        [projectId, scope.orgId, scope.environment],
      );
      return rows;
    },
  };
}

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
