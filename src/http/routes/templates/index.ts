import type { FastifyInstance } from 'fastify';
import type { TemplatesService } from '../../../modules/templates/templates.service.js';
import { ok, offsetPage, schemas } from '../../envelope.js';

const TAGS = ['templates'];
const definition = {
  type: 'object', required: ['issuer', 'keywords', 'fields'], additionalProperties: true,
  description: 'invoice2data template semantics: name, issuer, keywords, exclude_keywords, priority, fields, lines, options, required_fields',
};
type Id = { Params: { id: string } };

export function registerTemplateRoutes(api: FastifyInstance, templates: TemplatesService): void {
  const auth = { auth: true };
  api.get<{ Querystring: { limit: number; offset: number } }>('/templates', {
    config: auth,
    schema: { tags: TAGS, summary: 'List extraction templates', querystring: { type: 'object', additionalProperties: false, properties: {
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, offset: { type: 'integer', minimum: 0, default: 0 } } } },
  }, async (req) => {
    const { items, total } = await templates.list(req.scope, req.query.limit, req.query.offset);
    return offsetPage(items, total, req.query.limit, req.query.offset);
  });
  api.post<{ Body: Record<string, unknown> }>('/templates', { config: auth, schema: { tags: TAGS, summary: 'Create a template', body: definition } },
    async (req, reply) => { reply.status(201); return ok(await templates.create(req.scope, req.body), 'Template created'); });
  api.post<{ Body: { yaml: string; name?: string } }>('/templates/import', {
    config: auth,
    schema: { tags: TAGS, summary: 'Import invoice2data-style YAML (one or more documents)', body: {
      type: 'object', required: ['yaml'], additionalProperties: false, properties: { yaml: { type: 'string', minLength: 1, maxLength: 262_144 }, name: { type: 'string', maxLength: 200 } } } },
  }, async (req, reply) => { reply.status(201); return ok(await templates.importYaml(req.scope, req.body.yaml, req.body.name), 'Templates imported'); });
  api.get<Id>('/templates/:id', { config: auth, schema: { tags: TAGS, summary: 'Get a template', params: schemas.idParam() } },
    async (req) => ok(await templates.get(req.scope, req.params.id)));
  api.put<Id & { Body: Record<string, unknown> }>('/templates/:id', { config: auth, schema: { tags: TAGS, summary: 'Replace a template (bumps its version)', params: schemas.idParam(), body: definition } },
    async (req) => ok(await templates.update(req.scope, req.params.id, req.body), 'Template updated'));
  api.delete<Id>('/templates/:id', { config: auth, schema: { tags: TAGS, summary: 'Delete a template', params: schemas.idParam() } },
    async (req) => ok(await templates.delete(req.scope, req.params.id), 'Template deleted'));
}
