import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { WebhooksService } from '../../../modules/webhooks/webhooks.service.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging } from '../../paging.js';
import {
  createBody,
  deliveriesQuery,
  listQuery,
  PAGING,
  recoverBody,
  rotateBody,
  TAGS,
  updateBody,
} from './schemas.js';

// Webhook management (and its delivery logs, which hold receivers' responses) is for admins and owners.
const admin = { auth: true, role: 'admin' as const };

export function registerWebhookRoutes(app: FastifyInstance, webhooks: WebhooksService): void {
  // Params, querystrings and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  api.post(
    '/webhooks',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Create a subscription; the secret is returned only in this response',
        body: createBody,
      },
    },
    async (req, reply) => {
      reply.status(201);
      return ok(await webhooks.create(req.scope, req.body, req.principal.userId), 'Webhook created');
    },
  );

  api.get(
    '/webhooks',
    {
      config: admin,
      schema: { tags: TAGS, summary: 'List subscriptions of the caller’s environment', querystring: listQuery },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await webhooks.list(req.scope, {
        ...req.query,
        limit: paging.limit,
        offset: paging.offset,
      });
      return answer(items, total);
    },
  );

  api.get(
    '/webhooks/:id/deliveries',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Deliveries of a subscription, newest first',
        params: schemas.idParam(),
        querystring: deliveriesQuery,
      },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await webhooks.listDeliveries(req.scope, req.params.id, {
        ...req.query,
        limit: paging.limit,
        offset: paging.offset,
      });
      return answer(items, total);
    },
  );

  api.get(
    '/webhooks/deliveries/:id',
    {
      config: admin,
      schema: { tags: TAGS, summary: 'One delivery with its payload and every attempt', params: schemas.idParam() },
    },
    async (req) => ok(await webhooks.getDelivery(req.scope, req.params.id)),
  );

  api.post(
    '/webhooks/deliveries/:id/resend',
    {
      config: admin,
      schema: { tags: TAGS, summary: 'Send a delivery again now (one attempt)', params: schemas.idParam() },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await webhooks.resend(req.scope, req.params.id), 'Delivery queued');
    },
  );

  api.get(
    '/webhooks/:id',
    { config: admin, schema: { tags: TAGS, summary: 'Get a subscription', params: schemas.idParam() } },
    async (req) => ok(await webhooks.get(req.scope, req.params.id)),
  );

  api.put(
    '/webhooks/:id',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Update url, events, description or status (active | disabled)',
        params: schemas.idParam(),
        body: updateBody,
      },
    },
    async (req) => ok(await webhooks.update(req.scope, req.params.id, req.body ?? {}), 'Webhook updated'),
  );

  api.delete(
    '/webhooks/:id',
    {
      config: admin,
      schema: { tags: TAGS, summary: 'Delete a subscription and its delivery history', params: schemas.idParam() },
    },
    async (req) => ok(await webhooks.remove(req.scope, req.params.id), 'Webhook deleted'),
  );

  api.post(
    '/webhooks/:id/enable',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Re-enable a failing or disabled subscription; suspended deliveries are sent',
        params: schemas.idParam(),
      },
    },
    async (req) => {
      const sub = await webhooks.enable(req.scope, req.params.id);
      return ok(sub, `Webhook enabled; ${sub.released_deliveries} suspended deliveries queued`);
    },
  );

  api.post(
    '/webhooks/:id/rotate-secret',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Replace the secret; the old one keeps signing for the grace period (default 24 h)',
        params: schemas.idParam(),
        body: rotateBody,
      },
    },
    async (req) => ok(await webhooks.rotateSecret(req.scope, req.params.id, req.body ?? {}), 'Secret rotated'),
  );

  api.post(
    '/webhooks/:id/test',
    {
      config: admin,
      schema: { tags: TAGS, summary: 'Send a webhook.test event to this subscription', params: schemas.idParam() },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await webhooks.sendTest(req.scope, req.params.id), 'Test event queued');
    },
  );

  api.post(
    '/webhooks/:id/recover',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Re-send the deliveries that failed in a window of at most 14 days',
        params: schemas.idParam(),
        body: recoverBody,
      },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await webhooks.recover(req.scope, req.params.id, req.body), 'Failed deliveries queued');
    },
  );
}
