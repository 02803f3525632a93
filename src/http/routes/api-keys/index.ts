import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { ApiKeysService } from '../../../modules/api-keys/api-keys.service.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging, pagingQuery, type ListPaging } from '../../paging.js';

const strList = (max: number) =>
  ({
    type: 'array',
    maxItems: max,
    items: { type: 'string', minLength: 1, maxLength: 200 },
  }) as const;
const limitField = { type: ['integer', 'null'], minimum: 1, maximum: 10_000_000 } as const;
const TAGS = ['api-keys'];
// The contract: limit (default 50, at most 100) and offset.
const PAGING: ListPaging = { canonical: 'offset', defaultSize: 50 };

export function registerApiKeyRoutes(app: FastifyInstance, keys: ApiKeysService): void {
  // Params and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  const admin = { auth: true, role: 'admin' as const };

  api.get(
    '/api-keys',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'List API keys (secrets masked)',
        querystring: { type: 'object', additionalProperties: false, properties: pagingQuery(PAGING) },
      },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await keys.list(req.scope, paging.limit, paging.offset);
      return answer(items, total);
    },
  );

  api.post(
    '/api-keys',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Create an API key; the response shows the secret once (`key`)',
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 200 },
            environment: { type: 'string', enum: ['live', 'test'] },
            rate_limit_per_minute: { type: 'integer', minimum: 1, maximum: 1_000_000 },
            rate_limit_per_day: { type: 'integer', minimum: 1, maximum: 100_000_000 },
            expires_in_days: { type: 'integer', minimum: 1, maximum: 3650 },
            allowed_ips: strList(100),
            allowed_endpoints: strList(100),
            metadata: { type: 'object', additionalProperties: true },
          },
        } as const,
      },
    },
    async (req, reply) => {
      const created = await keys.create(
        { ...req.scope, userId: req.principal.userId, callerKeyId: req.principal.apiKey?.id },
        req.body,
      );
      reply.status(201);
      return ok(created, 'API key created; store the key now, it will not be shown again');
    },
  );

  api.get(
    '/api-keys/:api_key_id',
    {
      config: admin,
      schema: { tags: TAGS, summary: 'Get an API key', params: schemas.idParam('api_key_id') },
    },
    async (req) => ok(await keys.get(req.scope, req.params.api_key_id)),
  );

  api.put(
    '/api-keys/:api_key_id',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Update an API key',
        params: schemas.idParam('api_key_id'),
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 200 },
            is_active: { type: 'boolean' },
            rate_limit_per_minute: limitField,
            rate_limit_per_day: limitField,
            allowed_ips: strList(100),
          },
        } as const,
      },
    },
    async (req) =>
      ok(
        await keys.update(req.scope, req.params.api_key_id, req.body ?? {}, req.principal.apiKey?.id),
        'API key updated',
      ),
  );

  api.delete(
    '/api-keys/:api_key_id',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Revoke an API key (takes effect on the next request)',
        params: schemas.idParam('api_key_id'),
      },
    },
    async (req) => ok(await keys.revoke(req.scope, req.params.api_key_id), 'API key revoked'),
  );
}
