// Vitest global setup: make sure a Redis is reachable for the whole run, and train the built-in
// classifier once into the shared test cache (several seconds of CPU when its samples or
// algorithm changed) before test files start servers side by side.
// With TEST_REDIS_URL set (CI points it at the machine's Redis) that one is used;
// otherwise a private redis-server is started on a free port, as on a newcomer's machine.
import type { TestProject } from 'vitest/node';
import { primeBuiltinClassifier } from './classifier-cache.js';
import { startPrivateRedis, type PrivateRedis } from './redis-server.js';

let priv: PrivateRedis | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let url = process.env.TEST_REDIS_URL;
  if (!url) {
    priv = await startPrivateRedis();
    url = priv.url;
  }
  project.provide('redisUrl', url);
  project.provide('databaseUrl', process.env.TEST_DATABASE_URL ?? '');
  await primeBuiltinClassifier();
  return async () => {
    await priv?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    databaseUrl: string;
  }
}
