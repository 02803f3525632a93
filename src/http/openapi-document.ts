// The OpenAPI document without a database or Redis (for `npm run openapi:*`): registering the
// routes only stores their handlers and schemas, so the services behind them are placeholders
// that fail loudly if anything ever calls one.
import type { FastifyInstance } from 'fastify';
import { createLogger } from '../lib/logger.js';
import { buildApp, type AppDeps } from './app.js';

function inert(path: string): unknown {
  const fail = () => {
    throw new Error(`${path} was called while building the OpenAPI document`);
  };
  return new Proxy(fail, {
    get: (_t, key) => (key === 'then' ? undefined : inert(`${path}.${String(key)}`)),
    apply: fail,
  });
}

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const deps = new Proxy(
    {
      logger: createLogger({ level: 'silent', pretty: false }),
      maxUploadBytes: 50 * 1024 * 1024,
      webDir: '/nonexistent',
      trustProxy: undefined,
      logRequests: false,
    } as Partial<AppDeps>,
    {
      get: (t, key) => (key in t ? t[key as keyof AppDeps] : inert(`deps.${String(key)}`)),
    },
  ) as AppDeps;
  const app: FastifyInstance = await buildApp(deps);
  await app.ready();
  const doc = app.swagger() as unknown as Record<string, unknown>;
  await app.close();
  return doc;
}
