import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';

export interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

export function createRefreshTokensRepository(db: Queryable) {
  return {
    async insert(
      row: { userId: string; familyId: string; hash: string; expiresAt: Date },
      q: Queryable = db,
    ): Promise<void> {
      await q.query(
        'INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at) VALUES ($1,$2,$3,$4,$5)',
        [newId('rtk'), row.userId, row.familyId, row.hash, row.expiresAt],
      );
    },
    async findByHashForUpdate(hash: string, q: Queryable): Promise<RefreshTokenRow | null> {
      const { rows } = await q.query<RefreshTokenRow>('SELECT * FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE', [
        hash,
      ]);
      return rows[0] ?? null;
    },
    async findByHash(hash: string): Promise<RefreshTokenRow | null> {
      const { rows } = await db.query<RefreshTokenRow>('SELECT * FROM refresh_tokens WHERE token_hash = $1', [hash]);
      return rows[0] ?? null;
    },
    async markUsed(id: string, q: Queryable): Promise<void> {
      await q.query('UPDATE refresh_tokens SET used_at = now() WHERE id = $1', [id]);
    },
    async revokeFamily(familyId: string, q: Queryable = db): Promise<void> {
      await q.query('UPDATE refresh_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE family_id = $1', [
        familyId,
      ]);
    },
    async familyRevoked(familyId: string): Promise<boolean> {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*) AS n FROM refresh_tokens WHERE family_id = $1 AND revoked_at IS NOT NULL',
        [familyId],
      );
      return rows[0].n > 0;
    },
  };
}

export type RefreshTokensRepository = ReturnType<typeof createRefreshTokensRepository>;
