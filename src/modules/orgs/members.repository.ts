import type { Queryable } from '../../db/client.js';
import { ROLES, type Role, type User } from './orgs.types.js';

// Highest role first (owners, then admins, …), then by e-mail.
const BY_ROLE = `CASE role ${ROLES.map((r, i) => `WHEN '${r}' THEN ${ROLES.length - 1 - i}`).join(' ')} END`;

/** The people of one organization (users are org-level: the same in live and test mode). */
export function createMembersRepository(db: Queryable) {
  return {
    async list(orgId: string, limit: number, offset: number): Promise<{ rows: User[]; total: number }> {
      const { rows } = await db.query<User & { total_count: string | number }>(
        `SELECT *, count(*) OVER () AS total_count FROM users WHERE org_id = $1
         ORDER BY ${BY_ROLE}, lower(email) LIMIT $2 OFFSET $3`,
        [orgId, limit, offset],
      );
      return { rows, total: rows.length ? Number(rows[0].total_count) : 0 };
    },
    async get(orgId: string, id: string, q: Queryable = db): Promise<User | null> {
      const { rows } = await q.query<User>('SELECT * FROM users WHERE id = $1 AND org_id = $2', [id, orgId]);
      return rows[0] ?? null;
    },
    /** Active owners, locked for the rest of the transaction so two demotions cannot both pass the last-owner check. */
    async lockActiveOwners(orgId: string, q: Queryable): Promise<string[]> {
      const { rows } = await q.query<{ id: string }>(
        `SELECT id FROM users WHERE org_id = $1 AND role = 'owner' AND is_active ORDER BY id FOR UPDATE`,
        [orgId],
      );
      return rows.map((r) => r.id);
    },
    async update(
      orgId: string,
      id: string,
      patch: { role?: Role; isActive?: boolean; name?: string | null },
      q: Queryable = db,
    ): Promise<User | null> {
      const { rows } = await q.query<User>(
        `UPDATE users SET role = COALESCE($3, role), is_active = COALESCE($4, is_active),
           name = CASE WHEN $5::boolean THEN $6 ELSE name END, updated_at = now()
         WHERE id = $1 AND org_id = $2 RETURNING *`,
        [id, orgId, patch.role ?? null, patch.isActive ?? null, patch.name !== undefined, patch.name ?? null],
      );
      return rows[0] ?? null;
    },
    /** Removes the user; their sessions and API keys go with them (foreign keys cascade). */
    async delete(orgId: string, id: string, q: Queryable = db): Promise<boolean> {
      const { rows } = await q.query('DELETE FROM users WHERE id = $1 AND org_id = $2 RETURNING id', [id, orgId]);
      return rows.length > 0;
    },
  };
}

export type MembersRepository = ReturnType<typeof createMembersRepository>;
