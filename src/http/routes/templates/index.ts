import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { TemplatesService } from '../../../modules/templates/templates.service.js';
import { ok, schemas } from '../../envelope.js';
import { listPaging, pagingQuery, type ListPaging } from '../../paging.js';

const TAGS = ['templates'];
const PAGING: ListPaging = { canonical: 'offset' };
const definition = {
  type: 'object',
  required: ['issuer', 'keywords', 'fields'],
  additionalProperties: true,
  // Checked in depth by the template validator; named here so the document lists them.
  properties: {
    issuer: { description: 'Issuer name' },
    keywords: { description: 'Keywords (string or list) that select the template' },
    fields: { description: 'Field name → regex or field definition' },
  },
  description:
    'invoice2data template semantics: name, issuer, keywords, exclude_keywords, priority, fields, lines, options, required_fields',
} as const;

export function registerTemplateRoutes(app: FastifyInstance, templates: TemplatesService): void {
  // Params and bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  const auth = { auth: true };
  api.get(
    '/templates',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'List extraction templates',
        querystring: { type: 'object', additionalProperties: false, properties: pagingQuery(PAGING) },
      },
    },
    async (req) => {
      const { paging, answer } = listPaging(req, PAGING);
      const { items, total } = await templates.list(req.scope, paging.limit, paging.offset);
      return answer(items, total);
    },
  );
  api.post(
    '/templates',
    { config: auth, schema: { tags: TAGS, summary: 'Create a template', body: definition } },
    async (req, reply) => {
      reply.status(201);
      return ok(await templates.create(req.scope, req.body), 'Template created');
    },
  );
  api.post(
    '/templates/import',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Import invoice2data templates (YAML or JSON; one text or several files)',
        description:
          "All or nothing. `yaml` is one file's text (YAML or JSON, one or more templates); `files` imports several at once, each named (the name is used for templates without `name`). With `dry_run` nothing is stored: the validated templates and their warnings come back with 200. Each result lists `warnings` for what invoice2data would ignore too.",
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            yaml: { type: 'string', minLength: 1, maxLength: 262_144 },
            name: { type: 'string', maxLength: 200 },
            files: {
              type: 'array',
              minItems: 1,
              maxItems: 50,
              items: {
                type: 'object',
                required: ['name', 'content'],
                additionalProperties: false,
                properties: {
                  name: { type: 'string', minLength: 1, maxLength: 200 },
                  content: { type: 'string', minLength: 1, maxLength: 262_144 },
                },
              },
            },
            dry_run: { type: 'boolean', default: false },
          },
          oneOf: [{ required: ['yaml'] }, { required: ['files'] }],
        } as const,
      },
    },
    async (req, reply) => {
      const files = req.body.files ?? [{ name: req.body.name ?? '', content: req.body.yaml ?? '' }];
      const out = await templates.importFiles(req.scope, files, { dryRun: req.body.dry_run });
      reply.status(req.body.dry_run ? 200 : 201);
      return ok(out, req.body.dry_run ? 'Templates validated; nothing stored' : 'Templates imported');
    },
  );
  api.get(
    '/documents/:id/template-trace',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Why templates did or did not apply to a document',
        params: schemas.idParam(),
        description:
          "Evaluates every template of the organisation now against the document's template text (the PDF's pdftotext-style layout text): which keywords and exclude keywords hit, why each template did not match, and for the template that applies each field's outcome (ok, no_match, empty, failed with the reason), the values, missing required fields and warnings. `extracted_with` names the template used when the document was last extracted.",
      },
    },
    async (req) => ok(await templates.trace(req.scope, req.params.id)),
  );
  api.post(
    '/templates/test',
    {
      // Reads only: whoever may read documents and templates may try one.
      config: { auth: true, role: 'viewer' },
      schema: {
        tags: TAGS,
        summary: 'Run one template (saved, or a definition being edited) against a document; nothing is stored',
        description:
          "Give `template_id` or `template` (a definition, validated as a save would be). The answer says whether its keywords match and, either way, each field's outcome and value.",
        body: {
          type: 'object',
          required: ['document_id'],
          additionalProperties: false,
          properties: {
            document_id: { type: 'string', minLength: 1, maxLength: 64 },
            template_id: { type: 'string', minLength: 1, maxLength: 64 },
            // Any object (validated by the template validator); spelled out so the generated
            // type is an open object, not an empty one.
            template: { type: 'object', additionalProperties: true },
          },
        } as const,
      },
    },
    async (req) => ok(await templates.test(req.scope, req.body.document_id, req.body)),
  );
  api.post(
    '/templates/learn',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: "Learn a template from a document's corrected fields",
        description:
          "Builds an invoice2data-compatible template from the document's current fields (as corrected with PATCH /documents/{id}): keywords from the issuer's stable text (its name, a tax or company id; never dates or amounts), one regex per field anchored on the nearest label, each field's type and date format. The template is stored like an imported one and applies to the issuer's later documents. Fields a person confirmed must be found in the text (422 names each one that is not); machine values that are not found are left out and listed in `skipped_fields`.",
        body: {
          type: 'object',
          required: ['document_id'],
          additionalProperties: false,
          properties: {
            document_id: { type: 'string', minLength: 1, maxLength: 64 },
            name: { type: 'string', minLength: 1, maxLength: 200 },
          },
        } as const,
      },
    },
    async (req, reply) => {
      const out = await templates.learn(req.scope, req.body);
      reply.status(201);
      return ok(out, 'Template learned');
    },
  );
  api.get(
    '/templates/:id',
    { config: auth, schema: { tags: TAGS, summary: 'Get a template', params: schemas.idParam() } },
    async (req) => ok(await templates.get(req.scope, req.params.id)),
  );
  api.put(
    '/templates/:id',
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Replace a template (bumps its version)',
        params: schemas.idParam(),
        body: definition,
      },
    },
    async (req) => ok(await templates.update(req.scope, req.params.id, req.body), 'Template updated'),
  );
  api.delete(
    '/templates/:id',
    { config: auth, schema: { tags: TAGS, summary: 'Delete a template', params: schemas.idParam() } },
    async (req) => ok(await templates.delete(req.scope, req.params.id), 'Template deleted'),
  );
}
