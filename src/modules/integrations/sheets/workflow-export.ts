// The export_sheets workflow step: the row one document would add to one export target (all a
// dry run computes), and buffering it through the same document_exports queue the outbox
// consumer of document.extracted uses. The buffer's key (export, document, version) makes a repeated step a no-op.
import type { Queryable } from '../../../db/client.js';
import type { Scope } from '../../../lib/scope.js';
import type { DocumentExportsRepository, QueueOutcome } from './document-exports.repository.js';
import type { ExportsRepository } from './exports.repository.js';
import { buildRow, headerRow, type SheetCell } from './mapping/index.js';
import type { ExportProducer } from './producer.js';
import type { ExportRow, SnapshotContext } from './sheets.types.js';
import { snapshotDocument } from './snapshot.js';

type SnapshotSource = Parameters<typeof snapshotDocument>[0];

export interface WorkflowExportPlan {
  export: ExportRow;
  documentId: string;
  version: number;
  context: SnapshotContext;
  row: SheetCell[];
  header: SheetCell[];
}

export type PlanResult = { ok: true; plan: WorkflowExportPlan } | { ok: false; code: string; message: string };

export function createWorkflowExport(deps: {
  repo: ExportsRepository;
  rows: DocumentExportsRepository;
  producer: ExportProducer;
}) {
  return {
    /** `doc`: the document as the run sees it (in a dry run, with the changes earlier steps would make). */
    async plan(
      scope: Scope,
      exportId: string,
      doc: SnapshotSource & { id: string; version: number },
    ): Promise<PlanResult> {
      const exp = await deps.repo.get(scope, exportId);
      if (!exp) return { ok: false, code: 'EXPORT_NOT_FOUND', message: `Sheets export ${exportId} does not exist` };
      if (!exp.is_active)
        return { ok: false, code: 'EXPORT_INACTIVE', message: `Sheets export ${exportId} is not active` };
      const context = snapshotDocument(doc);
      return {
        ok: true,
        plan: {
          export: exp,
          documentId: doc.id,
          version: doc.version,
          context,
          row: buildRow(exp.columns, context),
          header: headerRow(exp.columns),
        },
      };
    },
    /** Buffers the planned row (inside the step's transaction). */
    queue(q: Queryable, p: WorkflowExportPlan): Promise<QueueOutcome> {
      return deps.rows.queue(q, p.export, p.documentId, p.version, p.context);
    },
    /** Makes sure a flush of the export runs soon (after the commit). */
    flush: (exportId: string) => deps.producer.scheduleFlush(exportId),
  };
}

export type WorkflowExport = ReturnType<typeof createWorkflowExport>;
