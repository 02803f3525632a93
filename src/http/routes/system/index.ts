import type { FastifyInstance } from 'fastify';
import { errors } from '../../../lib/errors.js';
import { ok } from '../../envelope.js';

export interface HealthChecks {
  db(): Promise<void>;
  redis(): Promise<void>;
  /** Optional parts that may be degraded without making the service unready (e.g. embeddings). */
  components?(): Record<string, { status: string; reason?: string }>;
  version: string;
}

export function registerSystemRoutes(api: FastifyInstance, health: HealthChecks): void {
  api.get('/health', { schema: { tags: ['system'], summary: 'Liveness', security: [] } }, async () =>
    ok({ status: 'ok', version: health.version }),
  );

  api.get('/ready', { schema: { tags: ['system'], summary: 'Readiness: database and Redis', security: [] } }, async () => {
    const check = async (fn: () => Promise<void>) => {
      const started = Date.now();
      try {
        await Promise.race([fn(), new Promise((_, rej) => setTimeout(() => rej(new Error('timed out after 2 s')), 2000).unref())]);
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
  });
}
