// First-run setup: while an installation has no user, the dashboard offers "Create the owner
// account" instead of a sign-in form that can only fail. Exposed on a non-loopback address, a
// fresh instance could be claimed by whoever finds it first, so there setup also needs a token
// that the server prints in its log at start-up: derived from JWT_SECRET, so every API process
// of one installation prints (and accepts) the same one, and it is useless once a user exists.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Db } from '../../db/client.js';
import { errors } from '../../lib/errors.js';
import type { Plan } from '../../lib/plans.js';
import type { OrgsRepository } from '../orgs/orgs.repository.js';
import type { OrgsService } from '../orgs/orgs.service.js';

export interface SetupInput {
  email: string;
  password: string;
  organization_name: string;
  token?: string;
}

/** Whether `host` (the address the API listens on) is reachable only from this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** The setup token of an installation (the same in every process that shares JWT_SECRET). */
export function setupToken(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('docpipe first-run setup').digest('base64url').slice(0, 24);
}

export function createSetupService(deps: {
  db: Db;
  orgsRepo: Pick<OrgsRepository, 'countUsers'>;
  orgs: Pick<OrgsService, 'createUser'>;
  plan: Plan;
  /** Null when the API listens on loopback only (no token needed). */
  token: string | null;
}) {
  const tokenMatches = (given: string | undefined) => {
    if (!deps.token) return true;
    if (!given) return false;
    const a = Buffer.from(given);
    const b = Buffer.from(deps.token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  return {
    async status(): Promise<{ needed: boolean; token_required: boolean }> {
      const needed = (await deps.orgsRepo.countUsers()) === 0;
      return { needed, token_required: needed && deps.token !== null };
    },

    /** Creates the first organization and its owner; 409 once any user exists. */
    async complete(input: SetupInput) {
      if (!tokenMatches(input.token))
        throw errors.forbidden(
          input.token
            ? 'The setup token is wrong: use the one the server printed in its log at start-up'
            : 'This server listens on a network address: setup needs the token it printed in its log at start-up (field "token")',
        );
      // One setup at a time: a second one waits, then finds the first's user and answers 409.
      return deps.db.tx(async (q) => {
        if (deps.db.kind === 'postgres') await q.query(`SELECT pg_advisory_xact_lock(hashtext('docpipe-setup'))`);
        if ((await deps.orgsRepo.countUsers(q)) > 0)
          throw errors.conflict('Setup is done: this installation already has users. Sign in instead.');
        return deps.orgs.createUser(
          {
            email: input.email,
            password: input.password,
            orgName: input.organization_name,
            role: 'owner',
            plan: deps.plan,
          },
          q,
        );
      });
    },
  };
}

export type SetupService = ReturnType<typeof createSetupService>;
