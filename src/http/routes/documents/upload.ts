import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { DomainError, errors } from '../../../lib/errors.js';
import { describeBytes } from '../../../lib/bytes.js';
import { MAX_UPLOAD_METADATA_BYTES } from '../../../lib/limits.js';
import { ok } from '../../envelope.js';
import { presentDocument } from '../../../modules/documents/documents.types.js';
import { fileTooLarge, type Intake } from '../../../modules/documents/intake.js';
import type { StoredBlob } from '../../../storage/blob-store.js';
import { assertCleanInput } from '../../plugins/input-guard.js';

/**
 * Errors raised while reading the multipart stream are about the client's body (no boundary,
 * truncated, malformed headers): a 400. Errors that already carry a status or a Fastify code
 * (size limits) keep theirs.
 */
function asBodyError(err: unknown): unknown {
  if (err instanceof DomainError) return err;
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown };
  if (typeof e.code === 'string' && e.code.startsWith('FST_')) return err;
  if (typeof e.statusCode === 'number') return err;
  return errors.validation(`Malformed multipart body: ${typeof e.message === 'string' ? e.message : 'unreadable'}`);
}

function parseMetadata(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (Buffer.byteLength(raw, 'utf8') > MAX_UPLOAD_METADATA_BYTES)
    throw errors.invalidField('metadata', `must be at most ${describeBytes(MAX_UPLOAD_METADATA_BYTES)} of JSON`);
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw errors.invalidField('metadata', 'must be a JSON object');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw errors.invalidField('metadata', 'must be a JSON object');
  return v as Record<string, unknown>;
}

/**
 * POST /documents: multipart with `file`, `project_id`, optional `metadata` (JSON) and
 * `allow_duplicate`. The file streams into the blob store while it is hashed, never held in
 * memory; the project may be named in the query string or by a form field before or after the file.
 */
export function registerUploadRoute(app: FastifyInstance, intake: Intake, maxUploadBytes: number): void {
  // The querystring is typed from its JSON schema (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  api.post(
    '/documents',
    {
      config: { auth: true },
      schema: {
        tags: ['documents'],
        summary: 'Upload a document (multipart/form-data: file, project_id, metadata)',
        description:
          'An e-mail message (.eml) stays one document and each of its attachments becomes a document of its own, linked to it by `source_metadata.parent_document_id`.',
        consumes: ['multipart/form-data'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { project_id: { type: 'string', maxLength: 64 }, allow_duplicate: { type: 'boolean' } },
        } as const,
      },
    },
    async (req, reply) => {
      if (!req.isMultipart())
        throw errors.unsupportedMedia(
          'Upload with Content-Type multipart/form-data (fields: file, project_id, metadata)',
        );
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > maxUploadBytes + 1024 * 1024) throw fileTooLarge(maxUploadBytes);
      // Busboy needs a boundary; without one it fails in a way that says nothing to the client.
      if (!/;\s*boundary=(?:"[^"]+"|[^\s";]+)/i.test(String(req.headers['content-type'] ?? ''))) {
        throw errors.validation('multipart/form-data needs a boundary parameter in Content-Type', [
          { field: 'Content-Type', message: 'must carry a boundary', in: 'headers' },
        ]);
      }
      const fields: Record<string, string> = {};
      let blob: StoredBlob | undefined;
      let filename = 'upload';
      let failure: unknown;
      let projectId: string | undefined;
      let metadata: Record<string, unknown> | undefined;
      try {
        try {
          for await (const part of req.parts()) {
            if (part.type !== 'file') {
              fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
              continue;
            }
            if (part.fieldname !== 'file' || blob || failure) {
              part.file.resume();
              continue;
            }
            filename = part.filename || 'upload';
            try {
              blob = await intake.store(part.file);
            } catch (err) {
              // The multipart reader's own size limit fires before the store's: the same answer.
              failure =
                (err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE' ? fileTooLarge(maxUploadBytes) : err;
              part.file.resume();
            }
          }
        } catch (err) {
          // The multipart reader's file-size limit can also surface from the parts iterator.
          throw (err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE'
            ? fileTooLarge(maxUploadBytes)
            : asBodyError(err);
        }
        if (failure) throw failure;
        if (!blob) throw errors.invalidField('file', 'is required');
        // Multipart is read here, not by the body parser, so the generic input check runs here too.
        assertCleanInput(fields, 'form');
        assertCleanInput(filename, 'form', 'file.filename');
        projectId = req.query.project_id ?? fields.project_id;
        if (!projectId) throw errors.invalidField('project_id', 'is required');
        metadata = parseMetadata(fields.metadata);
        assertCleanInput(metadata, 'form', 'metadata');
      } catch (err) {
        if (blob) await intake.discard(blob);
        throw err;
      }
      const result = await intake.fromBlob(blob, {
        scope: req.scope,
        projectId,
        filename,
        source: 'upload',
        metadata,
        uploadedBy: req.principal.userId,
        allowDuplicate: req.query.allow_duplicate ?? fields.allow_duplicate === 'true',
      });
      if (result.kind === 'duplicate') {
        reply.status(200);
        return ok(
          presentDocument(result.document, { duplicate: true }),
          'The same file is already in this project; pass allow_duplicate=true to store it again',
        );
      }
      reply.status(201);
      return ok(presentDocument(result.document, { duplicate: false }), 'Document uploaded');
    },
  );
}
