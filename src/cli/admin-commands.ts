// The `docpipe admin …` commands themselves, independent of where they run: in the CLI process
// against the database directly, or inside a running server that received them on its admin
// socket (an embedded database can be open in one process only). They return their output
// instead of printing it, so either side can pass it on.
import type { Db } from '../db/client.js';
import { DomainError, errors } from '../lib/errors.js';
import type { Stamps } from '../modules/access/stamps.js';
import { createOrgsRepository } from '../modules/orgs/orgs.repository.js';
import { createOrgsService } from '../modules/orgs/orgs.service.js';
import type { Environment } from '../lib/scope.js';
import { PLANS, ROLES, type Plan, type Role } from '../modules/orgs/orgs.types.js';
import { COMMANDS, parseCommand, usageLines, type CommandName } from './usage.js';

export interface AdminResult {
  /** Process exit code: 0 done, 1 refused or failed, 2 usage. */
  code: number;
  stdout: string;
  stderr: string;
}

export interface AdminContext {
  db: Db;
  stamps: Stamps;
  /** The plan `create-user` gives a new organization without --plan: the same DEFAULT_PLAN that
   * first-run setup and BOOTSTRAP_* use, so a self-hosted owner made here is not rate-limited. */
  defaultPlan: Plan;
}

// Named highest first in the error message.
const ROLE_CHOICES: readonly Role[] = [...ROLES].reverse();
export const ADMIN_USAGE = `Usage:\n${usageLines('admin')}`;

function need(v: string | undefined, flag: string): string {
  if (!v) throw errors.validation(`--${flag} is required`);
  return v;
}

const ok = (stdout: string): AdminResult => ({ code: 0, stdout, stderr: '' });
const fail = (stderr: string, code = 1): AdminResult => ({ code, stdout: '', stderr });

/** Parses and runs one admin command. Expected failures come back as a result; others throw. */
export async function executeAdminCommand(ctx: AdminContext, args: readonly string[]): Promise<AdminResult> {
  const [sub, ...rest] = args;
  try {
    const command = `admin ${sub}`;
    if (!(command in COMMANDS)) return fail(ADMIN_USAGE, 2);
    // Each subcommand accepts exactly the flags its usage line shows.
    const values = parseCommand(command as CommandName, rest).values as Partial<
      Record<'email' | 'password' | 'org' | 'role' | 'plan' | 'name' | 'environment', string>
    >;
    const orgs = createOrgsService({ db: ctx.db, repo: createOrgsRepository(ctx.db), stamps: ctx.stamps });
    switch (sub) {
      case 'create-user': {
        const role = (values.role ?? 'owner') as Role;
        if (!ROLE_CHOICES.includes(role)) return fail(`--role must be one of ${ROLE_CHOICES.join(', ')}`);
        const plan = (values.plan ?? ctx.defaultPlan) as Plan;
        if (!(PLANS as readonly string[]).includes(plan)) return fail(`--plan must be one of ${PLANS.join(', ')}`);
        const { user, orgId } = await orgs.createUser({
          email: need(values.email, 'email'),
          password: need(values.password, 'password'),
          orgName: need(values.org, 'org'),
          role,
          plan,
        });
        return ok(`Created user ${user.email} (${user.id}) with role ${user.role} in organization ${orgId}`);
      }
      case 'create-api-key': {
        const environment = (values.environment ?? 'live') as Environment;
        if (environment !== 'live' && environment !== 'test') return fail('--environment must be live or test');
        const key = await orgs.createApiKeyFor({
          email: need(values.email, 'email'),
          name: need(values.name, 'name'),
          environment,
        });
        return ok(`Created API key ${key.id} (${key.environment}). Store it now; it is not shown again:\n${key.key}`);
      }
      case 'status': {
        const counts = await createOrgsRepository(ctx.db).instanceCounts();
        return ok(counts.map((r) => `${r.what.padEnd(14)} ${r.n}`).join('\n'));
      }
      default:
        return fail(ADMIN_USAGE, 2);
    }
  } catch (err) {
    if (err instanceof DomainError) return fail(err.message);
    // parseArgs reports unknown or malformed options with a code of its own.
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
      return fail(`${(err as Error).message}\n${ADMIN_USAGE}`, 2);
    throw err;
  }
}
