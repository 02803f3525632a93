import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { NODE_CATALOGUE } from '../../../modules/workflows/nodes/catalogue.js';
import type { WorkflowsService } from '../../../modules/workflows/workflows.service.js';
import type { WorkflowEdge, WorkflowNode } from '../../../modules/workflows/workflows.types.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging, pageWindow } from '../../paging.js';
import {
  createBody,
  listQuery,
  PAGING,
  responses,
  runBody,
  runsQuery,
  TAGS,
  updateBody,
  validateBody,
} from './schemas.js';

// Reads for every role (viewer included); writes and runs for members and above (the defaults).
const auth = { auth: true };

/**
 * The schemas check nodes and edges only as objects (schemas.ts); the service's graph validator
 * checks their fields, naming node ids and JSON paths, before anything uses them. The body object
 * is handed on unchanged: only its type says what the validator will hold it to.
 */
function withGraphTypes<B extends { nodes?: Record<string, unknown>[]; edges?: Record<string, unknown>[] }>(
  body: B,
): Omit<B, 'nodes' | 'edges'> & { nodes?: WorkflowNode[]; edges?: WorkflowEdge[] } {
  return body as Omit<B, 'nodes' | 'edges'> & { nodes?: WorkflowNode[]; edges?: WorkflowEdge[] };
}

export function registerWorkflowRoutes(app: FastifyInstance, workflows: WorkflowsService): void {
  // Params, querystrings and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  api.get(
    '/workflows',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'List workflows (status, search in name and description)',
        querystring: listQuery,
        response: responses.list,
      },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await pageWindow(paging, (page, perPage) =>
        workflows.list(req.scope, { status: req.query.status, search: req.query.search, page, per_page: perPage }),
      );
      return answer(items, total);
    },
  );

  api.post(
    '/workflows',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Create a workflow; the signing secret of its outbound requests is returned only here',
        body: createBody,
        response: responses.workflow(201),
      },
    },
    async (req, reply) => {
      reply.status(201);
      return ok(await workflows.create(req.scope, withGraphTypes(req.body), req.principal.userId), 'Workflow created');
    },
  );

  api.post(
    '/workflows/validate',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Validate a graph without saving it',
        body: validateBody,
        response: responses.validate,
      },
    },
    async (req) => {
      const r = await workflows.validate(req.scope, req.body ?? {});
      return ok(r, r.valid ? 'The graph is valid' : `The graph has ${r.issues.length} problem(s)`);
    },
  );

  // Static paths before /workflows/:id (the router prefers them anyway; the order documents it).
  api.get(
    '/workflows/node-types',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'The node types a graph may use: config fields, branches and help, as the editor shows them',
        response: responses.nodeTypes,
      },
    },
    // The same for every organization and environment: derived from the node definitions.
    async () => ok(NODE_CATALOGUE),
  );

  api.get(
    '/workflows/runs',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Runs of all workflows, newest first (status, workflow_id, mode)',
        querystring: runsQuery,
        response: responses.list,
      },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const q = req.query;
      const { items, total } = await pageWindow(paging, (page, perPage) =>
        workflows.listRuns(req.scope, {
          status: q.status,
          workflow_id: q.workflow_id,
          mode: q.mode,
          page,
          per_page: perPage,
        }),
      );
      return answer(items, total);
    },
  );

  api.get(
    '/workflows/runs/:runId',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'One run with every step (status, input, output, attempts, timings, error)',
        params: schemas.idParam('runId'),
        response: responses.run(200),
      },
    },
    async (req) => ok(await workflows.getRun(req.scope, req.params.runId)),
  );

  api.post(
    '/workflows/runs/:runId/cancel',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Cancel a queued or running run (409 once it has ended)',
        params: schemas.idParam('runId'),
        response: responses.run(200),
      },
    },
    async (req) => ok(await workflows.cancel(req.scope, req.params.runId), 'Run cancelled'),
  );

  api.get(
    '/workflows/:id',
    {
      config: auth,
      schema: { tags: TAGS, summary: 'Get a workflow', params: schemas.idParam(), response: responses.workflow(200) },
    },
    async (req) => ok(await workflows.get(req.scope, req.params.id)),
  );

  api.put(
    '/workflows/:id',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Update name, description, nodes, edges or status (settings and variables are set at creation only)',
        params: schemas.idParam(),
        body: updateBody,
        response: responses.workflow(200),
      },
    },
    async (req) =>
      ok(await workflows.update(req.scope, req.params.id, withGraphTypes(req.body ?? {})), 'Workflow updated'),
  );

  api.delete(
    '/workflows/:id',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Delete a workflow with its runs',
        params: schemas.idParam(),
        response: responses.workflow(200),
      },
    },
    async (req) => ok(await workflows.remove(req.scope, req.params.id), 'Workflow deleted'),
  );

  api.post(
    '/workflows/:id/run',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Start a run (any status): mode execute or dry_run, input, variables overriding the defaults',
        params: schemas.idParam(),
        body: runBody,
        response: responses.run(202),
      },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await workflows.run(req.scope, req.params.id, req.body ?? {}, req.principal.userId), 'Run queued');
    },
  );
}
