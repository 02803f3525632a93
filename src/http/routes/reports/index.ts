import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { ReportsService } from '../../../modules/reports/index.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging, pageWindow } from '../../paging.js';
import {
  PAGING,
  createBody,
  downloadQuery,
  executionParams,
  executionsQuery,
  listQuery,
  responses,
  scheduleBody,
  TAGS,
  updateBody,
} from './schemas.js';

// Reads and downloads for every role (viewer included); writes, runs and schedules for members
// and above (the defaults).
const auth = { auth: true };

export function registerReportRoutes(app: FastifyInstance, reports: ReportsService): void {
  // Params, querystrings and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  api.get(
    '/reports',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'List reports, newest first (type, category, search in name, description and tags)',
        querystring: listQuery,
        response: responses.list,
      },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const q = req.query;
      const { items, total } = await pageWindow(paging, (page, perPage) =>
        reports.list(req.scope, { type: q.type, category: q.category, search: q.search, page, per_page: perPage }),
      );
      return answer(items, total);
    },
  );

  api.post(
    '/reports',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Create a report (data_source and filters checked for its type)',
        body: createBody,
        response: responses.report(201),
      },
    },
    async (req, reply) => {
      reply.status(201);
      return ok(await reports.create(req.scope, req.body, req.principal.userId), 'Report created');
    },
  );

  api.get(
    '/reports/:id',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Get a report with its schedule and latest execution',
        params: schemas.idParam(),
        response: responses.report(200),
      },
    },
    async (req) => ok(await reports.get(req.scope, req.params.id)),
  );

  api.put(
    '/reports/:id',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Update name, description, category, data_source, filters, tags or retention_days (the type is fixed)',
        params: schemas.idParam(),
        body: updateBody,
        response: responses.report(200),
      },
    },
    async (req) => ok(await reports.update(req.scope, req.params.id, req.body), 'Report updated'),
  );

  api.delete(
    '/reports/:id',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Delete a report with its schedule, executions and their result files',
        params: schemas.idParam(),
        response: responses.deleted,
      },
    },
    async (req) => ok(await reports.remove(req.scope, req.params.id), 'Report deleted'),
  );

  api.post(
    '/reports/:id/run',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Run the report now (no body); 202 with the queued execution',
        params: schemas.idParam(),
        response: responses.execution(202),
      },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await reports.run(req.scope, req.params.id, req.principal.userId), 'Execution queued');
    },
  );

  api.get(
    '/reports/:id/schedule',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: "The report's schedule with its next run in UTC and in the schedule's zone",
        params: schemas.idParam(),
        response: responses.schedule(200),
      },
    },
    async (req) => ok(await reports.getSchedule(req.scope, req.params.id)),
  );

  api.post(
    '/reports/:id/schedule',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary:
          'Create or replace the schedule: daily, weekly or monthly at HH:MM in an IANA zone (201 created, 200 replaced)',
        params: schemas.idParam(),
        body: scheduleBody,
        response: { ...responses.schedule(201), ...responses.schedule(200) },
      },
    },
    async (req, reply) => {
      const { schedule, created } = await reports.setSchedule(req.scope, req.params.id, req.body, req.principal.userId);
      reply.status(created ? 201 : 200);
      return ok(schedule, created ? 'Schedule created' : 'Schedule replaced');
    },
  );

  api.delete(
    '/reports/:id/schedule',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Remove the schedule (executions stay)',
        params: schemas.idParam(),
        response: responses.scheduleDeleted,
      },
    },
    async (req) => ok(await reports.deleteSchedule(req.scope, req.params.id), 'Schedule deleted'),
  );

  api.get(
    '/reports/:id/executions',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Executions of the report, newest first (status)',
        params: schemas.idParam(),
        querystring: executionsQuery,
        response: responses.executions,
      },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await pageWindow(paging, (page, perPage) =>
        reports.listExecutions(req.scope, req.params.id, { status: req.query.status, page, per_page: perPage }),
      );
      return answer(items, total);
    },
  );

  api.get(
    '/reports/:id/executions/:executionId',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'One execution: status, trigger, period, timings, row count, summary, sections, error',
        params: executionParams,
        response: responses.execution(200),
      },
    },
    async (req) => ok(await reports.getExecution(req.scope, req.params.id, req.params.executionId)),
  );

  api.get(
    '/reports/:id/executions/:executionId/download',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: "Download a completed execution's result as csv, json or xlsx (streamed; 409 until it has completed)",
        params: executionParams,
        querystring: downloadQuery,
        response: responses.download,
      },
    },
    async (req, reply) => {
      const d = await reports.download(
        req.scope,
        req.params.id,
        req.params.executionId,
        req.query.format,
        req.query.section,
      );
      reply.headers({
        'Content-Type': d.contentType,
        'Content-Disposition': `attachment; filename="${d.filename}"; filename*=UTF-8''${encodeURIComponent(d.filename)}`,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
      });
      return reply.send(d.stream);
    },
  );
}
