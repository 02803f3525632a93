// What workflow steps read and write on documents, through the documents repository. The
// writes run inside the step's transaction (the step record and the change commit together, so a
// resumed run never applies one twice) and return the row as written. Fields set by a workflow
// are marked `method: workflow`.
import type { Queryable } from '../../db/client.js';
import { documentValuesProblem } from '../../lib/limits.js';
import type { Scope } from '../../lib/scope.js';
import type { DocumentsRepository } from '../documents/documents.repository.js';
import type { StageStateRepository } from '../documents/stage-state.repository.js';
import type { DocumentRow, FieldValue } from '../documents/documents.types.js';
import { StepError } from './nodes/types.js';

/**
 * The nodes check the bound on the run's view of the document; this checks the row as merged,
 * inside the step's transaction, so concurrent writers cannot add up past it (the throw rolls
 * the write back and fails the step).
 */
function withinBound(row: DocumentRow | null, node: string): DocumentRow | null {
  const p = row && documentValuesProblem(row.fields, row.metadata);
  if (p) throw new StepError('DOCUMENT_TOO_LARGE', `${node}: ${p.field} ${p.message}`);
  return row;
}

export function createWorkflowDocuments(
  docs: Pick<DocumentsRepository, 'get' | 'applyWorkflowChange' | 'update'>,
  stages: Pick<StageStateRepository, 'getForStage'>,
) {
  return {
    get: (scope: Scope, id: string, q?: Queryable) => docs.get(scope, id, q),
    /** The document as the classify / extract stage reads it, without marking anything. */
    forCompute: (id: string, stage: 'classify' | 'extract') => stages.getForStage(id, stage, { mark: false }),
    /** Merges fields (as `method: workflow`) and metadata into the document. */
    setFields(q: Queryable, id: string, fields: Record<string, unknown>, metadata: Record<string, unknown>) {
      const f: Record<string, FieldValue> = {};
      for (const [k, value] of Object.entries(fields)) f[k] = { value, confidence: 1, method: 'workflow' };
      return docs.applyWorkflowChange(q, id, { fields: f, metadata }).then((row) => withinBound(row, 'set_fields'));
    },
    moveToProject: (q: Queryable, id: string, projectId: string) => docs.applyWorkflowChange(q, id, { projectId }),
    markForReview: (q: Queryable, id: string, reason: string | null) =>
      docs
        .applyWorkflowChange(q, id, { status: 'needs_review', metadata: { review_reason: reason } })
        .then((row) => withinBound(row, 'mark_for_review')),
    /** Writes the columns a classify or extract computation produced (not the pipeline state). */
    writeStageColumns: (q: Queryable, id: string, cols: Record<string, unknown>) => docs.update(q, id, cols),
  };
}

export type WorkflowDocuments = ReturnType<typeof createWorkflowDocuments>;
