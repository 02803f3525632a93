import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { ConnectionsService } from '../../../modules/integrations/sheets/connections.service.js';
import type { ExportsService } from '../../../modules/integrations/sheets/exports.service.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging } from '../../paging.js';
import {
  PAGING,
  createConnectionBody,
  createExportBody,
  exportDocumentBody,
  listExportsQuery,
  listQuery,
  TAGS,
  testConnectionBody,
  updateExportBody,
} from './schemas.js';

// Integrations hold credentials and push data out of the service: admins and owners only.
const admin = { auth: true, role: 'admin' as const };
const BASE = '/integrations/sheets';

export function registerSheetsRoutes(
  app: FastifyInstance,
  deps: { connections: ConnectionsService; exports: ExportsService },
): void {
  // Params, querystrings and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  const { connections, exports } = deps;

  api.post(
    `${BASE}/connections`,
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Store Google credentials (service account key or OAuth refresh token), encrypted',
        body: createConnectionBody,
      },
    },
    async (req, reply) => {
      reply.status(201);
      return ok(await connections.create(req.scope, req.body, req.principal.userId), 'Connection created');
    },
  );

  api.get(
    `${BASE}/connections`,
    {
      config: admin,
      schema: { tags: TAGS, summary: 'List connections (credentials are never returned)', querystring: listQuery },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await connections.list(req.scope, paging.limit, paging.offset);
      return answer(items, total);
    },
  );

  api.get(
    `${BASE}/connections/:id`,
    { config: admin, schema: { tags: TAGS, summary: 'Get a connection', params: schemas.idParam() } },
    async (req) => ok(await connections.get(req.scope, req.params.id)),
  );

  api.delete(
    `${BASE}/connections/:id`,
    {
      config: admin,
      schema: { tags: TAGS, summary: 'Delete a connection (409 while an export uses it)', params: schemas.idParam() },
    },
    async (req) => ok(await connections.remove(req.scope, req.params.id), 'Connection deleted'),
  );

  api.post(
    `${BASE}/connections/:id/test`,
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Authenticate and list the spreadsheet’s sheets; a failure is reported in data.error',
        params: schemas.idParam(),
        body: testConnectionBody,
      },
    },
    async (req) => {
      const r = await connections.test(req.scope, req.params.id, req.body.spreadsheet_id);
      return ok(r, r.ok ? 'Connection works' : 'Connection test failed');
    },
  );

  api.post(
    `${BASE}/exports`,
    {
      config: admin,
      schema: { tags: TAGS, summary: 'Create an export of a project’s documents to a sheet', body: createExportBody },
    },
    async (req, reply) => {
      reply.status(201);
      return ok(await exports.create(req.scope, req.body, req.principal.userId), 'Export created');
    },
  );

  api.get(
    `${BASE}/exports`,
    {
      config: admin,
      schema: { tags: TAGS, summary: 'List exports', querystring: listExportsQuery },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await exports.list(req.scope, {
        project_id: req.query.project_id,
        limit: paging.limit,
        offset: paging.offset,
      });
      return answer(items, total);
    },
  );

  api.get(
    `${BASE}/exports/:id`,
    {
      config: admin,
      schema: { tags: TAGS, summary: 'Get an export with its status and row counts', params: schemas.idParam() },
    },
    async (req) => ok(await exports.get(req.scope, req.params.id)),
  );

  api.put(
    `${BASE}/exports/:id`,
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Update an export; clears its error state and writes what was held back',
        params: schemas.idParam(),
        body: updateExportBody,
      },
    },
    async (req) => ok(await exports.update(req.scope, req.params.id, req.body), 'Export updated'),
  );

  api.delete(
    `${BASE}/exports/:id`,
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Delete an export (rows already in the sheet stay there)',
        params: schemas.idParam(),
      },
    },
    async (req) => ok(await exports.remove(req.scope, req.params.id), 'Export deleted'),
  );

  api.post(
    '/documents/:id/export',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Export the document’s current version now (to every active export of its project, or one)',
        params: schemas.idParam(),
        body: exportDocumentBody,
      },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await exports.exportDocument(req.scope, req.params.id, req.body?.export_id), 'Export queued');
    },
  );

  api.get(
    '/documents/:id/exports',
    {
      config: { auth: true },
      schema: {
        tags: TAGS,
        summary: 'Export status of a document per export target and version',
        params: schemas.idParam(),
      },
    },
    async (req) => ok(await exports.forDocument(req.scope, req.params.id, { mustExist: true })),
  );
}
