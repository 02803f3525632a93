import { randomBase62, sha256Hex, verifyPassword, DUMMY_PASSWORD_HASH } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import type { Db } from '../../db/client.js';
import { errors } from '../../lib/errors.js';
import type { Stamps } from '../access/stamps.js';
import type { OrgsRepository } from '../orgs/orgs.repository.js';
import { signAccessToken } from './jwt.js';
import type { RefreshTokensRepository } from './refresh-tokens.repository.js';

export const ACCESS_TTL_SEC = 900;
export const REFRESH_TTL_SEC = 30 * 86_400;

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  tokenType: 'Bearer';
}

export function createAuthService(deps: {
  db: Db;
  orgs: OrgsRepository;
  refreshTokens: RefreshTokensRepository;
  stamps: Stamps;
  jwtSecret: string;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const issue = async (
    userId: string,
    orgId: string,
    familyId: string,
    q = deps.db as Pick<Db, 'query'>,
    web = false,
  ): Promise<TokenPair> => {
    const iat = Math.floor(now() / 1000);
    const accessToken = signAccessToken(
      {
        sub: userId,
        org: orgId,
        sid: familyId,
        typ: 'access',
        iat,
        exp: iat + ACCESS_TTL_SEC,
        ...(web ? { web: true } : {}),
      },
      deps.jwtSecret,
    );
    const refreshToken = `rt_${randomBase62(48)}`;
    await deps.refreshTokens.insert(
      { userId, familyId, hash: sha256Hex(refreshToken), expiresAt: new Date(now() + REFRESH_TTL_SEC * 1000) },
      q,
    );
    return { accessToken, refreshToken, expiresIn: ACCESS_TTL_SEC, tokenType: 'Bearer' };
  };

  return {
    /** `web`: a dashboard session (cookie mode), whose access tokens say so. */
    async login(email: string, password: string, opts: { web?: boolean } = {}): Promise<TokenPair> {
      const user = await deps.orgs.findUserByEmail(email);
      // Always pay for one hash so response time does not reveal which e-mails exist.
      const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
      if (!user || !ok || !user.is_active) throw errors.unauthorized('Invalid email or password');
      const org = await deps.orgs.getOrg(user.org_id);
      if (!org || org.status !== 'active') throw errors.unauthorized('Invalid email or password');
      return issue(user.id, user.org_id, newId('fam'), deps.db, opts.web);
    },

    /**
     * Rotates the refresh token. Presenting one that was already used means it leaked (or a
     * client raced itself): the whole family is revoked, including live access tokens.
     */
    async refresh(refreshToken: string, opts: { web?: boolean } = {}): Promise<TokenPair> {
      const hash = sha256Hex(refreshToken);
      const outcome = await deps.db.tx(async (q) => {
        const row = await deps.refreshTokens.findByHashForUpdate(hash, q);
        if (!row) return { kind: 'invalid' as const };
        if (row.revoked_at) return { kind: 'invalid' as const };
        if (row.used_at) {
          await deps.refreshTokens.revokeFamily(row.family_id, q);
          return { kind: 'reused' as const, familyId: row.family_id };
        }
        if (row.expires_at.getTime() <= now()) return { kind: 'invalid' as const };
        // Inside the transaction's connection: PGlite has only one, a pool query would wait forever.
        const user = await deps.orgs.getUser(row.user_id, q);
        if (!user || !user.is_active) return { kind: 'invalid' as const };
        await deps.refreshTokens.markUsed(row.id, q);
        return { kind: 'ok' as const, pair: await issue(user.id, user.org_id, row.family_id, q, opts.web) };
      });
      if (outcome.kind === 'reused') {
        await deps.stamps.bump('sess', outcome.familyId, ACCESS_TTL_SEC * 2);
        throw errors.unauthorized('Refresh token was already used; the session has been revoked');
      }
      if (outcome.kind === 'invalid') throw errors.unauthorized('Invalid or expired refresh token');
      return outcome.pair;
    },

    /** Ends a session: its refresh tokens and any access token issued for it stop working. */
    async logout(familyId: string): Promise<void> {
      await deps.refreshTokens.revokeFamily(familyId);
      await deps.stamps.bump('sess', familyId, ACCESS_TTL_SEC * 2);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
