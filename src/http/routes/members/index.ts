import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { MembersService } from '../../../modules/orgs/members.service.js';
import { ROLES } from '../../../modules/orgs/orgs.types.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging, pagingQuery, type ListPaging } from '../../paging.js';

const TAGS = ['members'];
const PAGING: ListPaging = { canonical: 'offset', defaultSize: 50 };
const role = { type: 'string', enum: ROLES } as const;

function actor(req: FastifyRequest) {
  return { orgId: req.principal.orgId, userId: req.principal.userId, role: req.principal.role };
}

export function registerMemberRoutes(app: FastifyInstance, members: MembersService): void {
  // Params and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  // People belong to the organization, not to a mode: test-mode credentials may look, not change them.
  const admin = { auth: true, role: 'admin' as const, liveOnly: true };

  api.get(
    '/members',
    {
      config: { auth: true },
      schema: {
        tags: TAGS,
        summary: 'People of the organization and their roles',
        querystring: { type: 'object', additionalProperties: false, properties: pagingQuery(PAGING) },
      },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await members.list(actor(req), paging.limit, paging.offset);
      return answer(items, total);
    },
  );

  api.get(
    '/members/:id',
    { config: { auth: true }, schema: { tags: TAGS, summary: 'One member', params: schemas.idParam() } },
    async (req) => ok(await members.get(actor(req), req.params.id)),
  );

  api.post(
    '/members',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Add a person to the organization',
        description:
          'Without `password` a temporary password is generated and returned once (`temporary_password`) for you to hand over. Only an owner may add an owner.',
        body: {
          type: 'object',
          required: ['email', 'role'],
          additionalProperties: false,
          properties: {
            email: { type: 'string', format: 'email', maxLength: 320 },
            role,
            name: { type: 'string', minLength: 1, maxLength: 200 },
            password: { type: 'string', minLength: 8, maxLength: 1024 },
          },
        } as const,
      },
    },
    async (req, reply) => {
      reply.status(201);
      return ok(await members.add(actor(req), req.body), 'Member added');
    },
  );

  api.put(
    '/members/:id',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: "Change a member's role, name or activation (not your own role)",
        params: schemas.idParam(),
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: { role, is_active: { type: 'boolean' }, name: { type: ['string', 'null'], maxLength: 200 } },
        } as const,
      },
    },
    async (req) => ok(await members.update(actor(req), req.params.id, req.body), 'Member updated'),
  );

  api.delete(
    '/members/:id',
    {
      config: admin,
      schema: {
        tags: TAGS,
        summary: 'Remove a member (their sessions and API keys stop working)',
        params: schemas.idParam(),
      },
    },
    async (req) => ok(await members.remove(actor(req), req.params.id), 'Member removed'),
  );
}
