import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { ActivityService } from '../../../modules/documents/activity.js';
import type { ProjectsService } from '../../../modules/projects/projects.service.js';
import { ok } from '../../envelope.js';

export function registerActivityRoute(
  app: FastifyInstance,
  activity: ActivityService,
  projects: ProjectsService,
): void {
  // The querystring is typed from its JSON schema (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  api.get(
    '/documents/activity',
    {
      config: { auth: true },
      schema: {
        tags: ['documents'],
        summary: 'Documents per day by status, type and source, and per stage in progress and failed',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            days: { type: 'integer', minimum: 1, maximum: 366, default: 30 },
            tz: {
              type: 'string',
              minLength: 1,
              maxLength: 64,
              description: 'IANA time zone the days are cut in (default UTC)',
            },
            project_id: { type: 'string', maxLength: 64 },
          },
        } as const,
      },
    },
    async (req) => {
      if (req.query.project_id) await projects.get(req.scope, req.query.project_id);
      return ok(
        await activity.activity(req.scope, { days: req.query.days, tz: req.query.tz, projectId: req.query.project_id }),
      );
    },
  );
}
