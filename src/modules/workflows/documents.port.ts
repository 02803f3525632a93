// What workflow steps read and write on documents. The writes run inside the step's transaction
// (the step record and the change commit together, so a resumed run never applies one twice) and
// return the row as written. Fields set by a workflow are marked `method: workflow`.
import type { Queryable } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';
import { LIST_COLUMNS, type DocumentsRepository } from '../documents/documents.repository.js';
import type { DocumentRow, FieldValue } from '../documents/documents.types.js';

export function createWorkflowDocuments(docs: Pick<DocumentsRepository, 'get' | 'getForStage'>) {
  const update = async (q: Queryable, id: string, set: string, params: unknown[]): Promise<DocumentRow | null> => {
    const { rows } = await q.query<DocumentRow>(`UPDATE documents SET ${set}, updated_at = now() WHERE id = $1 RETURNING ${LIST_COLUMNS}`, [id, ...params]);
    return rows[0] ?? null;
  };
  return {
    get: (scope: Scope, id: string, q?: Queryable) => docs.get(scope, id, q),
    /** The document as the classify / extract stage reads it, without marking anything. */
    forCompute: (id: string, stage: 'classify' | 'extract') => docs.getForStage(id, stage, { mark: false }),

    /** Merges fields (as `method: workflow`) and metadata into the document. */
    setFields(q: Queryable, id: string, fields: Record<string, unknown>, metadata: Record<string, unknown>) {
      const f: Record<string, FieldValue> = {};
      for (const [k, value] of Object.entries(fields)) f[k] = { value, confidence: 1, method: 'workflow' };
      return update(q, id, `fields = coalesce(fields, '{}'::jsonb) || $2::jsonb, metadata = coalesce(metadata, '{}'::jsonb) || $3::jsonb`,
        [JSON.stringify(f), JSON.stringify(metadata)]);
    },
    moveToProject: (q: Queryable, id: string, projectId: string) => update(q, id, 'project_id = $2', [projectId]),
    markForReview: (q: Queryable, id: string, reason: string | null) =>
      update(q, id, `status = 'needs_review', metadata = coalesce(metadata, '{}'::jsonb) || jsonb_build_object('review_reason', $2::text)`, [reason]),
    /** Writes the columns a classify or extract computation produced (not the pipeline state). */
    writeStageColumns(q: Queryable, id: string, cols: Record<string, unknown>) {
      const keys = Object.keys(cols);
      const set = keys.map((k, i) => `${k} = $${i + 2}`).join(', ');
      const vals = keys.map((k) => {
        const v = cols[k];
        return v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v;
      });
      return update(q, id, set, vals);
    },
  };
}

export type WorkflowDocuments = ReturnType<typeof createWorkflowDocuments>;
