// extraction_export: one row per document with the chosen extracted fields, their confidence
// and links. It streams: pages of rows are read in (created_at, id) order through the index
// (keyset paging, so no transaction or connection is held between pages and PGlite's single
// connection keeps serving others), the database renders each row as a JSON array, and the
// text goes straight to the compressed result file. A page is bounded in bytes as well as rows:
// it ends where the documents' fields add up to EXPORT_PAGE_BYTES (counted in the database,
// before any row is rendered), so documents carrying hundreds of KiB of fields are read a dozen
// at a time while small ones still go 5000 at once.
import { MAX_DOCUMENT_VALUE_BYTES } from '../../../lib/limits.js';
import type { ColumnSpec } from '../reports.types.js';
import { documentScope, isoSql, Params, type ReportContext, type ReportQuery } from './context.js';

/** Fields found in the documents when the report names none (at most this many, by name). */
const MAX_DISCOVERED_FIELDS = 200;
/** Arguments per json_build_array call (PostgreSQL allows 100 per function call). */
const ARGS_PER_CALL = 90;

const BASE_COLUMNS: ColumnSpec[] = [
  { key: 'document_id', label: 'Document', type: 'string' },
  { key: 'filename', label: 'File name', type: 'string' },
  { key: 'project_id', label: 'Project', type: 'string' },
  { key: 'project_name', label: 'Project name', type: 'string' },
  { key: 'status', label: 'Status', type: 'string' },
  { key: 'source', label: 'Source', type: 'string' },
  { key: 'classification_type', label: 'Type', type: 'string' },
  { key: 'classification_confidence', label: 'Type confidence', type: 'number' },
  { key: 'uploaded_at', label: 'Uploaded', type: 'datetime' },
  { key: 'extracted_at', label: 'Extracted', type: 'datetime' },
];
const LINK_COLUMNS: ColumnSpec[] = [
  { key: 'document_url', label: 'Document link', type: 'string' },
  { key: 'file_url', label: 'File link', type: 'string' },
];

async function discoverFields(ctx: ReportContext): Promise<string[]> {
  const p = new Params();
  const { rows } = await ctx.db.query<{ k: string }>(
    `SELECT k FROM (SELECT DISTINCT jsonb_object_keys(d.fields) AS k FROM documents d
       WHERE ${documentScope(ctx, p)} AND jsonb_typeof(d.fields) = 'object') x
     ORDER BY k LIMIT ${MAX_DISCOVERED_FIELDS}`,
    p.values,
  );
  return rows.map((r) => r.k);
}

/** Column keys for the fields: the field's name, or field_<name> where that is taken. */
export function fieldColumns(fields: string[]): { field: string; value: ColumnSpec; confidence: ColumnSpec }[] {
  const taken = new Set([...BASE_COLUMNS, ...LINK_COLUMNS].map((c) => c.key));
  const unique = (k: string) => {
    let key = taken.has(k) ? `field_${k}` : k;
    for (let i = 2; taken.has(key); i++) key = `field_${k}_${i}`;
    taken.add(key);
    return key;
  };
  return fields.map((f) => {
    const value = unique(f);
    return {
      field: f,
      value: { key: value, label: f, type: 'json' },
      confidence: { key: unique(`${value}_confidence`), label: `${f} confidence`, type: 'number' },
    };
  });
}

/** Several json_build_array calls joined into one JSON array's text. */
function jsonArraySql(exprs: string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < exprs.length; i += ARGS_PER_CALL)
    parts.push(`json_build_array(${exprs.slice(i, i + ARGS_PER_CALL).join(', ')})::text`);
  if (parts.length === 1) return parts[0];
  return parts
    .map((part, i) => {
      if (i === 0) return `left(${part}, -1)`;
      if (i === parts.length - 1) return `right(${part}, -1)`;
      return `left(right(${part}, -1), -1)`;
    })
    .join(` || ',' || `);
}

/** Bytes of fields (plus ROW_OVERHEAD_BYTES a row) read per page; a page has at least one row. */
export const EXPORT_PAGE_BYTES = 4 * 1024 * 1024;
/** What a row costs besides its fields (ids, names, dates, links). */
const ROW_OVERHEAD_BYTES = 512;
/**
 * A field value over this (written before the bound of src/lib/limits.ts existed; the factor
 * allows for jsonb's spacing) is exported as a note instead, so no row is unbounded.
 */
const VALUE_TEXT_LIMIT = 2 * MAX_DOCUMENT_VALUE_BYTES;
export const OVERSIZED_VALUE = `[value over ${MAX_DOCUMENT_VALUE_BYTES} bytes left out]`;

type PageRow = { c_ts: string; c_id: string; line: string };

export const extractionExport: ReportQuery = async (ctx) => {
  const fields = ctx.filters.fields ?? (await discoverFields(ctx));
  const fcols = fieldColumns(fields);
  await ctx.writer.section({
    name: 'documents',
    title: 'Extracted fields',
    columns: [...BASE_COLUMNS, ...fcols.flatMap((f) => [f.value, f.confidence]), ...LINK_COLUMNS],
  });

  const p = new Params();
  const where = documentScope(ctx, p);
  const oversized = p.add(OVERSIZED_VALUE);
  const exprs = [
    'd.id',
    'd.filename',
    'd.project_id',
    'p.name',
    'd.status',
    'd.source',
    `d.classification->'type'`,
    `d.classification->'confidence'`,
    isoSql('d.created_at'),
    isoSql('d.extracted_at'),
    ...fcols.flatMap((f) => {
      const k = p.add(f.field);
      const value = `d.fields->${k}::text->'value'`;
      return [
        `CASE WHEN coalesce(octet_length((${value})::text), 0) <= ${VALUE_TEXT_LIMIT} THEN ${value} ELSE to_jsonb(${oversized}::text) END`,
        `d.fields->${k}::text->'confidence'`,
      ];
    }),
    `'/api/v1/documents/' || d.id`,
    `'/api/v1/documents/' || d.id || '/content'`,
  ];
  const line = jsonArraySql(exprs);
  const limit = p.add(ctx.batchSize ?? 5000);
  const budget = p.add(EXPORT_PAGE_BYTES);
  // The inner query picks the page (keyset, at most `limit` rows) and adds up its rows' bytes;
  // the outer one renders only the rows within the budget (always the first).
  const pageSql = (keyset: string) => `SELECT d.created_at::text AS c_ts, d.id AS c_id, ${line} AS line
    FROM (
      SELECT d.id, d.filename, d.project_id, d.status, d.source, d.classification, d.created_at, d.extracted_at, d.fields,
        row_number() OVER w AS rn,
        sum(octet_length(coalesce(d.fields::text, '')) + ${ROW_OVERHEAD_BYTES}) OVER w AS upto
      FROM documents d WHERE ${where}${keyset}
      WINDOW w AS (ORDER BY d.created_at, d.id ROWS UNBOUNDED PRECEDING)
      ORDER BY d.created_at, d.id LIMIT ${limit}
    ) d LEFT JOIN projects p ON p.id = d.project_id
    WHERE d.rn = 1 OR d.upto <= ${budget}::bigint
    ORDER BY d.created_at, d.id`;
  const first = pageSql('');
  const ts = `$${p.values.length + 1}`;
  const id = `$${p.values.length + 2}`;
  const next = pageSql(
    ` AND d.created_at >= ${ts}::timestamptz AND (d.created_at, d.id) > (${ts}::timestamptz, ${id}::text)`,
  );

  let cursor: { ts: string; id: string } | null = null;
  let documents = 0;
  for (;;) {
    const page: { rows: PageRow[] } = await ctx.db.query<PageRow>(
      cursor ? next : first,
      cursor ? [...p.values, cursor.ts, cursor.id] : p.values,
    );
    const rows = page.rows;
    if (rows.length === 0) break;
    await ctx.writer.rawRows(rows.map((r) => r.line));
    documents += rows.length;
    const last: PageRow = rows[rows.length - 1];
    // A page cut short by the byte budget is not the end, so only an empty page ends the loop.
    cursor = { ts: last.c_ts, id: last.c_id };
  }
  return { documents, fields };
};
