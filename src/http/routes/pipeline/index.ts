import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { PipelineControl } from '../../../modules/pipeline-control/pipeline-control.service.js';
import { STAGES } from '../../../pipeline/stages.js';
import { ok } from '../../envelope.js';

const TAGS = ['pipeline'];
const nameParam = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 32 } },
} as const;
const stageParam = {
  type: 'object',
  required: ['stage'],
  additionalProperties: false,
  properties: { stage: { type: 'string', enum: [...STAGES] } },
} as const;

export function registerPipelineRoutes(app: FastifyInstance, control: PipelineControl): void {
  // Params, querystrings and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  const admin = { auth: true, role: 'admin' as const };

  api.get(
    '/pipeline',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary:
          'Per stage, your documents in progress and failed; per queue, jobs waiting, active, delayed and failed',
        description:
          'The queues are shared by the whole install: `queues` is null unless your organization operates them (see `queues_reason`).',
      },
    },
    async (req) => ok(await control.overview(req.scope)),
  );

  const operator =
    'The queues are shared by the whole install: only an operator organization may change them (PIPELINE_OPERATOR_ORGS, or the only organization of a one-organization install); others get 403.';
  api.post(
    '/pipeline/queues/:name/pause',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Pause a queue (operator only): running jobs finish, new ones wait',
        description: operator,
        params: nameParam,
      },
    },
    async (req) => ok(await control.pause(req.scope, req.params.name), 'Queue paused'),
  );
  api.post(
    '/pipeline/queues/:name/resume',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Resume a paused queue (operator only)',
        description: operator,
        params: nameParam,
      },
    },
    async (req) => ok(await control.resume(req.scope, req.params.name), 'Queue resumed'),
  );
  api.post(
    '/pipeline/queues/:name/retry-failed',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Retry the failed jobs of a queue (operator only)',
        description: operator,
        params: nameParam,
      },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await control.retryFailedJobs(req.scope, req.params.name), 'Failed jobs retried');
    },
  );

  api.post(
    '/pipeline/stages/:stage/retry-failed',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Run your documents that failed at this stage again, from this stage on; returns a batch',
        params: stageParam,
      },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await control.retryFailedDocuments(req.scope, req.params.stage), 'Batch queued');
    },
  );

  api.post(
    '/pipeline/stages/:stage/reprocess',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary:
          'Run one stage over all your documents: missing (never run, or with an older model or template) or all; returns a batch',
        params: stageParam,
        body: {
          type: 'object',
          required: ['mode'],
          additionalProperties: false,
          properties: { mode: { type: 'string', enum: ['missing', 'all'] } },
        } as const,
      },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await control.reprocessStage(req.scope, req.params.stage, req.body.mode), 'Batch queued');
    },
  );
}
