import type { FastifyInstance } from 'fastify';
import { errors } from '../../../lib/errors.js';
import { ok } from '../../envelope.js';
import { describe } from '../../openapi-shapes.js';

export interface HealthChecks {
  db(): Promise<void>;
  redis(): Promise<void>;
  /** Optional parts that may be degraded without making the service unready (e.g. embeddings). */
  components?(): Record<string, { status: string; reason?: string }>;
  version: string;
}

export function registerSystemRoutes(api: FastifyInstance, health: HealthChecks): void {
  api.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness',
        security: [],
        ...describe({
          data: {
            type: 'object',
            required: ['status', 'version'],
            properties: { status: { type: 'string', const: 'ok' }, version: { type: 'string' } },
          },
          example: { status: 'ok', version: '0.1.0' },
        }),
      },
    },
    async () => ok({ status: 'ok', version: health.version }),
  );

  const check = {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string' }, ms: { type: 'integer' }, reason: { type: 'string' } },
    additionalProperties: true,
  };
  api.get(
    '/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: database and Redis',
        security: [],
        ...describe({
          data: {
            type: 'object',
            required: ['status', 'components'],
            properties: {
              status: { type: 'string', const: 'ready' },
              components: { type: 'object', additionalProperties: check },
            },
          },
          example: {
            status: 'ready',
            components: {
              database: { status: 'ok', ms: 2 },
              redis: { status: 'ok', ms: 1 },
              embeddings: { status: 'ok', model: 'Xenova/all-MiniLM-L6-v2' },
            },
          },
          errors: { 503: 'The database or Redis does not answer; `details` has each component' },
        }),
      },
    },
    async () => {
      const check = async (fn: () => Promise<void>) => {
        const started = Date.now();
        try {
          await Promise.race([
            fn(),
            new Promise((_, rej) => setTimeout(() => rej(new Error('timed out after 2 s')), 2000).unref()),
          ]);
          return { status: 'ok', ms: Date.now() - started };
        } catch (err) {
          return { status: 'error', ms: Date.now() - started, reason: (err as Error).message };
        }
      };
      const [database, redis] = await Promise.all([check(health.db), check(health.redis)]);
      const components = { database, redis, ...(health.components?.() ?? {}) };
      if (database.status !== 'ok' || redis.status !== 'ok') {
        throw errors.unavailable('Not ready', components);
      }
      return ok({ status: 'ready', components });
    },
  );
}
