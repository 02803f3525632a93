import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { errors } from '../../../lib/errors.js';
import { ok } from '../../envelope.js';
import type { RedisKeys } from '../../../lib/redis.js';
import type { AccessService } from '../../../modules/access/access.service.js';
import type { AuthService } from '../../../modules/auth/auth.service.js';
import type { LoginThrottle } from '../../../modules/auth/login-throttle.js';
import { REFRESH_TTL_SEC } from '../../../modules/auth/auth.service.js';
import { ROLES } from '../../../modules/orgs/orgs.types.js';
import { checkCsrf, clearSessionCookies, hasCsrfCookie, refreshCookie, setSessionCookies } from './cookie-session.js';

// Brute-force brakes for the unauthenticated endpoints (per minute). Per e-mail address there is
// no limit that others could exhaust, but a progressive delay (login-throttle.ts).
const LOGIN_PER_IP = 20;
const REFRESH_PER_IP = 60;

// A response schema documents /auth/me and gives it a compiled serialiser (it is called a lot).
// Every key is always written; `required` says so, which types the dashboard's session from it.
const str = { type: 'string' };
const meResponse = {
  200: {
    type: 'object',
    required: ['success', 'data', 'message'],
    properties: {
      success: { type: 'boolean' },
      data: {
        type: 'object',
        required: ['user', 'organization', 'environment', 'auth_method', 'api_key'],
        properties: {
          user: {
            type: 'object',
            required: ['id', 'email', 'role'],
            properties: { id: str, email: str, role: { type: 'string', enum: [...ROLES] } },
          },
          organization: {
            type: 'object',
            required: ['id', 'name', 'plan', 'rate_limit_per_minute'],
            properties: { id: str, name: str, plan: str, rate_limit_per_minute: { type: ['integer', 'null'] } },
          },
          environment: { type: 'string', enum: ['live', 'test'] },
          auth_method: { type: 'string', enum: ['user', 'api_key'] },
          api_key: {
            type: ['object', 'null'],
            required: ['id', 'name'],
            properties: { id: str, name: str },
          },
        },
      },
      message: str,
    },
  },
};

export interface AuthRouteDeps {
  access: Pick<AccessService, 'limitAnonymous'>;
  auth: AuthService;
  /** Progressive per-address delay for logins. */
  loginThrottle: LoginThrottle;
  redisKeys: RedisKeys;
}

export function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  // Bodies are typed from their JSON schemas (`as const`), not written a second time.
  const api = app.withTypeProvider<JsonSchemaToTsProvider>();
  const { access, auth, redisKeys, loginThrottle } = deps;

  api.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange e-mail and password for a token pair',
        security: [],
        description:
          'With `mode: "cookie"` (the dashboard) the refresh token is not in the body: it is set as an HttpOnly cookie ' +
          'that only POST /auth/refresh receives, with a readable CSRF cookie whose value (also returned as `csrfToken`) ' +
          'must be sent as `X-CSRF-Token` to refresh and log out.',
        body: {
          type: 'object',
          required: ['email', 'password'],
          additionalProperties: false,
          properties: {
            email: { type: 'string', minLength: 3, maxLength: 320 },
            password: { type: 'string', minLength: 1, maxLength: 1024 },
            mode: {
              type: 'string',
              enum: ['json', 'cookie'],
              default: 'json',
              description: 'Where the refresh token goes',
            },
          },
        } as const,
      },
    },
    async (req, reply) => {
      const headers = await access.limitAnonymous([
        { name: 'login-ip', key: redisKeys.rate(`login:ip:${req.ip}`), limit: LOGIN_PER_IP, windowSec: 60 },
      ]);
      reply.headers(headers);
      const { email, password } = req.body;
      const turn = await loginThrottle.admit(email, req.ip);
      if (turn.refused) throw errors.rateLimited(turn.retryAfterSec);
      const pair = await auth.login(email, password, { web: req.body.mode === 'cookie' });
      await loginThrottle.succeeded(email, req.ip);
      if (req.body.mode === 'cookie') {
        const { refreshToken, ...rest } = pair;
        return ok({ ...rest, csrfToken: setSessionCookies(reply, refreshToken, REFRESH_TTL_SEC) }, 'Logged in');
      }
      return ok(pair, 'Logged in');
    },
  );

  api.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'Rotate a refresh token for a new token pair',
        security: [],
        description:
          '`refreshToken` is required unless the request carries the session cookie of a cookie-mode login ' +
          '(then `X-CSRF-Token` must equal the CSRF cookie, and the new refresh token is set as a cookie again).',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { refreshToken: { type: 'string', minLength: 1, maxLength: 512 } },
        } as const,
      },
    },
    async (req, reply) => {
      reply.headers(
        await access.limitAnonymous([
          { name: 'refresh-ip', key: redisKeys.rate(`refresh:ip:${req.ip}`), limit: REFRESH_PER_IP, windowSec: 60 },
        ]),
      );
      const given = req.body?.refreshToken;
      if (given !== undefined) return ok(await auth.refresh(given), 'Token refreshed');
      const fromCookie = refreshCookie(req);
      if (fromCookie === undefined) throw errors.invalidField('refreshToken', 'is required');
      checkCsrf(req, fromCookie);
      let pair;
      try {
        pair = await auth.refresh(fromCookie, { web: true });
      } catch (err) {
        // A dead session's cookies are of no further use to the browser.
        clearSessionCookies(reply);
        throw err;
      }
      const { refreshToken, ...rest } = pair;
      return ok({ ...rest, csrfToken: setSessionCookies(reply, refreshToken, REFRESH_TTL_SEC) }, 'Token refreshed');
    },
  );

  api.post(
    '/auth/logout',
    {
      config: { auth: true, role: 'viewer' },
      schema: {
        tags: ['auth'],
        summary: 'End the current session (its refresh tokens and access tokens)',
        description:
          'A cookie-mode session (the request carries the CSRF cookie) must send `X-CSRF-Token`; its cookies are cleared.',
      },
    },
    async (req, reply) => {
      if (!req.principal.sessionId)
        throw errors.validation('Only a login session can log out; revoke an API key instead');
      const cookieMode = hasCsrfCookie(req);
      if (cookieMode) checkCsrf(req);
      await auth.logout(req.principal.sessionId);
      if (cookieMode) clearSessionCookies(reply);
      return ok({ logged_out: true }, 'Logged out');
    },
  );

  api.get(
    '/auth/me',
    {
      config: { auth: true },
      schema: {
        tags: ['auth'],
        summary: 'The caller: user, organization, role, environment and credential',
        response: meResponse,
      },
    },
    async (req) => {
      const p = req.principal;
      return ok({
        user: { id: p.userId, email: p.email, role: p.role },
        organization: {
          id: p.orgId,
          name: p.orgName,
          plan: p.plan,
          rate_limit_per_minute: p.orgRateLimitPerMinute || null,
        },
        environment: p.environment,
        auth_method: p.kind,
        api_key: p.apiKey ? { id: p.apiKey.id, name: p.apiKey.name } : null,
      });
    },
  );
}
