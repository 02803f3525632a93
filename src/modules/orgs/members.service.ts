import type { Db } from '../../db/client.js';
import { hashPassword, randomBase62 } from '../../lib/crypto.js';
import { errors } from '../../lib/errors.js';
import type { Stamps } from '../access/stamps.js';
import type { MembersRepository } from './members.repository.js';
import type { OrgsRepository } from './orgs.repository.js';
import { roleAtLeast, type Role, type User } from './orgs.types.js';

/** Who is asking: the acting user (a person, or the creator behind an API key) and their role. */
export interface Actor {
  orgId: string;
  userId: string;
  role: Role;
}

export function presentMember(u: User) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    is_active: u.is_active,
    created_at: u.created_at,
    updated_at: u.updated_at,
  };
}

/**
 * Members of an organization. Rules: admins and owners manage members; only an owner grants,
 * changes or removes the owner role; nobody changes or removes themselves (ask another admin);
 * an organization always keeps one active owner.
 */
export function createMembersService(deps: { db: Db; repo: MembersRepository; orgs: OrgsRepository; stamps: Stamps }) {
  const mustGet = async (actor: Actor, id: string) => {
    const u = await deps.repo.get(actor.orgId, id);
    if (!u) throw errors.notFound('Member');
    return u;
  };
  const mayTouch = (actor: Actor, target: { role: Role }, newRole?: Role) => {
    if ((target.role === 'owner' || newRole === 'owner') && actor.role !== 'owner')
      throw errors.forbidden('Only an owner can grant, change or remove the owner role');
    if (!roleAtLeast(actor.role, 'admin')) throw errors.forbidden('This requires the admin role or higher');
  };
  return {
    async list(actor: Actor, limit: number, offset: number) {
      const { rows, total } = await deps.repo.list(actor.orgId, limit, offset);
      return { items: rows.map(presentMember), total };
    },
    async get(actor: Actor, id: string) {
      return presentMember(await mustGet(actor, id));
    },

    /**
     * Adds a person with a password (theirs to change later). Without one, a temporary password
     * is generated and returned once, for the admin to hand over.
     */
    async add(actor: Actor, input: { email: string; role: Role; name?: string; password?: string }) {
      mayTouch(actor, { role: input.role });
      if (input.password !== undefined && input.password.length < 8)
        throw errors.invalidField('password', 'must be at least 8 characters');
      if (await deps.orgs.findUserByEmail(input.email))
        throw errors.conflict(`A user with e-mail ${input.email} already exists`);
      const temporary = input.password === undefined ? randomBase62(20) : undefined;
      const passwordHash = await hashPassword(input.password ?? temporary!);
      const user = await deps.orgs.insertUser({
        orgId: actor.orgId,
        email: input.email,
        passwordHash,
        role: input.role,
        name: input.name ?? null,
      });
      return { ...presentMember(user), ...(temporary ? { temporary_password: temporary } : {}) };
    },

    async update(actor: Actor, id: string, patch: { role?: Role; is_active?: boolean; name?: string | null }) {
      if (id === actor.userId && (patch.role !== undefined || patch.is_active !== undefined)) {
        throw errors.forbidden('You cannot change your own role or deactivate yourself; ask another admin or owner');
      }
      const updated = await deps.db.tx(async (q) => {
        const target = await deps.repo.get(actor.orgId, id, q);
        if (!target) throw errors.notFound('Member');
        mayTouch(actor, target, patch.role);
        const losesOwner =
          target.role === 'owner' &&
          target.is_active &&
          ((patch.role !== undefined && patch.role !== 'owner') || patch.is_active === false);
        if (losesOwner) {
          const owners = await deps.repo.lockActiveOwners(actor.orgId, q);
          if (owners.length <= 1) throw errors.conflict('The organization needs at least one active owner');
        }
        return deps.repo.update(actor.orgId, id, { role: patch.role, isActive: patch.is_active, name: patch.name }, q);
      });
      // Cached sessions and keys of that person see the new role on their next request.
      await deps.stamps.bump('usr', id);
      return presentMember(updated!);
    },

    async remove(actor: Actor, id: string) {
      if (id === actor.userId) throw errors.forbidden('You cannot remove yourself; ask another admin or owner');
      await deps.db.tx(async (q) => {
        const target = await deps.repo.get(actor.orgId, id, q);
        if (!target) throw errors.notFound('Member');
        mayTouch(actor, target);
        if (
          target.role === 'owner' &&
          target.is_active &&
          (await deps.repo.lockActiveOwners(actor.orgId, q)).length <= 1
        ) {
          throw errors.conflict('The organization needs at least one active owner');
        }
        await deps.repo.delete(actor.orgId, id, q);
      });
      await deps.stamps.bump('usr', id);
      return { id, removed: true };
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
