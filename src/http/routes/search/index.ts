import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { DOCUMENT_STATUSES } from '../../../modules/documents/documents.types.js';
import { SEARCH_MODES, type SearchService } from '../../../modules/search/search.service.js';
import { ok, schemas } from '../../envelope.js';

const TAGS = ['search'];

export function registerSearchRoutes(app: FastifyInstance, search: SearchService): void {
  // Params and querystrings are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  api.get(
    '/documents/search',
    {
      config: { auth: true },
      schema: {
        tags: TAGS,
        summary: 'Search documents by words (full text), by meaning (embeddings), or both',
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['q'],
          properties: {
            q: {
              type: 'string',
              minLength: 1,
              maxLength: 500,
              pattern: '\\S',
              description: 'Words; "a phrase" in quotes, OR, -excluded, prefix*',
            },
            mode: {
              type: 'string',
              enum: [...SEARCH_MODES],
              description: 'Default: hybrid when an embedding model is loaded, else keyword',
            },
            project_id: { type: 'string', maxLength: 64 },
            classification: { type: 'string', maxLength: 64 },
            status: { type: 'string', enum: [...DOCUMENT_STATUSES] },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            offset: { type: 'integer', minimum: 0, maximum: 10_000, default: 0 },
          },
        } as const,
      },
    },
    async (req) => ok(await search.search(req.scope, req.query)),
  );

  api.get(
    '/documents/:id/similar',
    {
      config: { auth: true },
      schema: {
        tags: TAGS,
        summary: 'The nearest documents of the organization (by embedding, else by text similarity)',
        params: schemas.idParam(),
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } },
        } as const,
      },
    },
    async (req) => ok(await search.similar(req.scope, req.params.id, req.query.limit)),
  );
}
