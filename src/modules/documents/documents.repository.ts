// A document's own rows: insert, reads, lists, updates, deletes and the queries of the domains
// that look documents up. The stage state machine (a stage's read and guarded commit) is in
// stage-state.repository.ts.
import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import { MAX_DOCUMENT_VALUES_BYTES } from '../../lib/limits.js';
import type { Scope } from '../../lib/scope.js';
import type { StoredLayout } from '../../pipeline/parse/index.js';
import type {
  Classification,
  DocumentRow,
  DocumentStatus,
  FieldValue,
  PipelineState,
  Stage,
} from './documents.types.js';
import { missingStageSql, type StageVersions } from './missing.js';
import { documentEventSql } from './document-event.js';
import { insertEventFromRowSql } from '../events/events.repository.js';
import { LIST_COLUMNS, ROW_COLUMNS, updateSql } from './document-sql.js';

/** Which documents a reprocess covers: a project's, a list, every one, or those that failed at a stage. */
export type ReprocessTarget = { projectId: string } | { documentIds: string[] } | { all: true } | { failedAt: Stage };

/**
 * What a reprocess batch walks: its target, documents created up to `until` (PostgreSQL's text of
 * the batch's creation time), and with `missing`, only those where one of its stages never ran
 * with the given versions.
 */
export interface ReprocessSelection {
  target: ReprocessTarget;
  until: string;
  missing?: { stages: Stage[]; versions: StageVersions };
}

function reprocessWhere(scope: Scope, sel: ReprocessSelection): { sql: string; params: unknown[] } {
  const { target, missing } = sel;
  const params: unknown[] = [scope.orgId, scope.environment, sel.until];
  let sql = 'org_id = $1 AND environment = $2 AND created_at <= $3::timestamptz';
  if ('projectId' in target) {
    params.push(target.projectId);
    sql += ` AND project_id = $${params.length}`;
  } else if ('documentIds' in target) {
    params.push(target.documentIds);
    sql += ` AND id = ANY($${params.length}::text[])`;
  } else if ('failedAt' in target) {
    params.push(target.failedAt);
    sql += ` AND status = 'failed' AND error->>'stage' = $${params.length}`;
  }
  if (missing) {
    const m = missingStageSql(missing.stages, missing.versions, params.length + 1);
    params.push(...m.params);
    sql += ` AND (${m.sql})`;
  }
  return { sql, params };
}

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
  /** Only documents with at least one field no person has confirmed yet (true), or only the others (false). */
  fields_unconfirmed?: boolean;
  page: number;
  per_page: number;
}

/** Confirmed documents' texts fetched per query when retraining (a long text can be megabytes). */
const CONFIRMED_TEXT_PAGE = 20;

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

export function createDocumentsRepository(db: Queryable) {
  return {
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
    /** The stored layout (positioned words) of a document of this scope; null when there is no such document. */
    async getLayout(
      scope: Scope,
      id: string,
    ): Promise<{ layout: StoredLayout | null; status: string; text_content: string | null } | null> {
      const { rows } = await db.query<{ layout: StoredLayout | null; status: string; text_content: string | null }>(
        'SELECT layout, status, text_content FROM documents WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    /** Workers read by id alone: the job came from a scoped request. */
    async getById(id: string, q: Queryable = db, forUpdate = false): Promise<DocumentRow | null> {
      const { rows } = await q.query<DocumentRow>(
        `SELECT ${ROW_COLUMNS} FROM documents WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
        [id],
      );
      return rows[0] ?? null;
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
      if (f.fields_unconfirmed !== undefined)
        where.push(
          `${f.fields_unconfirmed ? '' : 'NOT '}EXISTS (SELECT 1 FROM jsonb_each(COALESCE(fields, '{}'::jsonb)) AS f(k, v) WHERE jsonb_typeof(v) = 'object' AND COALESCE(v->>'confirmed', 'false') <> 'true')`,
        );
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
    /** What starting a run needs of each document, rows locked (a walker's page). */
    async lockForRuns(
      q: Queryable,
      ids: string[],
    ): Promise<Pick<DocumentRow, 'id' | 'org_id' | 'environment' | 'project_id' | 'parsed_at' | 'version'>[]> {
      const { rows } = await q.query<DocumentRow>(
        `SELECT id, org_id, environment, project_id, parsed_at, version FROM documents WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
        [ids],
      );
      return rows;
    },
    /** Starts the runs of many documents in one statement: each gets a new version and its pipeline. */
    async startRuns(
      q: Queryable,
      runs: { id: string; pipeline: DocumentRow['pipeline'] }[],
    ): Promise<Pick<DocumentRow, 'id' | 'version' | 'pipeline'>[]> {
      if (runs.length === 0) return [];
      const { rows } = await q.query<Pick<DocumentRow, 'id' | 'version' | 'pipeline'>>(
        `UPDATE documents d SET version = d.version + 1, status = 'processing', error = NULL, completed_at = NULL,
           pipeline = r.pipeline, updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS r(id text, pipeline jsonb)
         WHERE d.id = r.id RETURNING d.id, d.version, d.pipeline`,
        [JSON.stringify(runs)],
      );
      return rows;
    },
    /** How many documents a reprocess request names (counted once, when the batch is made). */
    async countForReprocess(scope: Scope, sel: ReprocessSelection, q: Queryable = db): Promise<number> {
      const w = reprocessWhere(scope, sel);
      const { rows } = await q.query<{ n: number }>(`SELECT count(*) AS n FROM documents WHERE ${w.sql}`, w.params);
      return Number(rows[0].n);
    },
    /**
     * The next page of a reprocess walk: at most `limit` documents after the keyset cursor, oldest
     * first. Keyset, never OFFSET: each page costs the same however far the walk is. `at` is the
     * cursor's timestamp as PostgreSQL's text (a JavaScript Date would drop the microseconds and
     * repeat or skip documents created in the same millisecond).
     */
    async reprocessPage(
      scope: Scope,
      sel: ReprocessSelection,
      after: { at: string; id: string } | null,
      limit: number,
      q: Queryable = db,
    ): Promise<{ id: string; at: string }[]> {
      const w = reprocessWhere(scope, sel);
      let where = w.sql;
      if (after) {
        w.params.push(after.at, after.id);
        where += ` AND (created_at, id) > ($${w.params.length - 1}::timestamptz, $${w.params.length})`;
      }
      w.params.push(limit);
      const { rows } = await q.query<{ id: string; at: string }>(
        `SELECT id, created_at::text AS at FROM documents WHERE ${where} ORDER BY created_at, id LIMIT $${w.params.length}`,
        w.params,
      );
      return rows;
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
