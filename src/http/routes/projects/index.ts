import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { ProjectsService } from '../../../modules/projects/projects.service.js';
import { NEAR_DUPLICATE_ACTIONS } from '../../../modules/projects/projects.types.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging, pagingQuery, type ListPaging } from '../../paging.js';
import { inboundSettingsBody, projectListResponse, projectResponse } from './schemas.js';

const TAGS = ['projects'];
const text = (max: number) => ({ type: 'string', maxLength: max }) as const;
const nearDuplicate = {
  type: 'string',
  enum: [...NEAR_DUPLICATE_ACTIONS],
  description: 'A near-duplicate of an earlier document: keep it (flagged), stop it in needs_review, or fail it',
} as const;
// The contract: limit (default 20) and offset; page/per_page are accepted too.
const PAGING: ListPaging = { canonical: 'offset' };

export function registerProjectRoutes(app: FastifyInstance, projects: ProjectsService): void {
  // Params, querystrings and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  const auth = { auth: true };
  // Keyed by the cached page, then by the request URL (the pagination links repeat it).
  const serialisedPages = new WeakMap<object, { url: string; body: string }>();

  api.get(
    '/projects',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'List projects (archived ones only with include_archived=true or status=archived)',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            search: { type: 'string', maxLength: 200 },
            sort: { type: 'string', enum: ['name', 'created_at', 'updated_at'], default: 'created_at' },
            order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
            ...pagingQuery(PAGING),
            status: { type: 'string', enum: ['active', 'archived'] },
            include_archived: { type: 'boolean', default: false },
          },
        } as const,
        response: projectListResponse,
      },
    },
    async (req, reply) => {
      const { paging, answer } = listPaging(req, PAGING);
      const page = await projects.list(
        req.scope,
        { ...req.query, limit: paging.limit, offset: paging.offset },
        req.projectsVersion,
      );
      // Pages served from the list cache are the same objects: serialise each one once.
      let body = serialisedPages.get(page)?.url === req.url ? serialisedPages.get(page)!.body : undefined;
      if (body === undefined) {
        body = reply.serialize(answer(page.items, page.total)) as string;
        serialisedPages.set(page, { url: req.url, body });
      }
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  api.post(
    '/projects',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Create a project',
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 200 },
            description: text(2000),
            color: text(32),
            icon: text(64),
            auto_classify: { type: 'boolean' },
            auto_extract: { type: 'boolean' },
            default_template_id: { type: 'string', minLength: 1, maxLength: 64 },
            retention_days: { type: 'integer', minimum: 1, maximum: 36500 },
            allowed_file_types: {
              type: 'array',
              maxItems: 50,
              items: { type: 'string', minLength: 1, maxLength: 100 },
            },
            classification_threshold: { type: 'number', minimum: 0, maximum: 1 },
            ...inboundSettingsBody,
            on_near_duplicate: nearDuplicate,
          },
        } as const,
      },
    },
    async (req, reply) => {
      reply.status(201);
      return ok(await projects.create(req.scope, req.body), 'Project created');
    },
  );

  api.get(
    '/projects/:id',
    {
      config: auth,
      schema: { tags: TAGS, summary: 'Get a project', params: schemas.idParam(), response: projectResponse },
    },
    async (req) => ok(await projects.get(req.scope, req.params.id)),
  );

  api.put(
    '/projects/:id',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Update name, description, color, icon, on_near_duplicate or the inbound-mail settings (nothing else)',
        params: schemas.idParam(),
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 200 },
            description: text(2000),
            color: text(32),
            icon: text(64),
            ...inboundSettingsBody,
            on_near_duplicate: nearDuplicate,
          },
        } as const,
      },
    },
    async (req) => ok(await projects.update(req.scope, req.params.id, req.body ?? {}), 'Project updated'),
  );

  api.delete(
    '/projects/:id',
    {
      config: { auth: true, role: 'admin' },
      schema: {
        tags: TAGS,
        summary: 'Delete a project; with documents, say whether to delete or move them',
        params: schemas.idParam(),
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            delete_documents: { type: 'boolean' },
            move_to_project_id: { type: 'string', minLength: 1, maxLength: 64 },
          },
        } as const,
      },
    },
    async (req) =>
      ok(
        await projects.delete(req.scope, req.params.id, {
          deleteDocuments: req.query.delete_documents,
          moveToProjectId: req.query.move_to_project_id,
        }),
        'Project deleted',
      ),
  );

  api.post(
    '/projects/:id/archive',
    { config: auth, schema: { tags: TAGS, summary: 'Archive a project', params: schemas.idParam() } },
    async (req) => ok(await projects.setArchived(req.scope, req.params.id, true), 'Project archived'),
  );

  api.post(
    '/projects/:id/unarchive',
    { config: auth, schema: { tags: TAGS, summary: 'Unarchive a project', params: schemas.idParam() } },
    async (req) => ok(await projects.setArchived(req.scope, req.params.id, false), 'Project unarchived'),
  );

  // Same role rule as updating the project: the address is one of its settings.
  api.post(
    '/projects/:id/inbound-address/rotate',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Replace the receiving address; mail to the old one is refused from then on',
        params: schemas.idParam(),
        response: projectResponse,
      },
    },
    async (req) => ok(await projects.rotateInboundAddress(req.scope, req.params.id), 'Inbound address rotated'),
  );

  api.get(
    '/projects/:id/stats',
    {
      config: auth,
      schema: { tags: TAGS, summary: 'Document counts, bytes, pages, last activity', params: schemas.idParam() },
    },
    async (req) => ok(await projects.stats(req.scope, req.params.id)),
  );
}
