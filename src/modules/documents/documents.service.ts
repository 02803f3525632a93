import type { Db, Queryable } from '../../db/client.js';
import { errors } from '../../lib/errors.js';
import { assertDocumentValues } from '../../lib/limits.js';
import { parsePosition } from '../../pipeline/extract/index.js';
import { pageWords, ParseError, type NormalizedImage } from '../../pipeline/parse/index.js';
import type { Logger } from '../../lib/logger.js';
import { queueWalk } from '../../jobs/maintenance.js';
import type { Queues } from '../../jobs/queues.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Scope } from '../../lib/scope.js';
import type { EventEmitter } from '../events/emitter.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { BatchesRepository } from './batches.repository.js';
import type { DocumentFilters, DocumentsRepository, ReprocessTarget } from './documents.repository.js';
import { documentEventData } from './document-event.js';
import {
  presentDocument,
  presentListItem,
  STAGES,
  type DocumentRow,
  type FieldValue,
  type Stage,
} from './documents.types.js';
import { resolveVersions, type CurrentVersions } from './missing.js';
import { selectionOf, type ReprocessWalker } from './reprocess-walker.js';
import type { RunStarter } from './runs.js';

/** Bumped when previews of the same file change (the ETag carries it). */
const PREVIEW_VERSION = 'p1';

export interface PatchDocumentInput {
  classification?: { type: string };
  fields?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  filename?: string;
}

export function createDocumentsService(deps: {
  db: Db;
  docs: DocumentsRepository;
  projects: ProjectsRepository;
  batches: BatchesRepository;
  runs: RunStarter;
  walker: Pick<ReprocessWalker, 'page'>;
  blobs: BlobStore;
  queues: Queues;
  logger: Logger;
  versions: CurrentVersions;
  events: EventEmitter;
  /** A person confirmed a document's type (the organization's classifier can be retrained). */
  onConfirmed?: (scope: Scope) => void;
  /** Turns an image upright into a PNG in a memory-limited process (see normalizeImage). */
  previewImage: (bytes: Buffer) => Promise<NormalizedImage>;
}) {
  const mustGet = async (scope: Scope, id: string, q?: Queryable) => {
    const d = await deps.docs.get(scope, id, q);
    if (!d) throw errors.notFound('Document');
    return d;
  };

  async function deleteOne(q: Queryable, doc: DocumentRow): Promise<void> {
    await deps.docs.delete(q, doc.id);
    await deps.events.insert(q, {
      orgId: doc.org_id,
      environment: doc.environment,
      type: 'document.deleted',
      data: documentEventData({ ...doc, status: 'deleted' as DocumentRow['status'] }),
    });
  }

  async function removeFileIfUnused(key: string): Promise<void> {
    await deps.blobs.removeIfUnused(key, (keys) => deps.docs.storageKeysInUse(keys));
  }

  return {
    async get(scope: Scope, id: string) {
      return presentDocument(await mustGet(scope, id));
    },
    async list(scope: Scope, f: DocumentFilters) {
      const { rows, total } = await deps.docs.list(scope, f);
      return { items: rows.map(presentListItem), total };
    },
    async content(scope: Scope, id: string) {
      const d = await mustGet(scope, id);
      return {
        stream: deps.blobs.stream(d.storage_key),
        mimeType: d.mime_type,
        filename: d.filename,
        size: d.size_bytes,
      };
    },
    async text(scope: Scope, id: string) {
      const t = await deps.docs.getText(scope, id);
      if (!t) throw errors.notFound('Document');
      if (t.text === null) throw errors.conflict(`Document has no text yet (status ${t.status})`);
      return t.text;
    },

    /**
     * An image document's first page as an upright PNG, in the orientation OCR read it (TIFFs,
     * which browsers cannot show, and JPEGs turned by EXIF). Other types have no preview.
     */
    async preview(scope: Scope, id: string) {
      const d = await mustGet(scope, id);
      if (!d.mime_type.startsWith('image/') || d.mime_type === 'image/svg+xml')
        throw errors.conflict(`Previews exist for images; this document is ${d.mime_type}`);
      const bytes = await deps.blobs.read(d.storage_key);
      try {
        return { png: (await deps.previewImage(bytes)).png, etag: `"${d.storage_key}-${PREVIEW_VERSION}"` };
      } catch (err) {
        if (err instanceof ParseError) throw errors.unprocessable(`The image cannot be previewed: ${err.message}`);
        throw err;
      }
    },

    /** The positioned words of the document's pages (text layer or OCR), for clicking on the page. */
    async words(scope: Scope, id: string) {
      const d = await deps.docs.getLayout(scope, id);
      if (!d) throw errors.notFound('Document');
      if (d.text_content === null) throw errors.conflict(`Document has no text yet (status ${d.status})`);
      return pageWords(d.layout);
    },

    /**
     * A person corrects the classification or fields. Corrections are marked confirmed, feed the
     * organization's classifier, and a document waiting in needs_review continues its pipeline.
     */
    async patch(scope: Scope, id: string, input: PatchDocumentInput) {
      let resume: DocumentRow | null = null;
      const result = await deps.db.tx(async (q) => {
        const doc = await mustGet(scope, id, q);
        const cols: Record<string, unknown> = {};
        if (input.filename) cols.filename = input.filename;
        if (input.metadata) cols.metadata = { ...doc.metadata, ...input.metadata };
        if (input.fields) {
          const fields: Record<string, FieldValue> = { ...(doc.fields ?? {}) };
          for (const [name, raw] of Object.entries(input.fields)) {
            if (raw === null) {
              delete fields[name];
              continue;
            }
            const wrapped = raw !== null && typeof raw === 'object' && 'value' in (raw as object);
            const value = wrapped ? (raw as { value: unknown }).value : raw;
            // A position comes with a value picked on the page; accepting a value as it was keeps
            // the place it was read from.
            const given = wrapped ? (raw as { position?: unknown }).position : undefined;
            const position = given === undefined ? undefined : parsePosition(given);
            if (given !== undefined && position === null)
              throw errors.validation('Invalid position', [
                {
                  field: `fields.${name}.position`,
                  message: 'must be {page, bbox: [x0, y0, x1, y1], unit: pt|px} or {start, end}',
                },
              ]);
            const prior = doc.fields?.[name];
            const kept =
              position ??
              (prior?.position && JSON.stringify(prior.value) === JSON.stringify(value) ? prior.position : undefined);
            fields[name] = {
              value,
              confidence: 1,
              method: 'manual',
              confirmed: true,
              ...(kept ? { position: kept } : {}),
            };
          }
          cols.fields = fields;
        }
        // Checked on the document as it would be, before anything is written.
        if (input.fields || input.metadata)
          assertDocumentValues(
            (cols.fields ?? doc.fields) as Record<string, FieldValue> | null,
            (cols.metadata ?? doc.metadata) as Record<string, unknown>,
          );
        let classified = false;
        if (input.classification) {
          // What the machine had said (and whether it sent the document to review) is kept with
          // the correction: classification-quality reports count predicted → confirmed.
          const prior = doc.classification;
          const predicted =
            prior?.predicted ??
            (prior && prior.method !== 'manual'
              ? {
                  type: prior.type,
                  confidence: prior.confidence,
                  method: prior.method,
                  needs_review: doc.status === 'needs_review',
                }
              : undefined);
          cols.classification = {
            type: input.classification.type,
            confidence: 1,
            method: 'manual',
            confirmed: true,
            ...(predicted ? { predicted } : {}),
          };
          cols.classified_at = new Date();
          classified = true;
        }
        if (Object.keys(cols).length === 0) return doc;
        let updated = await deps.docs.update(q, doc.id, cols);
        if (classified) {
          if (doc.status === 'needs_review') {
            const project = await deps.projects.get(scope, doc.project_id, q);
            if (project?.auto_extract) {
              updated = await deps.docs.update(q, doc.id, {
                status: 'processing',
                version: doc.version + 1,
                pipeline: { ...doc.pipeline, stages: ['extract'], current: 'extract', batch_id: null },
              });
              resume = updated;
            } else {
              updated = await deps.docs.update(q, doc.id, {
                status: 'completed',
                completed_at: new Date(),
                pipeline: { ...doc.pipeline, current: null },
              });
            }
          }
          await deps.events.insert(q, {
            orgId: doc.org_id,
            environment: doc.environment,
            type: 'document.classified',
            data: documentEventData(updated, { method: 'manual' }),
          });
        }
        return updated;
      });
      if (input.classification) deps.onConfirmed?.(scope);
      if (resume) await deps.runs.enqueue([resume]);
      return presentDocument(result);
    },

    async delete(scope: Scope, id: string) {
      const doc = await deps.db.tx(async (q) => {
        const d = await mustGet(scope, id, q);
        await deleteOne(q, d);
        return d;
      });
      await removeFileIfUnused(doc.storage_key);
      return { id, deleted: true };
    },

    /** For project deletion and retention: each document gets its own document.deleted event. */
    async deleteMany(docs: DocumentRow[]): Promise<number> {
      let n = 0;
      for (const d of docs) {
        await deps.db.tx((q) => deleteOne(q, d));
        await removeFileIfUnused(d.storage_key);
        n++;
      }
      return n;
    },

    async deleteAllInProject(scope: Scope, projectId: string): Promise<number> {
      return this.deleteMany(await deps.docs.listInProject(scope, projectId));
    },

    async reprocessOne(scope: Scope, id: string, stages: Stage[] | undefined) {
      const doc = await deps.db.tx(async (q) => {
        const d = await deps.docs.getById(id, q, true);
        if (!d || d.org_id !== scope.orgId || d.environment !== scope.environment) throw errors.notFound('Document');
        return deps.runs.start(q, d, stages, null);
      });
      await deps.runs.enqueue([doc]);
      return presentDocument(doc);
    },

    /**
     * Batch reprocessing: validates, counts the documents once and stores the batch with its
     * target, and queues the first page; the batch's walker (a maintenance job,
     * reprocess-walker.ts) queues the rest page by page, so the request answers at once whatever
     * the batch's size. `missing` picks documents
     * whose stage never ran with the current model or template version; `all` re-runs every one.
     * One bad document never stops the batch. `all_documents` and `failed_at` are for the
     * pipeline page (every document of the scope, or those that failed at a stage); the public
     * body names a project or documents.
     */
    async reprocessBatch(
      scope: Scope,
      input: {
        project_id?: string;
        document_ids?: string[];
        stages?: Stage[];
        mode?: 'missing' | 'all';
        all_documents?: boolean;
        failed_at?: Stage;
      },
    ) {
      if (!input.project_id && !input.document_ids?.length && !input.all_documents && !input.failed_at)
        throw errors.validation('Give project_id or document_ids', [
          { field: 'project_id', message: 'or document_ids is required' },
        ]);
      if (input.project_id && input.document_ids?.length)
        throw errors.validation('Give project_id or document_ids, not both');
      if (input.project_id && !(await deps.projects.get(scope, input.project_id))) throw errors.notFound('Project');
      const stages = input.stages?.length ? STAGES.filter((s) => input.stages!.includes(s)) : [...STAGES];
      const mode = input.mode ?? 'missing';
      const target: ReprocessTarget = input.failed_at
        ? { failedAt: input.failed_at }
        : input.all_documents
          ? { all: true }
          : input.project_id
            ? { projectId: input.project_id }
            : { documentIds: input.document_ids! };
      const versions = mode === 'missing' ? await resolveVersions(deps.versions, scope) : undefined;
      const batch = await deps.db.tx(async (q) => {
        const until = await deps.batches.now(q);
        const total = await deps.docs.countForReprocess(
          scope,
          selectionOf({ target: { target, versions }, walk_until: until, mode, stages }),
          q,
        );
        return deps.batches.create(q, scope, {
          kind: 'reprocess',
          stages,
          mode,
          target: { target, versions },
          total,
          until,
        });
      });
      if (batch.status !== 'completed') {
        // The first page is queued in the request: a batch of up to a page is then under way
        // whatever runs the maintenance role, and a larger one shows progress at once.
        const first = await deps.walker.page(batch.id).catch((err: unknown) => {
          deps.logger.warn({ err, batchId: batch.id }, 'first page of a batch failed; its walker retries');
          return 'more' as const;
        });
        // Not queued (Redis away): the maintenance sweep queues the walk of a batch left unwalked.
        if (first !== 'done')
          await queueWalk(deps.queues, batch.id).catch((err: unknown) =>
            deps.logger.warn({ err, batchId: batch.id }, 'could not queue the batch walker; the sweep will'),
          );
      }
      return (await deps.batches.get(scope, batch.id))!;
    },

    async getBatch(scope: Scope, id: string) {
      const b = await deps.batches.get(scope, id);
      if (!b) throw errors.notFound('Batch');
      return b;
    },
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
