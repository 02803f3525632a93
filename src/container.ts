// The composition root: the one place that opens the database and Redis and builds every
// repository and service, each given only what it uses. It registers no route and starts no
// worker: src/http/routes/index.ts registers every route from these services, and the table in
// workers/index.ts starts every worker from them.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Config } from './config.js';
import { createDb, type Db } from './db/client.js';
import { migrate } from './db/migrate.js';
import { queueRetrain } from './jobs/maintenance.js';
import { createQueues, type Queues } from './jobs/queues.js';
import { createSecretBox, type SecretBox } from './lib/crypto.js';
import { createLogger, type Logger } from './lib/logger.js';
import { createCommandRedis, effectivePrefix, redisKeys, type Redis, type RedisKeys } from './lib/redis.js';
import { createAccessService, type AccessService } from './modules/access/access.service.js';
import { createRateLimiter } from './modules/access/rate-limit.js';
import { createStamps, type Stamps } from './modules/access/stamps.js';
import { createApiKeysRepository, type ApiKeysRepository } from './modules/api-keys/api-keys.repository.js';
import { createApiKeysService, type ApiKeysService } from './modules/api-keys/api-keys.service.js';
import { createLastUsedTracker, type LastUsedTracker } from './modules/api-keys/last-used.js';
import { createUsageCounter, type UsageCounter } from './modules/api-keys/usage-counter.js';
import { createAuthService, type AuthService } from './modules/auth/auth.service.js';
import { createLoginThrottle, type LoginThrottle } from './modules/auth/login-throttle.js';
import {
  createRefreshTokensRepository,
  type RefreshTokensRepository,
} from './modules/auth/refresh-tokens.repository.js';
import { createDocumentsModule, type DocumentsModule } from './modules/documents/index.js';
import { createSearchModule, type SearchModule } from './modules/search/index.js';
import { createEventsModule, type EventsModule, type EventsModuleOptions } from './modules/events/index.js';
import { createEventsRepository, type EventsRepository } from './modules/events/events.repository.js';
import {
  createInboundModule,
  type InboundModule,
  type InboundModuleOptions,
} from './modules/integrations/inbound/index.js';
import { createWatchModule, type WatchModule } from './modules/integrations/watch/index.js';
import { createMailModule, type MailModule, type MailModuleOptions } from './modules/integrations/mailbox/index.js';
import {
  createSheetsModule,
  type SheetsModule,
  type SheetsModuleOptions,
} from './modules/integrations/sheets/index.js';
import { createOrgsRepository, type OrgsRepository } from './modules/orgs/orgs.repository.js';
import { createOrgsService, type OrgsService } from './modules/orgs/orgs.service.js';
import { createMembersRepository } from './modules/orgs/members.repository.js';
import { createMembersService, type MembersService } from './modules/orgs/members.service.js';
import { createPipelineControl, type PipelineControl } from './modules/pipeline-control/pipeline-control.service.js';
import { createProjectListCache } from './modules/projects/list-cache.js';
import { createProjectsRepository, type ProjectsRepository } from './modules/projects/projects.repository.js';
import { createProjectsService, type ProjectsService } from './modules/projects/projects.service.js';
import { createReportsModule, type ReportsModule, type ReportsModuleOptions } from './modules/reports/index.js';
import { createTemplatesRepository, type TemplatesRepository } from './modules/templates/templates.repository.js';
import {
  createIdempotencyRepository,
  createIdempotencyService,
  type IdempotencyService,
} from './modules/idempotency/index.js';
import { createTemplatesService, type TemplatesService } from './modules/templates/templates.service.js';
import { createWebhooksModule, type WebhooksModule, type WebhooksModuleOptions } from './modules/webhooks/index.js';
import { createSetupService, isLoopbackHost, setupToken, type SetupService } from './modules/setup/setup.service.js';
import { createWorkflowsModule, type WorkflowsModule, type WorkflowsModuleOptions } from './modules/workflows/index.js';
import { createMetrics, type Metrics } from './modules/metrics/index.js';
import type { EmbedderLoader } from './pipeline/embed/index.js';
import { createBlobStore, createReportFileStore } from './storage/index.js';
import type { BlobStore } from './storage/blob-store.js';

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
  /** SMTP receiver tuning (tests inject a DNS resolver, a port, hooks). */
  inbound?: InboundModuleOptions;
  /** Sheets export tuning (tests shorten flush windows, inject clients). */
  sheets?: SheetsModuleOptions;
  /** Outbox relay tuning (tests shorten its safety-net period). */
  events?: EventsModuleOptions;
  /** Webhook delivery tuning (tests pass no jitter, short intervals). */
  webhooks?: WebhooksModuleOptions;
  /** Workflow engine tuning (tests shorten locks and sweeps). */
  workflows?: WorkflowsModuleOptions;
  /** Reports tuning (tests shorten locks and sweeps). */
  reports?: ReportsModuleOptions;
}

/** Everything a process role needs, built once. */
export interface Deps {
  config: Readonly<Config>;
  logger: Logger;
  /** The database; its commits that wrote outbox events nudge the relay (events module). */
  db: Db;
  /** The command connection (producers, rate limits, stamps); workers open their own. */
  redis: Redis;
  redisUrl: string;
  keys: RedisKeys;
  stamps: Stamps;
  queues: Queues;
  secretBox: SecretBox;
  blobs: BlobStore;
  /** Report result files (a store of their own, swept against report executions only). */
  reportFiles: BlobStore;
  /** The outbox and its relay (worker role `events`); webhooks, workflows and Sheets exports consume it. */
  events: EventsModule;
  /** This process's Prometheus metrics (served per METRICS_TOKEN / METRICS_PORT). */
  metrics: Metrics;
  repos: {
    orgs: OrgsRepository;
    apiKeys: ApiKeysRepository;
    refreshTokens: RefreshTokensRepository;
    projects: ProjectsRepository;
    events: EventsRepository;
    templates: TemplatesRepository;
  };
  services: {
    orgs: OrgsService;
    auth: AuthService;
    apiKeys: ApiKeysService;
    projects: ProjectsService;
    templates: TemplatesService;
    access: AccessService;
    loginThrottle: LoginThrottle;
    members: MembersService;
    pipeline: PipelineControl;
    /** Idempotency-Key claims and stored responses. */
    idempotency: IdempotencyService;
    /** First-run setup (the owner account, while no user exists). */
    setup: SetupService;
  };
  /** Records API key use in batches (flushed on close). */
  lastUsed: LastUsedTracker;
  /** Counts requests per organization and credential (flushed on close). */
  usage: UsageCounter;
  documents: DocumentsModule;
  search: SearchModule;
  mail: MailModule;
  /** The SMTP receiver (worker role `smtp`). */
  inbound: InboundModule;
  /** The watched folder (worker role `watch`). */
  watch: WatchModule;
  sheets: SheetsModule;
  webhooks: WebhooksModule;
  workflows: WorkflowsModule;
  reports: ReportsModule;
  close(): Promise<void>;
}

/** `lockWaitMs`: how long to wait for another process holding the embedded database (default 0: refuse at once). */
export async function openDatabase(config: Config, opts: { lockWaitMs?: number } = {}): Promise<Db> {
  if (config.DATABASE_URL)
    return createDb({
      url: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      prepare: config.DATABASE_PREPARED_STATEMENTS,
    });
  const dir = join(config.dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  return createDb({ pgliteDir: dir, lockWaitMs: opts.lockWaitMs });
}

export async function createDeps(config: Readonly<Config>, opts: CreateDepsOptions = {}): Promise<Deps> {
  const logger = opts.logger ?? createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const rawDb = opts.db ?? (await openDatabase(config, { lockWaitMs: opts.dbLockWaitMs }));
  if (opts.migrate !== false) await migrate(rawDb);
  const redisUrl = opts.redisUrl ?? config.REDIS_URL;
  if (!redisUrl)
    throw new Error('No Redis URL: set REDIS_URL or use `docpipe start`, which runs a private redis-server');
  const redis: Redis = createCommandRedis(redisUrl);
  // First: every module below gets the events module's database, whose commits that wrote to the
  // outbox wake the relay (this process's, or the others' through Redis).
  const events = createEventsModule({ db: rawDb, redis, config, logger }, opts.events);
  const db = events.db;
  const prefix = effectivePrefix(redisUrl, config.REDIS_PREFIX);
  const keys = redisKeys(prefix);
  const stamps = createStamps(redis, keys);
  const queues = createQueues({ redis, redisUrl, prefix });
  const secretBox = createSecretBox(config.ENCRYPTION_KEY);
  const blobs = await createBlobStore(config);
  const reportFiles = await createReportFileStore(config);
  const metrics = createMetrics();

  const repos = {
    orgs: createOrgsRepository(db),
    apiKeys: createApiKeysRepository(db),
    refreshTokens: createRefreshTokensRepository(db),
    projects: createProjectsRepository(db),
    events: createEventsRepository(db),
    templates: createTemplatesRepository(db),
  };

  const webhooks = createWebhooksModule({ db, redis, queues, secretBox, config, logger }, opts.webhooks);
  const modelsDir = join(config.dataDir, 'models');
  const documents = createDocumentsModule(
    {
      db,
      queues,
      logger,
      blobs,
      projects: repos.projects,
      events: events.emitter,
      embedder: opts.embedder,
      onConfirmed: (scope) => queueRetrain(queues, logger, scope),
    },
    {
      maxUploadBytes: config.MAX_UPLOAD_MB * 1024 * 1024,
      maxPages: config.MAX_PAGES,
      maxImagePixels: config.OCR_MAX_MEGAPIXELS * 1_000_000,
      parseMaxMemoryMb: config.PARSE_MAX_MEMORY_MB,
      parseMaxInflatedBytes: config.PARSE_MAX_INFLATED_MB * 1024 * 1024,
      embedding: {
        modelId: config.EMBEDDING_MODEL,
        modelDir: config.EMBEDDING_MODEL_DIR ?? modelsDir,
        allowDownload: config.ALLOW_MODEL_DOWNLOAD,
        threads: config.EMBEDDING_THREADS,
      },
      classifierCacheDir: config.CLASSIFIER_CACHE_DIR ?? modelsDir,
      knn: config.CLASSIFY_KNN,
      reprocess: { pageSize: config.REPROCESS_PAGE_SIZE, maxInFlight: config.REPROCESS_MAX_IN_FLIGHT },
    },
  );
  const search = createSearchModule({
    db,
    embedder: documents.embedder,
    log: (msg, fields) => logger.info(fields ?? {}, `search: ${msg}`),
  });
  // Chooses HNSW (pgvector present) or the sign-bit prefilter; /ready reports which.
  await search.vectors.init();
  const mail = createMailModule(
    { db, redis, secretBox, config, logger, intake: documents.intake, projects: repos.projects },
    opts.mail,
  );
  const inbound = createInboundModule(
    { db, redis, config, logger, intake: documents.intake, projects: repos.projects },
    opts.inbound,
  );
  // A mailed document that fails in the pipeline: its sender hears of it (with SMTP_RELAY_URL).
  documents.onFailed((doc, error) => inbound.onDocumentFailed(doc, error));
  const watch = createWatchModule({ config, projects: repos.projects, intake: documents.intake, logger });
  const sheets = createSheetsModule(
    { db, queues, secretBox, logger, config, documents: documents.docs, projects: repos.projects },
    opts.sheets,
  );
  const workflows = createWorkflowsModule(
    {
      db,
      redis,
      queues,
      secretBox,
      logger,
      keys,
      config,
      documents,
      projects: repos.projects,
      sheets: sheets.workflowExport,
      deliveries: webhooks.deliveries,
    },
    opts.workflows,
  );
  // What an event causes, recorded in the relay's transaction: deliveries to the subscriptions it
  // matches, runs of the workflows it triggers, rows buffered for the Sheets exports it feeds.
  events.addConsumer(webhooks.fanOut);
  events.addConsumer(workflows.fanOut);
  events.addConsumer(sheets.fanOut);
  const reports = createReportsModule(
    { db, redis, queues, files: reportFiles, events: events.emitter, logger, keys },
    opts.reports,
  );

  const lastUsed = createLastUsedTracker(repos.apiKeys, 30_000, (err) =>
    logger.warn({ err }, 'could not record API key use'),
  );
  const usage = createUsageCounter(db, { onError: (err) => logger.warn({ err }, 'could not record API usage') });
  const orgs = createOrgsService({ db, repo: repos.orgs, stamps });
  const services = {
    orgs,
    setup: createSetupService({
      db,
      orgsRepo: repos.orgs,
      orgs,
      plan: config.DEFAULT_PLAN,
      token: isLoopbackHost(config.HOST) ? null : setupToken(config.JWT_SECRET),
    }),
    auth: createAuthService({
      db,
      orgs: repos.orgs,
      refreshTokens: repos.refreshTokens,
      stamps,
      jwtSecret: config.JWT_SECRET,
    }),
    apiKeys: createApiKeysService({ repo: repos.apiKeys, stamps }),
    projects: createProjectsService({
      db,
      repo: repos.projects,
      documents: { deleteAllInProject: (scope, id) => documents.service.deleteAllInProject(scope, id) },
      stamps,
      listCache:
        config.PROJECT_LIST_CACHE_SECONDS > 0
          ? createProjectListCache({ maxAgeMs: config.PROJECT_LIST_CACHE_SECONDS * 1000 })
          : undefined,
      logger,
      inboundDomain: config.INBOUND_DOMAIN,
    }),
    templates: createTemplatesService({
      repo: repos.templates,
      trace: { documents: documents.docs, templates: repos.templates },
    }),
    access: createAccessService({
      orgs: repos.orgs,
      apiKeys: repos.apiKeys,
      refreshTokens: repos.refreshTokens,
      stamps,
      limiter: createRateLimiter(redis),
      keys,
      jwtSecret: config.JWT_SECRET,
      planLimits: { enterprise: config.ENTERPRISE_RATE_LIMIT_PER_MINUTE },
      onKeyUsed: lastUsed.mark,
      onRequest: usage.count,
      failedLookupsPerMinute: config.FAILED_AUTH_PER_IP_PER_MINUTE,
      dashboardPerMinute: config.DASHBOARD_RATE_LIMIT_PER_MINUTE,
    }),
    loginThrottle: createLoginThrottle(redis, (email) => keys.rate(`login-delay:${email}`)),
    members: createMembersService({ db, repo: createMembersRepository(db), orgs: repos.orgs, stamps }),
    idempotency: createIdempotencyService({ repo: createIdempotencyRepository(db) }),
    pipeline: createPipelineControl({
      queues,
      activity: documents.activityRepo,
      documents: documents.service,
      operatorOrgs: config.PIPELINE_OPERATOR_ORGS,
      countOrgs: () => repos.orgs.countOrgs(),
    }),
  };

  return {
    config,
    logger,
    db,
    redis,
    redisUrl,
    keys,
    stamps,
    queues,
    secretBox,
    blobs,
    events,
    metrics,
    repos,
    services,
    lastUsed,
    usage,
    documents,
    search,
    mail,
    inbound,
    watch,
    sheets,
    webhooks,
    workflows,
    reports,
    reportFiles,
    async close() {
      await lastUsed.stop();
      await usage.stop();
      await documents.close();
      await workflows.close();
      inbound.close();
      await queues.close();
      redis.disconnect();
      await blobs.close?.();
      await reportFiles.close?.();
      if (!opts.db) await rawDb.close();
    },
  };
}
