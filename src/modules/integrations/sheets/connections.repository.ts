import type { Queryable } from '../../../db/client.js';
import { newId } from '../../../lib/ids.js';
import type { Scope } from '../../../lib/scope.js';
import type { ConnectionRow } from './sheets.types.js';

export function createConnectionsRepository(db: Queryable) {
  return {
    async insert(
      scope: Scope,
      c: { name: string; type: ConnectionRow['type']; sealed: string; principal: string; createdBy: string | null },
    ): Promise<ConnectionRow> {
      const { rows } = await db.query<ConnectionRow>(
        `INSERT INTO sheets_connections (id, org_id, environment, name, type, credentials_sealed, principal, created_by)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING *`,
        [newId('shc'), scope.orgId, scope.environment, c.name, c.type, c.sealed, c.principal, c.createdBy],
      );
      return rows[0];
    },
    async list(scope: Scope, limit: number, offset: number): Promise<{ rows: ConnectionRow[]; total: number }> {
      const { rows } = await db.query<ConnectionRow & { total_count: number }>(
        `SELECT *, count(*) OVER () AS total_count FROM sheets_connections WHERE org_id = $1 AND environment = $2
         ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
        [scope.orgId, scope.environment, limit, offset],
      );
      let total = rows[0]?.total_count;
      if (total === undefined) {
        total = (
          await db.query<{ n: number }>(
            'SELECT count(*) AS n FROM sheets_connections WHERE org_id = $1 AND environment = $2',
            [scope.orgId, scope.environment],
          )
        ).rows[0].n;
      }
      return { rows: rows.map(({ total_count: _t, ...r }) => r as ConnectionRow), total };
    },
    async get(scope: Scope, id: string, q: Queryable = db): Promise<ConnectionRow | null> {
      const { rows } = await q.query<ConnectionRow>(
        'SELECT * FROM sheets_connections WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    /** Workers read by id alone: the export that names it was created in scope. */
    async getById(id: string): Promise<ConnectionRow | null> {
      const { rows } = await db.query<ConnectionRow>('SELECT * FROM sheets_connections WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    async exportsUsing(id: string, q: Queryable = db): Promise<string[]> {
      const { rows } = await q.query<{ id: string }>(
        'SELECT id FROM sheets_exports WHERE connection_id = $1 ORDER BY created_at',
        [id],
      );
      return rows.map((r) => r.id);
    },
    async delete(scope: Scope, id: string, q: Queryable = db): Promise<ConnectionRow | null> {
      const { rows } = await q.query<ConnectionRow>(
        'DELETE FROM sheets_connections WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
  };
}

export type ConnectionsRepository = ReturnType<typeof createConnectionsRepository>;
