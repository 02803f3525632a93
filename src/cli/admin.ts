import type { Config } from '../config.js';
import { openDatabase } from '../container.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import type { Db } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { createStamps, type Stamps } from '../modules/access/stamps.js';
import { createCommandRedis, effectivePrefix, redisKeys } from '../lib/redis.js';
import { executeAdminCommand, type AdminResult } from './admin-commands.js';
import { adminSocketPath, AdminSocketUnavailableError, callAdminSocket } from './admin-socket.js';

export async function runMigrate(config: Config): Promise<number> {
  let db: Db;
  try {
    db = await openDatabase(config);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    console.error(
      `${err.message}\nThe server that holds it applied the migrations when it started; stop it to run \`docpipe migrate\` by hand.`,
    );
    return 1;
  }
  try {
    const applied = await migrate(db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
    return 0;
  } finally {
    await db.close();
  }
}

function print(r: AdminResult): number {
  if (r.stdout) console.log(r.stdout);
  if (r.stderr) console.error(r.stderr);
  return r.code;
}

/** Runs the command in this process, against a database no other process has open (or PostgreSQL). */
async function runDirect(config: Config, db: Db, args: string[]): Promise<number> {
  // Stamps live in Redis; without one (admin commands on a fresh machine) bumps are skipped,
  // which is safe because no API process can have cached anything it could not see.
  const redis = config.REDIS_URL ? createCommandRedis(config.REDIS_URL) : null;
  const stamps: Stamps =
    redis && config.REDIS_URL
      ? createStamps(redis, redisKeys(effectivePrefix(config.REDIS_URL, config.REDIS_PREFIX)))
      : { read: async () => [], bump: async () => undefined, key: () => '' };
  try {
    await migrate(db);
    return print(
      await executeAdminCommand({ db, stamps, defaultPlan: config.BOOTSTRAP_PLAN ?? config.DEFAULT_PLAN }, args),
    );
  } finally {
    redis?.disconnect();
    await db.close();
  }
}

/**
 * Admin commands. On PostgreSQL they run here. On the embedded database they run here when no
 * other process has it open; while a server holds it, they are sent to that server's admin
 * socket and run there; if it does not answer they are refused — never run on a second copy.
 */
export async function runAdmin(config: Config, args: string[]): Promise<number> {
  let locked: DataDirLockedError;
  try {
    return await runDirect(config, await openDatabase(config), args);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    locked = err;
  }
  const socket = adminSocketPath(config.dataDir);
  try {
    return print(await callAdminSocket(socket, args));
  } catch (err) {
    if (!(err instanceof AdminSocketUnavailableError)) {
      console.error(
        `The server holding the database stopped answering (${(err as Error).message}); the command may or may not have been applied. Check with \`docpipe admin status\`.`,
      );
      return 1;
    }
  }
  // No server listens: the holder may be another short admin command, so wait for it briefly.
  try {
    return await runDirect(config, await openDatabase(config, { lockWaitMs: 5_000 }), args);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
  }
  console.error(
    `${locked.message}\nIts admin socket (${socket}) does not answer, so nothing was done. ` +
      'If that server is still starting, try again in a moment. Otherwise stop it and run the command again; ' +
      `if no docpipe process is running at all, remove ${locked.lockFile}.`,
  );
  return 1;
}
