import type { Db, Queryable } from '../../db/client.js';
import { hashPassword } from '../../lib/crypto.js';
import { errors } from '../../lib/errors.js';
import type { Stamps } from '../access/stamps.js';
import type { Environment } from '../../lib/scope.js';
import { createApiKeysRepository } from '../api-keys/api-keys.repository.js';
import { createApiKeysService } from '../api-keys/api-keys.service.js';
import type { OrgsRepository } from './orgs.repository.js';
import type { Plan, Role } from './orgs.types.js';

export function createOrgsService(deps: { db: Db; repo: OrgsRepository; stamps: Stamps }) {
  return {
    /**
     * Creates a user; the organization is found by name or created with the given plan. `q`: run
     * inside the caller's transaction (first-run setup) instead of one of its own.
     */
    async createUser(
      input: { email: string; password: string; orgName: string; role: Role; plan?: Plan },
      q?: Queryable,
    ) {
      if (input.password.length < 8) throw errors.invalidField('password', 'must be at least 8 characters');
      if (await deps.repo.findUserByEmail(input.email, q))
        throw errors.conflict(`A user with e-mail ${input.email} already exists`);
      const passwordHash = await hashPassword(input.password);
      const write = async (t: Queryable) => {
        const org =
          (await deps.repo.findOrgByName(input.orgName, t)) ??
          (await deps.repo.insertOrg({ name: input.orgName, plan: input.plan ?? 'free' }, t));
        const orgId = org.id;
        const user = await deps.repo.insertUser({ orgId, email: input.email, passwordHash, role: input.role }, t);
        return { user, orgId };
      };
      return q ? write(q) : deps.db.tx(write);
    },

    /** First start with an empty database and BOOTSTRAP_* set: one organization and its owner. */
    async bootstrap(input: {
      email?: string;
      password?: string;
      orgName?: string;
      plan: Plan;
    }): Promise<'created' | 'skipped'> {
      if (!input.email || !input.password) return 'skipped';
      if ((await deps.repo.countOrgs()) > 0) return 'skipped';
      await this.createUser({
        email: input.email,
        password: input.password,
        orgName: input.orgName ?? 'My organization',
        role: 'owner',
        plan: input.plan,
      });
      return 'created';
    },

    async createApiKeyFor(input: { email: string; name: string; environment: Environment }) {
      const user = await deps.repo.findUserByEmail(input.email);
      if (!user) throw errors.notFound(`User ${input.email}`);
      const svc = createApiKeysService({ repo: createApiKeysRepository(deps.db), stamps: deps.stamps });
      return svc.create(
        { orgId: user.org_id, environment: input.environment, userId: user.id },
        { name: input.name, environment: input.environment },
      );
    },

    /** Role or activation changes bump the user's stamp so cached keys and sessions see it at once. */
    async updateUser(userId: string, patch: { role?: Role; isActive?: boolean }) {
      const user = await deps.repo.updateUser(userId, patch);
      if (!user) throw errors.notFound('User');
      await deps.stamps.bump('usr', userId);
      return user;
    },

    async updateOrg(
      orgId: string,
      patch: { plan?: Plan; rateLimitPerMinute?: number | null; status?: 'active' | 'suspended' },
    ) {
      const org = await deps.repo.updateOrg(orgId, patch);
      if (!org) throw errors.notFound('Organization');
      await deps.stamps.bump('org', orgId);
      return org;
    },
  };
}

export type OrgsService = ReturnType<typeof createOrgsService>;
