import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Config } from './config.js';
import { createDb, type Db } from './db/client.js';
import { migrate } from './db/migrate.js';
import { createLogger, type Logger } from './lib/logger.js';
import { createCommandRedis, redisKeys, type Redis } from './lib/redis.js';
import { createAccessService } from './modules/access/access.service.js';
import { createRateLimiter } from './modules/access/rate-limit.js';
import { createStamps } from './modules/access/stamps.js';
import { createApiKeysRepository } from './modules/api-keys/api-keys.repository.js';
import { createApiKeysService } from './modules/api-keys/api-keys.service.js';
import { createLastUsedTracker } from './modules/api-keys/last-used.js';
import { createUsageCounter } from './modules/api-keys/usage-counter.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createLoginThrottle } from './modules/auth/login-throttle.js';
import { createRefreshTokensRepository } from './modules/auth/refresh-tokens.repository.js';
import { createOrgsRepository } from './modules/orgs/orgs.repository.js';
import { createOrgsService } from './modules/orgs/orgs.service.js';
import { createProjectsRepository } from './modules/projects/projects.repository.js';
import { createProjectListCache } from './modules/projects/list-cache.js';
import { createProjectsService } from './modules/projects/projects.service.js';
import { createEventsRepository } from './modules/events/events.repository.js';
import type { AppDeps } from './http/app.js';
import { VERSION } from './version.js';
import { createQueues } from './jobs/queues.js';
import { createSecretBox } from './lib/crypto.js';
import { createBlobStore } from './storage/index.js';
import { createDocumentsModule } from './modules/documents/index.js';
import { createTemplatesRepository } from './modules/templates/templates.repository.js';
import { createTemplatesService } from './modules/templates/templates.service.js';
import { registerDocumentRoutes } from './http/routes/documents/index.js';
import { registerTemplateRoutes } from './http/routes/templates/index.js';
import type { ExtraRoutes } from './http/routes/extra.js';
import type { EmbedderLoader } from './pipeline/embed/index.js';
import { createMailModule, type MailModuleOptions } from './modules/integrations/mailbox/index.js';
import { createSheetsModule, type SheetsModuleOptions } from './modules/integrations/sheets/index.js';
import { createWebhooksModule, type WebhooksModuleOptions } from './modules/webhooks/index.js';
import { createWorkflowsModule, type WorkflowsModuleOptions } from './modules/workflows/index.js';
import { registerWorkflowRoutes } from './http/routes/workflows/index.js';

export interface CreateDepsOptions {
  /** An already open database (tests); otherwise opened from config. */
  db?: Db;
  /** Redis URL to use instead of config.REDIS_URL (the all-in-one process passes its managed one). */
  redisUrl?: string;
  logger?: Logger;
  /** Run migrations on open (default true). */
  migrate?: boolean;
  /** Embedded database held by another process: wait this long for it, ms (default 0). */
  dbLockWaitMs?: number;
  /** Embedding model loader (tests pass one pointed at a generated tiny model). */
  embedder?: EmbedderLoader;
  /** Mail poller tuning (tests shorten intervals). */
  mail?: MailModuleOptions;
  /** Sheets export tuning (tests shorten flush windows, inject clients). */
  sheets?: SheetsModuleOptions;
  /** Webhook delivery tuning (tests pass no jitter, short intervals). */
  webhooks?: WebhooksModuleOptions;
  /** Workflow engine tuning (tests shorten locks and sweeps). */
  workflows?: WorkflowsModuleOptions;
}

export type Deps = Awaited<ReturnType<typeof createDeps>>;

/** `lockWaitMs`: how long to wait for another process holding the embedded database (default 0: refuse at once). */
export async function openDatabase(config: Config, opts: { lockWaitMs?: number } = {}): Promise<Db> {
  if (config.DATABASE_URL) return createDb({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE });
  const dir = join(config.dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  return createDb({ pgliteDir: dir, lockWaitMs: opts.lockWaitMs });
}

/** The one place that wires database, Redis and services together. */
export async function createDeps(config: Config, opts: CreateDepsOptions = {}) {
  const logger = opts.logger ?? createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const db = opts.db ?? (await openDatabase(config, { lockWaitMs: opts.dbLockWaitMs }));
  if (opts.migrate !== false) await migrate(db);
  const redisUrl = opts.redisUrl ?? config.REDIS_URL;
  if (!redisUrl) throw new Error('No Redis URL: set REDIS_URL or use `docpipe start`, which runs a private redis-server');
  const redis: Redis = createCommandRedis(redisUrl);
  const keys = redisKeys(config.REDIS_PREFIX);
  const stamps = createStamps(redis, keys);
  const limiter = createRateLimiter(redis);
  const queues = createQueues({ redis, redisUrl, prefix: config.REDIS_PREFIX });
  const secretBox = createSecretBox(config.ENCRYPTION_KEY);

  const repos = {
    orgs: createOrgsRepository(db),
    apiKeys: createApiKeysRepository(db),
    refreshTokens: createRefreshTokensRepository(db),
    projects: createProjectsRepository(db),
    events: createEventsRepository(db),
  };
  // Modules that react to new outbox events (the webhook relay) register here.
  const eventListeners: (() => void)[] = [];
  const onEvent = () => { for (const l of eventListeners) l(); };
  const blobs = createBlobStore(config);
  const documents = createDocumentsModule({ config, db, queues, logger, blobs, projects: repos.projects, onEvent, embedder: opts.embedder });
  const templatesRepo = createTemplatesRepository(db);
  const templates = createTemplatesService({ repo: templatesRepo, trace: { documents: documents.docs, templates: templatesRepo } });
  const extraRoutes: ExtraRoutes = [];
  const mail = createMailModule({ db, redis, secretBox, config, logger, intake: documents.intake, projects: repos.projects }, opts.mail);
  extraRoutes.push((api) => mail.registerRoutes(api));
  const webhooks = createWebhooksModule({ db, redis, queues, secretBox, config, logger }, opts.webhooks);
  eventListeners.push(webhooks.relay.nudge);
  extraRoutes.push((api) => webhooks.registerRoutes(api));
  const sheets = createSheetsModule({ db, queues, secretBox, logger, config, documents, repos }, opts.sheets);
  extraRoutes.push((api) => sheets.registerRoutes(api));
  const workflows = createWorkflowsModule({
    db, redis, queues, secretBox, logger, keys, config, documents, projects: repos.projects,
    sheets: sheets.workflowExport, deliveries: webhooks.deliveries, onEvent,
  }, opts.workflows);
  webhooks.relay.addConsumer(workflows.fanOut);
  extraRoutes.push((api) => registerWorkflowRoutes(api, workflows.service));
  const lastUsed = createLastUsedTracker(repos.apiKeys, 30_000, (err) => logger.warn({ err }, 'could not record API key use'));
  const usage = createUsageCounter(db, { onError: (err) => logger.warn({ err }, 'could not record API usage') });
  const services = {
    orgs: createOrgsService({ db, repo: repos.orgs, stamps }),
    auth: createAuthService({ db, orgs: repos.orgs, refreshTokens: repos.refreshTokens, stamps, jwtSecret: config.JWT_SECRET }),
    apiKeys: createApiKeysService({ repo: repos.apiKeys, stamps }),
    projects: createProjectsService({
      db, repo: repos.projects, documents: { deleteAllInProject: (scope, id) => documents.service.deleteAllInProject(scope, id) },
      stamps, listCache: config.PROJECT_LIST_CACHE_SECONDS > 0 ? createProjectListCache({ maxAgeMs: config.PROJECT_LIST_CACHE_SECONDS * 1000 }) : undefined, logger,
    }),
    templates,
    access: createAccessService({
      orgs: repos.orgs, apiKeys: repos.apiKeys, refreshTokens: repos.refreshTokens, stamps, limiter, keys,
      jwtSecret: config.JWT_SECRET, planLimits: { enterprise: config.ENTERPRISE_RATE_LIMIT_PER_MINUTE }, onKeyUsed: lastUsed.mark, onRequest: usage.count,
      failedLookupsPerMinute: config.FAILED_AUTH_PER_IP_PER_MINUTE, dashboardPerMinute: config.DASHBOARD_RATE_LIMIT_PER_MINUTE,
    }),
  };

  const loginThrottle = createLoginThrottle(redis, (email) => keys.rate(`login-delay:${email}`));
  const appDeps = (): AppDeps => ({
    logger, access: services.access, auth: services.auth, loginThrottle, orgs: repos.orgs, apiKeys: services.apiKeys,
    projects: services.projects, events: repos.events, redisKeys: keys, trustProxy: config.TRUST_PROXY, maxUploadBytes: config.MAX_UPLOAD_MB * 1024 * 1024,
    health: {
      db: () => db.ping(), redis: async () => { await redis.ping(); }, version: VERSION,
      components: () => {
        const e = documents.embedder.status();
        return { embeddings: { status: e.state === 'ready' ? 'ok' : e.state, model: e.modelId, ...(e.reason ? { reason: e.reason } : {}) } };
      },
    },
    extra: [
      (api) => registerDocumentRoutes(api, {
        documents: documents.service, intake: documents.intake, projects: services.projects, maxUploadBytes: config.MAX_UPLOAD_MB * 1024 * 1024,
        documentExports: (scope, id) => sheets.exportsForDocument(scope, id), activity: documents.activity,
      }),
      (api) => registerTemplateRoutes(api, templates),
      ...extraRoutes,
    ],
  });

  return {
    config, logger, db, redis, redisUrl, keys, stamps, limiter, queues, secretBox, repos, services, lastUsed, usage, appDeps,
    blobs, documents, templates, mail, sheets, webhooks, workflows, eventListeners, extraRoutes, onEvent,
    async close() {
      await lastUsed.stop();
      await usage.stop();
      await documents.close();
      await workflows.close();
      await queues.close();
      redis.disconnect();
      await blobs.close?.();
      if (!opts.db) await db.close();
    },
  };
}
