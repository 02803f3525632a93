import type { Readable } from 'node:stream';
import type { Db } from '../../db/client.js';
import { errors } from '../../lib/errors.js';
import { assertDocumentValues } from '../../lib/limits.js';
import type { Logger } from '../../lib/logger.js';
import type { Queues } from '../../jobs/queues.js';
import { ACCEPTED_TYPES_TEXT, matchesAllowedTypes, sniffType, unprocessableKind } from '../../pipeline/parse/index.js';
import { describeBytes } from '../../lib/bytes.js';
import { BlobTooLargeError, type BlobStore, type StoredBlob } from '../../storage/blob-store.js';
import type { Scope } from '../../lib/scope.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { DocumentsRepository } from './documents.repository.js';
import type { DocumentRow } from './documents.types.js';
import { enqueueStage, planStages } from './flow.js';

/** The answer to a file over MAX_UPLOAD_MB, wherever the limit is noticed. */
export function fileTooLarge(maxUploadBytes: number) {
  return errors.tooLarge(`File is larger than the maximum of ${describeBytes(maxUploadBytes)} (MAX_UPLOAD_MB)`);
}

export interface IntakeInput {
  scope: Scope;
  projectId: string;
  filename: string;
  source: DocumentRow['source'];
  sourceMetadata?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  uploadedBy?: string | null;
  allowDuplicate?: boolean;
}

export type IntakeResult = { kind: 'created'; document: DocumentRow } | { kind: 'duplicate'; document: DocumentRow };

/**
 * Turns stored bytes into a document: checks the project, the real type and duplicates,
 * commits the row with its `document.uploaded` event, then queues the parse stage. Used by
 * uploads, e-mail and the CLI alike.
 */
export function createIntake(deps: {
  db: Db;
  docs: DocumentsRepository;
  projects: ProjectsRepository;
  blobs: BlobStore;
  queues: Queues;
  logger: Logger;
  maxUploadBytes: number;
}) {
  const keysInUse = (keys: string[]) => deps.docs.storageKeysInUse(keys);

  /** Gives up a stored blob: its file goes unless another document uses the same bytes. */
  async function discard(blob: StoredBlob): Promise<void> {
    await deps.blobs.discard(blob, keysInUse);
  }

  /** Checks and the insert; throws without cleaning up (fromBlob does that once for every path). */
  async function admit(blob: StoredBlob, input: IntakeInput): Promise<IntakeResult> {
    const project = await deps.projects.get(input.scope, input.projectId);
    if (!project) throw errors.notFound('Project');
    if (project.status === 'archived') throw errors.conflict('Project is archived; unarchive it to add documents');
    if (blob.size === 0) throw errors.invalidField('file', 'is empty');
    assertDocumentValues(null, input.metadata);
    // Executables and archives never become text: refused now rather than failed at parse.
    const refused = unprocessableKind(blob.head);
    if (refused)
      throw errors.unsupportedMedia(
        `The file is ${refused} (judged from its bytes), which cannot be processed; accepted types: ${ACCEPTED_TYPES_TEXT}`,
      );
    const sniffed = sniffType(blob.head, input.filename);
    const mime = sniffed?.mime ?? 'application/octet-stream';
    if (
      project.allowed_file_types.length > 0 &&
      (!sniffed || !matchesAllowedTypes(sniffed, project.allowed_file_types))
    ) {
      throw errors.unsupportedMedia(
        `File type ${mime} (judged from its bytes) is not allowed in this project; allowed: ${project.allowed_file_types.join(', ')}`,
      );
    }
    if (!input.allowDuplicate) {
      const dup = await deps.docs.findDuplicate(project.id, blob.sha256);
      if (dup) return { kind: 'duplicate', document: dup };
    }
    const stages = planStages(project);
    // The row and its document.uploaded event are one statement (they commit together).
    const pipeline = { stages, current: stages[0], queued_at: new Date().toISOString() };
    const row = {
      scope: input.scope,
      projectId: project.id,
      filename: input.filename,
      mimeType: mime,
      size: blob.size,
      sha256: blob.sha256,
      storageKey: blob.key,
      source: input.source,
      sourceMetadata: input.sourceMetadata ?? {},
      metadata: input.metadata ?? {},
      uploadedBy: input.uploadedBy ?? null,
      pipeline,
    };
    const doc = await deps.docs.insert(deps.db, row, {
      type: 'document.uploaded',
      extra: { mimeType: mime, sizeBytes: blob.size },
    });
    return { kind: 'created', document: doc };
  }

  /**
   * Every way out of an intake settles the blob: kept (released) once a row refers to it,
   * otherwise discarded, so a refused or failed intake never leaves its file behind.
   */
  async function fromBlob(blob: StoredBlob, input: IntakeInput): Promise<IntakeResult> {
    let result: IntakeResult;
    try {
      result = await admit(blob, input);
    } catch (err) {
      await discard(blob).catch((e: unknown) =>
        deps.logger.warn({ err: e, key: blob.key }, 'could not remove the file of a refused intake'),
      );
      throw err;
    }
    // Before the parse job can run: the file is certainly in place from here on.
    await deps.blobs.release(blob);
    if (result.kind === 'duplicate') return result;
    const doc = result.document;
    const first = doc.pipeline.current;
    try {
      if (first) await enqueueStage(deps.queues, first, doc);
    } catch (err) {
      // The row is committed with its next stage recorded; the sweeper queues it when Redis is back.
      deps.logger.warn({ err, documentId: doc.id }, 'could not queue parse; the sweeper will retry');
    }
    return result;
  }

  /** Streams bytes into the blob store (hashing on the way), enforcing MAX_UPLOAD_MB. */
  async function store(stream: Readable): Promise<StoredBlob> {
    try {
      return await deps.blobs.put(stream, { maxBytes: deps.maxUploadBytes });
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw fileTooLarge(deps.maxUploadBytes);
      throw err;
    }
  }

  return {
    fromBlob,
    store,
    discard,
    async fromBuffer(data: Buffer, input: IntakeInput): Promise<IntakeResult> {
      if (data.length > deps.maxUploadBytes) throw fileTooLarge(deps.maxUploadBytes);
      return fromBlob(await deps.blobs.putBuffer(data), input);
    },
  };
}

export type Intake = ReturnType<typeof createIntake>;
