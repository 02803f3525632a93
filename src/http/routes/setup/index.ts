// First-run setup: GET tells the dashboard whether to offer "Create the owner account";
// POST creates the first organization and its owner (201), 409 once any user exists.
import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { RedisKeys } from '../../../lib/redis.js';
import type { AccessService } from '../../../modules/access/access.service.js';
import type { SetupService } from '../../../modules/setup/setup.service.js';
import { ok } from '../../envelope.js';

// Guesses at the setup token are limited per client IP, like logins.
const SETUP_PER_IP = 10;

export function registerSetupRoutes(
  app: FastifyInstance,
  deps: { setup: SetupService; access: Pick<AccessService, 'limitAnonymous'>; redisKeys: RedisKeys },
): void {
  // The body is typed from its JSON schema (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  api.get(
    '/setup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether this installation still needs its owner account',
        security: [],
      },
    },
    async (req, reply) => {
      // It reads the database: limited per client IP like the other unauthenticated routes.
      reply.headers(
        await deps.access.limitAnonymous([
          { name: 'setup-ip', key: deps.redisKeys.rate(`setup-status:ip:${req.ip}`), limit: 60, windowSec: 60 },
        ]),
      );
      return ok(await deps.setup.status());
    },
  );

  api.post(
    '/setup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create the first organization and its owner',
        security: [],
        body: {
          type: 'object',
          required: ['email', 'password', 'organization_name'],
          additionalProperties: false,
          properties: {
            email: { type: 'string', format: 'email', maxLength: 320 },
            password: { type: 'string', minLength: 8, maxLength: 1024 },
            organization_name: { type: 'string', minLength: 1, maxLength: 200 },
            token: { type: 'string', minLength: 1, maxLength: 200 },
          },
        } as const,
      },
    },
    async (req, reply) => {
      reply.headers(
        await deps.access.limitAnonymous([
          { name: 'setup-ip', key: deps.redisKeys.rate(`setup:ip:${req.ip}`), limit: SETUP_PER_IP, windowSec: 60 },
        ]),
      );
      const { user, orgId } = await deps.setup.complete(req.body);
      reply.code(201);
      return ok(
        {
          user: { id: user.id, email: user.email, role: user.role },
          organization: { id: orgId, name: req.body.organization_name },
        },
        'Owner account created: sign in with it',
      );
    },
  );
}
