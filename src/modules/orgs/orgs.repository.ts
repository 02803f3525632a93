import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Organization, Plan, Role, User } from './orgs.types.js';

export function createOrgsRepository(db: Queryable) {
  return {
    async insertOrg(
      input: { name: string; plan: Plan; rateLimitPerMinute?: number | null },
      q: Queryable = db,
    ): Promise<Organization> {
      const { rows } = await q.query<Organization>(
        `INSERT INTO organizations (id, name, plan, rate_limit_per_minute) VALUES ($1, $2, $3, $4) RETURNING *`,
        [newId('org'), input.name, input.plan, input.rateLimitPerMinute ?? null],
      );
      return rows[0];
    },
    async findOrgByName(name: string, q: Queryable = db): Promise<Organization | null> {
      const { rows } = await q.query<Organization>(
        'SELECT * FROM organizations WHERE name = $1 ORDER BY created_at LIMIT 1',
        [name],
      );
      return rows[0] ?? null;
    },
    async getOrg(id: string): Promise<Organization | null> {
      const { rows } = await db.query<Organization>('SELECT * FROM organizations WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    /** How many organizations, users, projects and documents this installation holds (`docpipe admin status`). */
    async instanceCounts(): Promise<{ what: string; n: number }[]> {
      const { rows } = await db.query<{ what: string; n: number }>(
        `SELECT 'organizations' AS what, count(*) AS n FROM organizations UNION ALL SELECT 'users', count(*) FROM users
         UNION ALL SELECT 'projects', count(*) FROM projects UNION ALL SELECT 'documents', count(*) FROM documents`,
      );
      return rows;
    },
    async countUsers(q: Queryable = db): Promise<number> {
      const { rows } = await q.query<{ n: string }>('SELECT count(*) AS n FROM users');
      return Number(rows[0].n);
    },
    async countOrgs(): Promise<number> {
      const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM organizations');
      return rows[0].n;
    },
    async updateOrg(
      id: string,
      patch: { plan?: Plan; rateLimitPerMinute?: number | null; status?: 'active' | 'suspended' },
    ): Promise<Organization | null> {
      const { rows } = await db.query<Organization>(
        `UPDATE organizations SET plan = COALESCE($2, plan),
           rate_limit_per_minute = CASE WHEN $3::boolean THEN $4::integer ELSE rate_limit_per_minute END,
           status = COALESCE($5, status), updated_at = now()
         WHERE id = $1 RETURNING *`,
        [
          id,
          patch.plan ?? null,
          patch.rateLimitPerMinute !== undefined,
          patch.rateLimitPerMinute ?? null,
          patch.status ?? null,
        ],
      );
      return rows[0] ?? null;
    },
    async insertUser(
      input: { orgId: string; email: string; passwordHash: string; role: Role; name?: string | null },
      q: Queryable = db,
    ): Promise<User> {
      const { rows } = await q.query<User>(
        `INSERT INTO users (id, org_id, email, password_hash, role, name) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [newId('usr'), input.orgId, input.email.toLowerCase(), input.passwordHash, input.role, input.name ?? null],
      );
      return rows[0];
    },
    async findUserByEmail(email: string, q: Queryable = db): Promise<User | null> {
      const { rows } = await q.query<User>('SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
      return rows[0] ?? null;
    },
    async getUser(id: string, q: Queryable = db): Promise<User | null> {
      const { rows } = await q.query<User>('SELECT * FROM users WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    async updateUser(id: string, patch: { role?: Role; isActive?: boolean }): Promise<User | null> {
      const { rows } = await db.query<User>(
        `UPDATE users SET role = COALESCE($2, role), is_active = COALESCE($3, is_active), updated_at = now()
         WHERE id = $1 RETURNING *`,
        [id, patch.role ?? null, patch.isActive ?? null],
      );
      return rows[0] ?? null;
    },
  };
}

export type OrgsRepository = ReturnType<typeof createOrgsRepository>;
