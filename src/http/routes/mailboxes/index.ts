import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { MailboxService } from '../../../modules/integrations/mailbox/mailbox.service.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging } from '../../paging.js';
import { createBody, listQuery, messageParams, messagesQuery, PAGING, TAGS, updateBody } from './schemas.js';

// Mailbox settings hold credentials of someone's mail account: admins and owners only.
const admin = { auth: true, role: 'admin' as const };
const BASE = '/integrations/mailboxes';

export function registerMailboxRoutes(app: FastifyInstance, mailboxes: MailboxService): void {
  // Params, querystrings and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  api.post(
    BASE,
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Connect a mailbox; its attachments become documents of project_id',
        body: createBody,
      },
    },
    async (req, reply) => {
      reply.status(201);
      return ok(await mailboxes.create(req.scope, req.body, req.principal.userId), 'Mailbox created');
    },
  );

  api.get(
    BASE,
    {
      config: admin,
      schema: { tags: TAGS, summary: 'List mailboxes', querystring: listQuery },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await mailboxes.list(req.scope, paging.limit, paging.offset);
      return answer(items, total);
    },
  );

  api.get(
    `${BASE}/:id`,
    {
      config: admin,
      schema: { tags: TAGS, summary: 'Get a mailbox (status, last_error, last_checked_at)', params: schemas.idParam() },
    },
    async (req) => ok(await mailboxes.get(req.scope, req.params.id)),
  );

  api.put(
    `${BASE}/:id`,
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Update settings (any subset); clears an error so the poller retries at once',
        params: schemas.idParam(),
        body: updateBody,
      },
    },
    async (req) => ok(await mailboxes.update(req.scope, req.params.id, req.body ?? {}), 'Mailbox updated'),
  );

  api.delete(
    `${BASE}/:id`,
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Delete a mailbox and its message log (documents stay)',
        params: schemas.idParam(),
      },
    },
    async (req) => ok(await mailboxes.remove(req.scope, req.params.id), 'Mailbox deleted'),
  );

  api.post(
    `${BASE}/:id/test`,
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Connect, log in and look at the folder without consuming anything',
        params: schemas.idParam(),
      },
    },
    async (req) => {
      const res = await mailboxes.test(req.scope, req.params.id);
      return ok(res, res.ok ? 'Connection works' : 'Connection failed');
    },
  );

  api.get(
    `${BASE}/:id/messages`,
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'What happened to each message, newest first',
        params: schemas.idParam(),
        querystring: messagesQuery,
      },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await mailboxes.listMessages(req.scope, req.params.id, {
        ...req.query,
        limit: paging.limit,
        offset: paging.offset,
      });
      return answer(items, total);
    },
  );

  api.get(
    `${BASE}/:id/messages/:messageId`,
    {
      config: admin,
      schema: { tags: TAGS, summary: 'One message record', params: messageParams },
    },
    async (req) => ok(await mailboxes.getMessage(req.scope, req.params.id, req.params.messageId)),
  );

  api.post(
    `${BASE}/:id/messages/:messageId/retry`,
    {
      config: admin,
      schema: { tags: TAGS, summary: 'Process a failed or skipped message again now', params: messageParams },
    },
    async (req, reply) => {
      reply.status(202);
      return ok(await mailboxes.retryMessage(req.scope, req.params.id, req.params.messageId), 'Retry queued');
    },
  );
}
