// Shared pieces of the security suite: the real app listening on a socket (raw request targets
// must reach Node's HTTP parser exactly as written, which app.inject and URL-normalising clients
// would not do), a recorder of which route each authenticated request reached, and a raw
// HTTP/1.1 client.
import { connect } from 'node:net';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createDeps, type Deps } from '../../src/container.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/lib/logger.js';
import type { Config } from '../../src/config.js';
import { testConfig } from '../helpers/app.js';
import { createTestDb, type DbKind, type TestDb } from '../helpers/db.js';

/** A request that got past authentication and the key's restrictions, and the route it reached. */
export interface Reached {
  method: string;
  /** The matched route pattern, e.g. /api/v1/projects/:id/stats. */
  route: string;
  params: Record<string, string>;
  rawUrl: string;
}

export interface SecurityApp {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  testDb: TestDb;
  port: number;
  /** Every authenticated request that passed the access checks, in order. */
  reached: Reached[];

  close(): Promise<void>;
}

/**
 * The whole app on 127.0.0.1 (a free port). The recorder is an onRequest hook added after the
 * auth hook, so it runs only for requests the access checks let through.
 */
export async function startSecurityApp(
  opts: { kind?: DbKind; env?: Record<string, string> } = {},
): Promise<SecurityApp> {
  const config = testConfig({ ENTERPRISE_RATE_LIMIT_PER_MINUTE: '1000000', ...opts.env });
  const testDb = await createTestDb(opts.kind ?? 'pglite');
  const deps = await createDeps(config, {
    db: testDb.db,
    redisUrl: inject('redisUrl'),
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
  });
  const app = await buildApp(appDepsFrom(deps));
  const reached: Reached[] = [];
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.routeOptions.config?.auth) {
      reached.push({
        method: req.method,
        route: req.routeOptions.url ?? '',
        params: { ...(req.params as Record<string, string>) },
        rawUrl: req.url,
      });
    }
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    app,
    deps,
    config,
    testDb,
    port,
    reached,
    async close() {
      await app.close();
      await deps.close();
      await testDb.close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends one request with the target written byte for byte (no URL parsing or normalisation on
 * the way) and reads the answer until the server closes the connection.
 */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const sock = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`no answer to ${method} ${target}`));
    }, 10_000);
    sock.on('data', (c) => chunks.push(c));
    sock.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    sock.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const [head, ...rest] = text.split('\r\n\r\n');
      const lines = head.split('\r\n');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
      if (!m)
        return reject(new Error(`not an HTTP answer to ${method} ${target}: ${JSON.stringify(text.slice(0, 200))}`));
      const h: Record<string, string> = {};
      for (const l of lines.slice(1)) {
        const i = l.indexOf(':');
        if (i > 0) h[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(m[1]), headers: h, body: rest.join('\r\n\r\n') });
    });
    const all: Record<string, string> = { Host: '127.0.0.1', Connection: 'close', ...headers };
    if (body !== '' || method === 'POST' || method === 'PUT') all['Content-Length'] = String(Buffer.byteLength(body));
    const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(all)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n`;
    sock.write(Buffer.from(head + body, 'latin1'));
  });
}
