import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { DocumentsService } from '../../../modules/documents/documents.service.js';
import { DOCUMENT_STATUSES, STAGES } from '../../../modules/documents/documents.types.js';
import type { Intake } from '../../../modules/documents/intake.js';
import type { ProjectsService } from '../../../modules/projects/projects.service.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging, pageWindow, pagingQuery, type ListPaging } from '../../paging.js';
import { registerUploadRoute } from './upload.js';
import { contentHeaders } from './content-headers.js';
import type { Scope } from '../../../lib/scope.js';
import { registerActivityRoute } from './activity.js';
import type { ActivityService } from '../../../modules/documents/activity.js';

const TAGS = ['documents'];
const STATUS = [...DOCUMENT_STATUSES] as const;
const stagesSchema = {
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'string', enum: [...STAGES] },
} as const;
// GET /documents: page/per_page documented; GET /projects/{id}/documents: the contract's page + limit.
const PAGING: ListPaging = { canonical: 'page' };
const PROJECT_PAGING: ListPaging = { canonical: 'page', pageWithLimit: true };

export function registerDocumentRoutes(
  app: FastifyInstance,
  deps: {
    documents: DocumentsService;
    intake: Intake;
    projects: ProjectsService;
    maxUploadBytes: number;
    /** Export status per export target (Sheets), shown on the document. */
    documentExports?: (scope: Scope, id: string) => Promise<unknown[]>;
    /** Per-day and per-stage counts for the dashboard's overview. */
    activity?: ActivityService;
  },
): void {
  // Params, querystrings and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  const { documents } = deps;
  const auth = { auth: true };
  registerUploadRoute(app, deps.intake, deps.maxUploadBytes);
  if (deps.activity) registerActivityRoute(app, deps.activity, deps.projects);

  api.get(
    '/documents',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'List documents (filters and full-text search over extracted text)',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            project_id: { type: 'string', maxLength: 64 },
            status: { type: 'string', enum: STATUS },
            classification: { type: 'string', maxLength: 64 },
            source: { type: 'string', enum: ['upload', 'email', 'api'] },
            created_after: { type: 'string', format: 'date-time' },
            created_before: { type: 'string', format: 'date-time' },
            q: { type: 'string', minLength: 1, maxLength: 500 },
            min_confidence: {
              type: 'number',
              minimum: 0,
              maximum: 1,
              description: 'Classification confidence at least this',
            },
            max_confidence: {
              type: 'number',
              minimum: 0,
              maximum: 1,
              description: 'Classification confidence below this',
            },
            duplicate: {
              type: 'boolean',
              description:
                'Only documents flagged as a near-duplicate of an earlier one (true), or only the others (false)',
            },
            fields_unconfirmed: {
              type: 'boolean',
              description:
                'Only documents with a field no person has confirmed yet (true: the review queue of fields), or only the others (false)',
            },
            ids: {
              type: 'string',
              pattern: '^[A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64}){0,99}$',
              description:
                "Only these documents: up to 100 comma-separated ids (unknown and other organizations' ids are left out)",
            },
            ...pagingQuery(PAGING),
          },
        } as const,
      },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await pageWindow(paging, (page, perPage) =>
        documents.list(req.scope, { ...req.query, page, per_page: perPage }),
      );
      return answer(items, total);
    },
  );

  api.get(
    '/documents/:id',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'A document with its status, classification, fields, timings and export status',
        params: schemas.idParam(),
      },
    },
    async (req) => {
      const doc = await documents.get(req.scope, req.params.id);
      return ok(deps.documentExports ? { ...doc, exports: await deps.documentExports(req.scope, req.params.id) } : doc);
    },
  );

  api.get(
    '/documents/:id/content',
    { config: auth, schema: { tags: TAGS, summary: 'The original file', params: schemas.idParam() } },
    async (req, reply) => {
      const c = await documents.content(req.scope, req.params.id);
      reply.headers(contentHeaders(c));
      return reply.send(c.stream);
    },
  );

  api.get(
    '/documents/:id/preview',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: "An image document's first page as an upright PNG (TIFFs, EXIF-turned photos)",
        params: schemas.idParam(),
      },
    },
    async (req, reply) => {
      const p = await documents.preview(req.scope, req.params.id);
      if (req.headers['if-none-match'] === p.etag) return reply.code(304).send();
      reply.headers({
        'Content-Type': 'image/png',
        ETag: p.etag,
        'Cache-Control': 'private, max-age=3600',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'same-origin',
      });
      return reply.send(p.png);
    },
  );

  api.get(
    '/documents/:id/text',
    { config: auth, schema: { tags: TAGS, summary: 'The extracted text', params: schemas.idParam() } },
    async (req) => ok({ id: req.params.id, text: await documents.text(req.scope, req.params.id) }),
  );

  api.get(
    '/documents/:id/words',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'The words of each page with their boxes (text layer or OCR)',
        params: schemas.idParam(),
      },
    },
    async (req) => ok({ id: req.params.id, pages: await documents.words(req.scope, req.params.id) }),
  );

  api.patch(
    '/documents/:id',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Correct classification or fields (marked confirmed by a person)',
        params: schemas.idParam(),
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            classification: {
              type: 'object',
              required: ['type'],
              additionalProperties: false,
              properties: { type: { type: 'string', minLength: 1, maxLength: 64 } },
            },
            fields: { type: 'object', additionalProperties: true },
            metadata: { type: 'object', additionalProperties: true },
            filename: { type: 'string', minLength: 1, maxLength: 255 },
          },
        } as const,
      },
    },
    async (req) => ok(await documents.patch(req.scope, req.params.id, req.body), 'Document updated'),
  );

  api.delete(
    '/documents/:id',
    { config: auth, schema: { tags: TAGS, summary: 'Delete a document and its file', params: schemas.idParam() } },
    async (req) => ok(await documents.delete(req.scope, req.params.id), 'Document deleted'),
  );

  api.post(
    '/documents/:id/reprocess',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Re-run stages of one document',
        params: schemas.idParam(),
        body: { type: 'object', additionalProperties: false, properties: { stages: stagesSchema } } as const,
      },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await documents.reprocessOne(req.scope, req.params.id, req.body?.stages), 'Reprocessing queued');
    },
  );

  api.post(
    '/documents/reprocess',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Re-run stages for a project or a list of documents; returns a batch',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            project_id: { type: 'string', maxLength: 64 },
            document_ids: { type: 'array', minItems: 1, maxItems: 10_000, items: { type: 'string', maxLength: 64 } },
            stages: stagesSchema,
            mode: { type: 'string', enum: ['missing', 'all'], default: 'missing' },
          },
        } as const,
      },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await documents.reprocessBatch(req.scope, req.body ?? {}), 'Batch queued');
    },
  );

  api.get(
    '/batches/:id',
    {
      config: auth,
      schema: { tags: TAGS, summary: 'Progress of a batch and its per-document failures', params: schemas.idParam() },
    },
    async (req) => ok(await documents.getBatch(req.scope, req.params.id)),
  );

  api.get(
    '/projects/:id/documents',
    {
      config: auth,
      schema: {
        tags: ['projects'],
        summary: 'Documents in a project',
        params: schemas.idParam(),
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...pagingQuery(PROJECT_PAGING),
            status: { type: 'string', enum: STATUS },
            classification: { type: 'string', maxLength: 64 },
          },
        } as const,
      },
    },
    async (req) => {
      await deps.projects.get(req.scope, req.params.id);
      const q = req.query;
      const { paging, answer } = listPaging(req, PROJECT_PAGING);
      const { items, total } = await pageWindow(paging, (page, perPage) =>
        documents.list(req.scope, {
          project_id: req.params.id,
          status: q.status,
          classification: q.classification,
          page,
          per_page: perPage,
        }),
      );
      return answer(items, total);
    },
  );
}
