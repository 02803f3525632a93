// Outbox consumer: a document.extracted event buffers that document version for every active
// after-extraction export of its project, in the relay's transaction, so the buffered row commits
// with the event's relayed mark (a crash loses neither). The flushes are scheduled after commit;
// one lost in between is found by the sweep (buffered rows with no flush). An event relayed again
// adds nothing: rows are keyed by (export, document, version).
import type { Queryable } from '../../../db/client.js';
import type { DocumentsRepository } from '../../documents/documents.repository.js';
import type { DocumentRow } from '../../documents/documents.types.js';
import type { EventRow } from '../../events/events.types.js';
import type { AfterCommit, OutboxConsumer } from '../../events/relay.js';
import type { DocumentExportsRepository } from './document-exports.repository.js';
import type { ExportsRepository } from './exports.repository.js';
import type { ExportProducer } from './producer.js';
import { snapshotDocument } from './snapshot.js';

export function createSheetsConsumer(deps: {
  exports: Pick<ExportsRepository, 'projectsExportingExtractions'>;
  rows: Pick<DocumentExportsRepository, 'queueForProjects'>;
  documents: Pick<DocumentsRepository, 'get'>;
  producer: Pick<ExportProducer, 'scheduleFlush'>;
}): OutboxConsumer {
  return {
    async fanOut(q: Queryable, events: readonly EventRow[]): Promise<AfterCommit | void> {
      const extracted = events.filter((e) => e.type === 'document.extracted');
      if (extracted.length === 0) return;
      const projects = await deps.exports.projectsExportingExtractions(q, [
        ...new Set(extracted.map((e) => String(e.data.projectId))),
      ]);
      if (projects.size === 0) return;
      const docs: DocumentRow[] = [];
      for (const e of extracted) {
        if (!projects.has(String(e.data.projectId))) continue;
        const doc = await deps.documents.get(
          { orgId: e.org_id, environment: e.environment },
          String(e.data.documentId),
          q,
        );
        // Deleted, or reprocessed since: a newer version is exported after its own extraction.
        if (doc && doc.version === e.data.version) docs.push(doc);
      }
      if (docs.length === 0) return;
      const queued = await deps.rows.queueForProjects(
        q,
        docs.map((d) => ({
          projectId: d.project_id,
          documentId: d.id,
          version: d.version,
          context: snapshotDocument(d),
        })),
      );
      const exportIds = [...new Set(queued.flat())];
      if (exportIds.length === 0) return;
      return async () => {
        for (const id of exportIds) await deps.producer.scheduleFlush(id);
      };
    },
  };
}
