import type { FastifyInstance } from 'fastify';
import { presentEvent } from '../../../modules/events/events.types.js';
import type { EventsRepository } from '../../../modules/events/events.repository.js';
import { EVENT_TYPES } from '../../../modules/events/events.types.js';
import { errors } from '../../../lib/errors.js';
import { ok, offsetPage, schemas } from '../../envelope.js';

export function registerEventRoutes(api: FastifyInstance, events: EventsRepository): void {
  api.get<{ Querystring: { type?: string; document_id?: string; created_after?: string; limit: number; offset: number } }>('/events', {
    config: { auth: true },
    schema: {
      tags: ['events'], summary: 'Events of the caller’s organization and environment, newest first',
      querystring: { type: 'object', additionalProperties: false, properties: {
        type: { type: 'string', enum: [...EVENT_TYPES, 'webhook.test'] }, document_id: { type: 'string', maxLength: 64 },
        created_after: { type: 'string', format: 'date-time' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, offset: { type: 'integer', minimum: 0, default: 0 },
      } },
    },
  }, async (req) => {
    const q = req.query;
    const { rows, total } = await events.list(req.scope, { type: q.type, documentId: q.document_id, after: q.created_after ? new Date(q.created_after) : undefined, limit: q.limit, offset: q.offset });
    return offsetPage(rows.map(presentEvent), total, q.limit, q.offset);
  });

  api.get<{ Params: { id: string } }>('/events/:id', {
    config: { auth: true }, schema: { tags: ['events'], summary: 'One event, as delivered to webhooks', params: schemas.idParam() },
  }, async (req) => {
    const e = await events.get(req.scope, req.params.id);
    if (!e) throw errors.notFound('Event');
    return ok(presentEvent(e));
  });
}
