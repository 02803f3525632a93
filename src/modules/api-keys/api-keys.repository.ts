import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Environment, Scope } from '../../lib/scope.js';
import type { ApiKeyRow } from './api-keys.types.js';

export function createApiKeysRepository(db: Queryable) {
  return {
    async insert(row: {
      orgId: string;
      environment: Environment;
      createdBy: string;
      name: string;
      hash: string;
      masked: string;
      rateLimitPerMinute: number | null;
      rateLimitPerDay: number | null;
      expiresAt: Date | null;
      allowedIps: string[];
      allowedEndpoints: string[];
      metadata: Record<string, unknown>;
    }): Promise<ApiKeyRow> {
      const { rows } = await db.query<ApiKeyRow>(
        `INSERT INTO api_keys (id, org_id, environment, created_by, name, key_hash, masked_key, rate_limit_per_minute,
           rate_limit_per_day, expires_at, allowed_ips, allowed_endpoints, metadata)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13) RETURNING *`,
        [
          newId('key'),
          row.orgId,
          row.environment,
          row.createdBy,
          row.name,
          row.hash,
          row.masked,
          row.rateLimitPerMinute,
          row.rateLimitPerDay,
          row.expiresAt,
          JSON.stringify(row.allowedIps),
          JSON.stringify(row.allowedEndpoints),
          JSON.stringify(row.metadata),
        ],
      );
      return rows[0];
    },
    async list(scope: Scope, limit: number, offset: number): Promise<{ rows: ApiKeyRow[]; total: number }> {
      const [page, count] = await Promise.all([
        db.query<ApiKeyRow>(
          `SELECT * FROM api_keys WHERE org_id = $1 AND environment = $2 ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
          [scope.orgId, scope.environment, limit, offset],
        ),
        db.query<{ n: number }>('SELECT count(*) AS n FROM api_keys WHERE org_id = $1 AND environment = $2', [
          scope.orgId,
          scope.environment,
        ]),
      ]);
      return { rows: page.rows, total: count.rows[0].n };
    },
    async get(scope: Scope, id: string): Promise<ApiKeyRow | null> {
      const { rows } = await db.query<ApiKeyRow>(
        'SELECT * FROM api_keys WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    async findByHash(hash: string): Promise<ApiKeyRow | null> {
      const { rows } = await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = $1', [hash]);
      return rows[0] ?? null;
    },
    async update(
      scope: Scope,
      id: string,
      patch: {
        name?: string;
        isActive?: boolean;
        rateLimitPerMinute?: number | null;
        rateLimitPerDay?: number | null;
        allowedIps?: string[];
      },
    ): Promise<ApiKeyRow | null> {
      const sets: string[] = [];
      const params: unknown[] = [id, scope.orgId, scope.environment];
      const set = (col: string, v: unknown) => {
        params.push(v);
        sets.push(`${col} = $${params.length}`);
      };
      if (patch.name !== undefined) set('name', patch.name);
      if (patch.isActive !== undefined) set('is_active', patch.isActive);
      if (patch.rateLimitPerMinute !== undefined) set('rate_limit_per_minute', patch.rateLimitPerMinute);
      if (patch.rateLimitPerDay !== undefined) set('rate_limit_per_day', patch.rateLimitPerDay);
      if (patch.allowedIps !== undefined) set('allowed_ips', JSON.stringify(patch.allowedIps));
      sets.push('updated_at = now()');
      const { rows } = await db.query<ApiKeyRow>(
        `UPDATE api_keys SET ${sets.join(', ')} WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *`,
        params,
      );
      return rows[0] ?? null;
    },
    async revoke(scope: Scope, id: string): Promise<ApiKeyRow | null> {
      const { rows } = await db.query<ApiKeyRow>(
        `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()), is_active = false, updated_at = now()
         WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *`,
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    async touchLastUsed(ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::text[])', [ids]);
    },
    async idsCreatedBy(userId: string): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE created_by = $1', [userId]);
      return rows.map((r) => r.id);
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
