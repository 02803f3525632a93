import type { Db, Queryable } from '../../../db/client.js';
import { errors } from '../../../lib/errors.js';
import type { Scope } from '../../../lib/scope.js';
import type { DocumentsRepository } from '../../documents/documents.repository.js';
import type { DocumentRow } from '../../documents/documents.types.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { ConnectionsRepository } from './connections.repository.js';
import type { DocumentExportsRepository, QueueOutcome } from './document-exports.repository.js';
import type { ExportConfig, ExportsRepository } from './exports.repository.js';
import type { ExportProducer } from './producer.js';
import {
  presentDocumentExport,
  presentExport,
  type ExportInput,
  type ExportRow,
  type ListQuery,
  type SnapshotContext,
  type UpdateExportInput,
} from './sheets.types.js';
import { createCoalescer } from './coalesce.js';
import { snapshotDocument } from './snapshot.js';
import { validateColumns } from './validation.js';

export interface ExportsServiceDeps {
  db: Db;
  repo: ExportsRepository;
  rows: DocumentExportsRepository;
  connections: ConnectionsRepository;
  projects: Pick<ProjectsRepository, 'get'>;
  /** Documents are read without their text and vector. */
  documents: Pick<DocumentsRepository, 'get' | 'getSummaryById' | 'exists'>;
  producer: ExportProducer;
}

type SnapshotDoc = Parameters<typeof snapshotDocument>[0] & {
  org_id: string;
  environment: string;
  pipeline: DocumentRow['pipeline'];
};

export function createExportsService(deps: ExportsServiceDeps) {
  const mustGet = async (scope: Scope, id: string) => {
    const e = await deps.repo.get(scope, id);
    if (!e) throw errors.notFound('Export');
    return e;
  };

  /** Checks the references and the mapping of a full configuration (after merging an update). */
  async function checkConfig(scope: Scope, c: ExportConfig): Promise<void> {
    if (!(await deps.projects.get(scope, c.project_id))) throw errors.invalidField('project_id', 'no such project');
    if (!(await deps.connections.get(scope, c.connection_id)))
      throw errors.invalidField('connection_id', 'no such connection');
    validateColumns(c.columns, c.mode);
  }

  async function queueFor(q: Queryable, exps: ExportRow[], doc: SnapshotDoc) {
    const context = snapshotDocument(doc);
    const out: { export: ExportRow; outcome: QueueOutcome }[] = [];
    for (const e of exps) out.push({ export: e, outcome: await deps.rows.queue(q, e, doc.id, doc.version, context) });
    return out;
  }

  async function flushQueued(results: { export: ExportRow; outcome: QueueOutcome }[]) {
    for (const r of results)
      if (r.outcome === 'queued' || r.outcome === 'requeued') await deps.producer.scheduleFlush(r.export.id);
  }

  // Concurrent `document` jobs share one INSERT (see coalesce.ts).
  const buffer = createCoalescer(
    (items: { projectId: string; documentId: string; version: number; context: SnapshotContext }[]) =>
      deps.rows.queueForProjects(deps.db, items),
  );

  async function bufferExtracted(doc: Parameters<typeof snapshotDocument>[0]): Promise<number> {
    const queued = await buffer({
      projectId: doc.project_id,
      documentId: doc.id,
      version: doc.version,
      context: snapshotDocument(doc),
    });
    for (const id of queued) await deps.producer.scheduleFlush(id);
    return queued.length;
  }

  return {
    async create(scope: Scope, input: ExportInput, createdBy: string | null) {
      const config: ExportConfig = {
        project_id: input.project_id,
        connection_id: input.connection_id,
        spreadsheet_id: input.spreadsheet_id,
        sheet_name: input.sheet_name,
        columns: input.columns.map((c) => ({ header: c.header, field: c.field })),
        mode: input.mode ?? 'append',
        write_header: input.write_header ?? true,
        trigger: input.trigger ?? 'after_extraction',
        is_active: input.is_active ?? true,
      };
      await checkConfig(scope, config);
      return presentExport(await deps.repo.insert(scope, config, createdBy));
    },
    async list(scope: Scope, query: ListQuery) {
      const { rows, total } = await deps.repo.list(scope, query);
      return { items: rows.map((e) => presentExport(e)), total };
    },
    async get(scope: Scope, id: string) {
      const e = await mustGet(scope, id);
      return presentExport(e, { rows: await deps.rows.countByStatus(e.id) });
    },
    /** Changes the configuration and clears the error state; buffered rows are then written. */
    async update(scope: Scope, id: string, patch: UpdateExportInput) {
      const current = await mustGet(scope, id);
      const merged: ExportConfig = { ...current, ...patch };
      if (patch.columns) merged.columns = patch.columns.map((c) => ({ header: c.header, field: c.field }));
      await checkConfig(scope, merged);
      const changes: Partial<ExportConfig> = {};
      for (const k of Object.keys(patch) as (keyof ExportConfig)[]) (changes as Record<string, unknown>)[k] = merged[k];
      const updated = await deps.repo.updateConfig(id, changes);
      if (updated.is_active && (await deps.rows.hasQueued(id))) await deps.producer.scheduleFlush(id);
      return presentExport(updated, { rows: await deps.rows.countByStatus(id) });
    },
    async remove(scope: Scope, id: string) {
      const e = await deps.repo.delete(scope, id);
      if (!e) throw errors.notFound('Export');
      return { id, deleted: true };
    },

    /** POST /documents/{id}/export: buffers the current version for every active export of its project, or one. */
    async exportDocument(scope: Scope, documentId: string, exportId?: string) {
      const doc = await deps.documents.get(scope, documentId);
      if (!doc) throw errors.notFound('Document');
      if (doc.pipeline?.current)
        throw errors.conflict('The document is being processed; export it when its run has finished');
      let targets: ExportRow[];
      if (exportId) {
        const e = await mustGet(scope, exportId);
        if (e.project_id !== doc.project_id)
          throw errors.invalidField('export_id', 'the export belongs to another project');
        if (!e.is_active) throw errors.conflict('The export is not active');
        targets = [e];
      } else {
        targets = await deps.repo.activeForProject(doc.project_id);
        if (targets.length === 0) throw errors.conflict('The document’s project has no active Sheets export');
      }
      const results = await deps.db.tx((q) => queueFor(q, targets, doc));
      await flushQueued(results);
      return {
        document_id: doc.id,
        version: doc.version,
        exports: results.map((r) => ({
          export_id: r.export.id,
          outcome: r.outcome,
          export_status: r.export.status,
          last_error: r.export.last_error,
        })),
      };
    },

    /**
     * Buffers an extracted version for the project's after-extraction exports (one statement)
     * and makes sure their flushes are queued; returns how many exports got a row. The outbox
     * consumer (consumer.ts) does the same for document.extracted events, in the relay's transaction.
     */
    bufferExtracted,

    /** The `document` job (ExportProducer.addDocuments): like bufferExtracted, from the stored document. */
    async queueExtracted(documentId: string, version: number): Promise<number> {
      const doc = await deps.documents.getSummaryById(documentId);
      // Deleted, or reprocessed since: the newer version is exported after its own extraction.
      if (!doc || doc.version !== version) return 0;
      return bufferExtracted(doc);
    },

    /** Export status per target for one document (GET /documents/{id}/exports). */
    async forDocument(scope: Scope, documentId: string, opts: { mustExist?: boolean } = {}) {
      if (opts.mustExist) {
        if (!(await deps.documents.exists(scope, documentId))) throw errors.notFound('Document');
      }
      return (await deps.rows.forDocument(scope, documentId)).map(presentDocumentExport);
    },
  };
}

export type ExportsService = ReturnType<typeof createExportsService>;
