import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { presentEventRecord } from '../../../modules/events/events.types.js';
import type { EventsRepository } from '../../../modules/events/events.repository.js';
import { EVENT_TYPES } from '../../../modules/events/events.types.js';
import { errors } from '../../../lib/errors.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging, pagingQuery, type ListPaging } from '../../paging.js';

const PAGING: ListPaging = { canonical: 'offset' };

export function registerEventRoutes(app: FastifyInstance, events: EventsRepository): void {
  // Params and querystrings are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  api.get(
    '/events',
    {
      config: { auth: true },
      schema: {
        tags: ['events'],
        summary: 'Events of the caller’s organization and environment, newest first',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            type: { type: 'string', enum: [...EVENT_TYPES, 'webhook.test'] },
            document_id: { type: 'string', maxLength: 64 },
            created_after: { type: 'string', format: 'date-time' },
            ...pagingQuery(PAGING),
          },
        } as const,
      },
    },
    async (req) => {
      const q = req.query;
      const { paging, answer } = listPaging(req, PAGING);
      const { rows, total } = await events.list(req.scope, {
        type: q.type,
        documentId: q.document_id,
        after: q.created_after ? new Date(q.created_after) : undefined,
        limit: paging.limit,
        offset: paging.offset,
      });
      return answer(rows.map(presentEventRecord), total);
    },
  );

  api.get(
    '/events/:id',
    {
      config: { auth: true },
      schema: { tags: ['events'], summary: 'One event, as delivered to webhooks', params: schemas.idParam() },
    },
    async (req) => {
      const e = await events.get(req.scope, req.params.id);
      if (!e) throw errors.notFound('Event');
      return ok(presentEventRecord(e));
    },
  );
}
