import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';
import multipart from '@fastify/multipart';
import type { Deps } from '../container.js';
import type { Logger } from '../lib/logger.js';
import { newId } from '../lib/ids.js';
import { VERSION } from '../version.js';
import { installErrorHandler } from './error-handler.js';
import { lazyChildLoggerFactory } from './lazy-child-logger.js';
import { validatorCompiler } from './validation.js';
import { installAuth, API_PREFIX } from './plugins/auth.js';
import { installNotFound } from './plugins/not-found.js';
import { installDashboard, loadDashboard, wantsApp } from './plugins/dashboard.js';
import { packageRoot } from '../lib/package-root.js';
import { join } from 'node:path';
import { installInputGuard } from './plugins/input-guard.js';
import { installIdempotency } from './plugins/idempotency.js';
import { JSON_BODY_LIMIT, MULTIPART_LIMITS } from './limits.js';
import type { IdempotencyService } from '../modules/idempotency/index.js';
import { installOpenApi } from './plugins/openapi.js';
import { installHttpMetrics, type HttpMetricsOptions } from './plugins/metrics.js';
import { errors } from '../lib/errors.js';
import { registerRoutes, type RouteDeps } from './routes/index.js';
import './types.js';

export interface AppDeps extends RouteDeps {
  logger: Logger;
  /** Fastify's trustProxy: true, a hop count, or a comma list of addresses/CIDRs. */
  trustProxy?: string;
  /** Log a line per request at info (on) or debug (off). */
  logRequests?: boolean;
  /** Folder of the built dashboard; default `dist/web` in the package. */
  webDir?: string;
  /** Request metrics, and GET /metrics when a token is given. */
  metrics?: HttpMetricsOptions;
  /** Idempotency-Key on authenticated POSTs (off when absent). */
  idempotency?: IdempotencyService;
}

/** What the HTTP layer takes from the container (tests replace single entries). */
export function appDepsFrom(deps: Deps): AppDeps {
  const { services, documents } = deps;
  return {
    logger: deps.logger,
    trustProxy: deps.config.TRUST_PROXY,
    maxUploadBytes: deps.config.MAX_UPLOAD_MB * 1024 * 1024,
    access: services.access,
    auth: services.auth,
    loginThrottle: services.loginThrottle,
    apiKeys: services.apiKeys,
    projects: services.projects,
    templates: services.templates,
    events: deps.repos.events,
    redisKeys: deps.keys,
    documents: documents.service,
    search: deps.search.service,
    intake: documents.intake,
    documentExports: (scope, id) => deps.sheets.exportsForDocument(scope, id),
    activity: documents.activity,
    webhooks: deps.webhooks.service,
    mailboxes: deps.mail.service,
    sheets: { connections: deps.sheets.connections, exports: deps.sheets.exports },
    workflows: deps.workflows.service,
    reports: deps.reports.service,
    members: services.members,
    pipeline: services.pipeline,
    setup: services.setup,
    idempotency: services.idempotency,
    // With METRICS_PORT the metrics stay off this port (the separate listener serves them).
    metrics: {
      metrics: deps.metrics,
      token: deps.config.METRICS_PORT === undefined ? deps.config.METRICS_TOKEN : undefined,
    },
    health: {
      db: () => deps.db.ping(),
      redis: async () => {
        await deps.redis.ping();
      },
      version: VERSION,
      components: () => {
        const e = documents.embedder.status();
        return {
          embeddings: {
            status: e.state === 'ready' ? 'ok' : e.state,
            model: e.modelId,
            ...(e.reason ? { reason: e.reason } : {}),
          },
          // How semantic search and similar documents find vectors: pgvector's HNSW index, or
          // the sign-bit prefilter with an exact rerank (see docs/documents.md, "Search and near-duplicates").
          search: (() => {
            const v = deps.search.vectors.status();
            return {
              status: 'ok',
              vector_index: v.backend,
              ...(v.backend === 'hnsw' ? { dimensions: v.dimensions } : {}),
              ...(v.reason ? { reason: v.reason } : {}),
            };
          })(),
        };
      },
    },
  };
}

function parseTrustProxy(
  v: string | undefined,
): boolean | string | ((addr: string, hop: number) => boolean) | undefined {
  if (v === undefined || v === '' || v === 'false') return undefined;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_addr, hop) => hop < hops;
  }
  return v;
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,64}$/;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Our own onResponse hook writes one line per request; Fastify's two lines are off.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
    trustProxy: parseTrustProxy(deps.trustProxy),
    bodyLimit: JSON_BODY_LIMIT,
    // A client-supplied X-Request-Id is kept when it is sane, so traces join up across services.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : newId('req');
    },
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { removeAdditional: false } },
  });
  app.setValidatorCompiler(validatorCompiler);

  // Bodies are JSON (or multipart uploads): Fastify's built-in text/plain parser would hand a
  // string to JSON routes and turn a wrong Content-Type into a schema error instead of a 415.
  app.removeContentTypeParser('text/plain');
  // Empty JSON bodies are treated as "no body" so POST /x/archive with a JSON content type works.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = new Error('Body is not valid JSON') as Error & { statusCode: number; code: string };
      err.statusCode = 400;
      err.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      done(err, undefined);
    }
  });

  // These two run on every request: callback style, so no promise is made for them.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    // A fragment is never part of a request target (RFC 9110 §7.1); the router would cut the path
    // at it. Refused rather than guessed at.
    if (req.url.includes('#'))
      return done(errors.validation('The request target must not contain "#" (encode it as %23)'));
    done();
  });
  const logAt = deps.logRequests === false ? 'debug' : 'info';
  app.addHook('onResponse', (req, reply, done) => {
    // Skip building the line when the level is off (pino loggers can tell).
    if ((req.log as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled?.(logAt) !== false) {
      req.log[logAt](
        { method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    }
    done();
  });

  installErrorHandler(app);
  if (deps.metrics) installHttpMetrics(app, deps.metrics);
  await app.register(multipart, { limits: { fileSize: deps.maxUploadBytes, ...MULTIPART_LIMITS } });
  await installOpenApi(app);
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, staticCSP: true });

  const serveApp = installDashboard(app, loadDashboard(deps.webDir ?? join(packageRoot(), 'dist', 'web')));
  installNotFound(app, { wants: wantsApp, serve: serveApp });
  installAuth(app, deps.access);
  installInputGuard(app);
  if (deps.idempotency) installIdempotency(app, deps.idempotency);
  await app.register(async (api) => registerRoutes(api, deps), { prefix: API_PREFIX });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  return app;
}
