import type { Config } from '../config.js';
import { createDeps, openDatabase, type Deps } from '../container.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { createLogger, type Logger } from '../lib/logger.js';
import { startManagedRedis } from '../lib/managed-redis.js';
import { BULLMQ_QUEUES } from '../jobs/queues.js';
import { startMetricsServer, trackQueues } from '../modules/metrics/index.js';
import { isLoopbackHost, setupToken } from '../modules/setup/setup.service.js';
import { eventsRelayWarning, startWorkers, type WorkerHandle } from '../../workers/index.js';
import { executeAdminCommand } from './admin-commands.js';
import { adminSocketPath, serveAdminSocket } from './admin-socket.js';

export type Role = 'start' | 'api' | 'worker';

/**
 * Runs one process role until SIGTERM/SIGINT. Shutdown order: stop accepting HTTP, let workers
 * finish their current jobs (bounded), close queues and connections; a second signal exits now.
 */
export async function runServer(
  config: Config,
  role: Role,
  opts: { queues?: string[]; concurrency?: number } = {},
): Promise<void> {
  const logger = createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  // The database first: an embedded one is this process's alone (and so is the private Redis
  // beside it), so a second server on the same DATA_DIR stops here, before touching anything.
  const db = await openDatabase(config, { lockWaitMs: 10_000 }).catch((err: unknown) => {
    if (err instanceof DataDirLockedError) {
      throw new Error(
        `${err.message}\nStop the other process, or give this one its own DATA_DIR; several processes over one database need DATABASE_URL (PostgreSQL).`,
      );
    }
    throw err;
  });
  let redisUrl = config.REDIS_URL;
  let managed: Awaited<ReturnType<typeof startManagedRedis>> | undefined;
  if (!redisUrl) {
    if (role !== 'start') {
      throw new Error(
        `docpipe ${role} needs REDIS_URL: separate API and worker processes must share one Redis. Only \`docpipe start\` runs a private redis-server.`,
      );
    }
    managed = await startManagedRedis(config.dataDir);
    redisUrl = managed.url;
    logger.info({ redis: redisUrl }, 'started a private redis-server (set REDIS_URL to use your own)');
  }
  const deps = await createDeps(config, { db, redisUrl, logger });
  if (role !== 'worker') {
    const boot = await deps.services.orgs.bootstrap({
      email: config.BOOTSTRAP_ADMIN_EMAIL,
      password: config.BOOTSTRAP_ADMIN_PASSWORD,
      orgName: config.BOOTSTRAP_ORG_NAME,
      plan: config.BOOTSTRAP_PLAN ?? config.DEFAULT_PLAN,
    });
    if (boot === 'created')
      logger.info({ email: config.BOOTSTRAP_ADMIN_EMAIL }, 'created the first organization and its owner');
  }

  // `docpipe admin …` cannot open an embedded database this process holds: it sends its
  // commands here instead.
  const adminSocket =
    db.kind === 'pglite'
      ? await serveAdminSocket(
          adminSocketPath(config.dataDir),
          (args) =>
            executeAdminCommand(
              { db, stamps: deps.stamps, defaultPlan: config.BOOTSTRAP_PLAN ?? config.DEFAULT_PLAN },
              args,
            ),
          logger,
        )
      : undefined;

  // Queue depths come from the shared Redis and read the same everywhere: the API processes
  // report them; workers report only what they do themselves.
  if (role !== 'worker') trackQueues(deps.metrics.registry, deps.queues, BULLMQ_QUEUES);
  let workers: WorkerHandle | undefined;
  if (role !== 'api') {
    workers = await startWorkers(deps, {
      queues: opts.queues,
      concurrency: opts.concurrency ?? config.WORKER_CONCURRENCY,
      schedulers: true,
    });
  }
  const relayWarning = role !== 'api' ? eventsRelayWarning(opts.queues) : null;
  if (relayWarning) logger.warn(relayWarning);
  // Said once at start-up by the processes that embed, instead of only in /ready and notes.
  if (role !== 'api' && (!opts.queues || opts.queues.includes('embed'))) void deps.documents.checkEmbedder();
  // Imported only by roles that serve HTTP: the routes, their schemas and the OpenAPI and docs
  // plugins are memory a worker never uses.
  const http = role !== 'worker' ? await import('../http/app.js') : undefined;
  const app = http ? await http.buildApp(http.appDepsFrom(deps)) : undefined;
  if (app) {
    await app.listen({ port: config.PORT, host: config.HOST }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        throw new Error(`port ${config.PORT} is taken (${config.HOST}): stop what uses it, or set PORT`);
      throw err;
    });
    logger.info(`docpipe ${role} listening on http://${config.HOST}:${config.PORT}/api/v1`);
    await announceSetup(deps, config, logger);
  }

  // Last: a metrics listener that answers means this process is serving.
  const metricsServer =
    config.METRICS_PORT !== undefined
      ? await startMetricsServer({
          metrics: deps.metrics,
          port: config.METRICS_PORT,
          host: config.METRICS_HOST,
          token: config.METRICS_TOKEN,
          logger,
        })
      : undefined;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn('second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const hardStop = setTimeout(() => {
      logger.error('shutdown took over 30 s; exiting');
      process.exit(1);
    }, 30_000);
    hardStop.unref();
    try {
      await app?.close();
      await metricsServer?.close();
      await adminSocket?.close();
      await workers?.close(20_000);
      await deps.close();
      await db.close();
      await managed?.stop();
    } finally {
      clearTimeout(hardStop);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * While the installation has no user, says where to create the owner account; on a network
 * address also the setup token (without it nobody can claim the fresh instance). The token is
 * useless once a user exists, and is only printed until then.
 */
async function announceSetup(deps: Deps, config: Config, logger: Logger): Promise<void> {
  const status = await deps.services.setup.status();
  if (!status.needed) return;
  const where = `http://${isLoopbackHost(config.HOST) ? config.HOST : '<this host>'}:${config.PORT}/`;
  if (status.token_required)
    logger.warn(
      `no user yet: open ${where} and create the owner account with the setup token ${setupToken(config.JWT_SECRET)} (or set BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD)`,
    );
  else logger.info(`no user yet: open ${where} to create the owner account`);
}
