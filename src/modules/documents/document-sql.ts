// SQL pieces both document repositories build on: which columns a read returns and the UPDATE
// statement (documents.repository.ts for the document's CRUD, stage-state.repository.ts for the
// stage state machine).
import { searchConfigFor, searchVectorSql } from '../../lib/text-search.js';
import type { Stage } from './documents.types.js';

// Columns for lists: everything but the (possibly megabytes of) text and the vector.
export const LIST_COLUMNS = `id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key, source,
  source_metadata, metadata, status, error, page_count, language, duplicate_of, classification, fields, version, pipeline, uploaded_by,
  parsed_at, embedded_at, classified_at, extracted_at, exported_at, completed_at, embedding_model, classifier_version,
  template_id, template_version, confirmed, created_at, updated_at, NULL::text AS text_content`;

// Whole rows for workers: everything but the tsvector, which nothing reads back (it is only
// searched) and which would otherwise be shipped and parsed with every read.
export const ROW_COLUMNS = LIST_COLUMNS.replace(
  'NULL::text AS text_content',
  'text_content, embedding, parser_version, extractor_version',
);

/** Optional parts of an update. */
export interface UpdateOptions {
  /** Also refresh the full-text index from this text (the one the update stores). */
  searchText?: string;
  /** The text's language (stems in that language are indexed too; unknown: words only). */
  searchLanguage?: string | null;
  /** Only update while the document is still at this version and stage and not failed. */
  guard?: { version: number; stage: Stage };
}

/** An UPDATE … RETURNING statement of the given columns and its parameters ($1 is the id). */
export function updateSql(
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
