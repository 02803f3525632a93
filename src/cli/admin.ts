import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { openDatabase } from '../container.js';
import { migrate } from '../db/migrate.js';
import { AppError } from '../http/errors.js';
import { createStamps } from '../modules/access/stamps.js';
import { createOrgsRepository } from '../modules/orgs/orgs.repository.js';
import { createOrgsService } from '../modules/orgs/orgs.service.js';
import type { Environment, Plan, Role } from '../modules/orgs/orgs.types.js';
import { createCommandRedis, redisKeys } from '../lib/redis.js';

export async function runMigrate(config: Config): Promise<number> {
  const db = await openDatabase(config);
  try {
    const applied = await migrate(db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
    return 0;
  } finally {
    await db.close();
  }
}

const ROLES = ['owner', 'admin', 'member', 'viewer'];
const PLANS = ['free', 'pro', 'enterprise'];

function need(v: string | undefined, flag: string): string {
  if (!v) throw new AppError('VALIDATION_ERROR', 400, `--${flag} is required`);
  return v;
}

/** Admin commands run against the database directly (no server needed). */
export async function runAdmin(config: Config, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest, allowPositionals: false,
    options: {
      email: { type: 'string' }, password: { type: 'string' }, org: { type: 'string' }, role: { type: 'string' },
      plan: { type: 'string' }, name: { type: 'string' }, environment: { type: 'string' },
    },
  });
  const db = await openDatabase(config);
  // Stamps live in Redis; without one (admin commands on a fresh machine) bumps are skipped,
  // which is safe because no API process can have cached anything it could not see.
  const redis = config.REDIS_URL ? createCommandRedis(config.REDIS_URL) : null;
  const stamps = redis
    ? createStamps(redis, redisKeys(config.REDIS_PREFIX))
    : { read: async () => [], bump: async () => undefined, key: () => '' };
  try {
    await migrate(db);
    const orgs = createOrgsService({ db, repo: createOrgsRepository(db), stamps });
    switch (sub) {
      case 'create-user': {
        const role = (values.role ?? 'owner') as Role;
        if (!ROLES.includes(role)) throw new AppError('VALIDATION_ERROR', 400, `--role must be one of ${ROLES.join(', ')}`);
        const plan = (values.plan ?? 'free') as Plan;
        if (!PLANS.includes(plan)) throw new AppError('VALIDATION_ERROR', 400, `--plan must be one of ${PLANS.join(', ')}`);
        const { user, orgId } = await orgs.createUser({
          email: need(values.email, 'email'), password: need(values.password, 'password'), orgName: need(values.org, 'org'), role, plan,
        });
        console.log(`Created user ${user.email} (${user.id}) with role ${user.role} in organization ${orgId}`);
        return 0;
      }
      case 'create-api-key': {
        const environment = (values.environment ?? 'live') as Environment;
        if (environment !== 'live' && environment !== 'test') throw new AppError('VALIDATION_ERROR', 400, '--environment must be live or test');
        const key = await orgs.createApiKeyFor({ email: need(values.email, 'email'), name: need(values.name, 'name'), environment });
        console.log(`Created API key ${key.id} (${key.environment}). Store it now; it is not shown again:\n${key.key}`);
        return 0;
      }
      case 'status': {
        const { rows } = await db.query<{ t: string; n: number }>(
          `SELECT 'organizations' AS t, count(*) AS n FROM organizations UNION ALL SELECT 'users', count(*) FROM users
           UNION ALL SELECT 'projects', count(*) FROM projects UNION ALL SELECT 'documents', count(*) FROM documents`);
        for (const r of rows) console.log(`${r.t.padEnd(14)} ${r.n}`);
        return 0;
      }
      default:
        console.error('Usage: docpipe admin create-user|create-api-key|status …');
        return 2;
    }
  } catch (err) {
    if (err instanceof AppError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    redis?.disconnect();
    await db.close();
  }
}
