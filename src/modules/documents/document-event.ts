// The `data` of every document.* event, defined once. Most events are written in the same
// statement as the change that causes them (a stage commit, an intake), where the payload must
// show the row as written: those build it in SQL from the row. Events written after a read
// (a deletion, a manual change) build it in TypeScript. Both come from the one field list below.
import type { DocumentRow } from './documents.types.js';

/** Payload key → document column, copied as they are. */
const COPIED = {
  documentId: 'id',
  filename: 'filename',
  status: 'status',
  projectId: 'project_id',
  source: 'source',
  sourceMetadata: 'source_metadata',
  version: 'version',
} as const satisfies Record<string, keyof DocumentRow>;

type EventSource = Pick<DocumentRow, (typeof COPIED)[keyof typeof COPIED] | 'classification'>;

/** The columns a row must carry for {@link documentEventSql}. */
export const DOCUMENT_EVENT_COLUMNS: readonly (keyof DocumentRow)[] = [...Object.values(COPIED), 'classification'];

/** The payload built from a row in hand; `extra` keys are added (and win). */
export function documentEventData(d: EventSource, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(COPIED)) out[key] = d[column];
  // Only the verdict: the distribution and the method stay on the document.
  out.classification = d.classification
    ? { type: d.classification.type, confidence: d.classification.confidence }
    : null;
  return { ...out, ...extra };
}

/**
 * The same payload as a SQL expression (jsonb) over the row alias `row`, with `extra` (a SQL
 * jsonb expression, e.g. a parameter) merged over it.
 */
export function documentEventSql(row: string, extra?: string): string {
  const copied = Object.entries(COPIED)
    .map(([key, column]) => `'${key}', ${row}.${column}`)
    .join(', ');
  const classification = `CASE WHEN ${row}.classification IS NULL THEN NULL
    ELSE jsonb_build_object('type', ${row}.classification->'type', 'confidence', ${row}.classification->'confidence') END`;
  const base = `jsonb_build_object(${copied}, 'classification', ${classification})`;
  return extra ? `(${base} || ${extra})` : base;
}
