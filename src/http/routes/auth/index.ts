import type { FastifyInstance } from 'fastify';
import { errors } from '../../../lib/errors.js';
import { ok } from '../../envelope.js';
import type { RouteDeps } from '../index.js';

// Brute-force brakes for the unauthenticated endpoints (per minute). Per e-mail address there is
// no limit that others could exhaust, but a progressive delay (login-throttle.ts).
const LOGIN_PER_IP = 20;
const REFRESH_PER_IP = 60;

// A response schema documents /auth/me and gives it a compiled serialiser (it is called a lot).
const nstr = { type: ['string', 'null'] };
const meResponse = {
  200: {
    type: 'object',
    properties: {
      success: { type: 'boolean' },
      data: {
        type: 'object',
        properties: {
          user: { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } } },
          organization: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, plan: { type: 'string' }, rate_limit_per_minute: { type: 'integer' } } },
          environment: { type: 'string', enum: ['live', 'test'] },
          auth_method: { type: 'string', enum: ['user', 'api_key'] },
          api_key: { type: ['object', 'null'], properties: { id: { type: 'string' }, name: { type: 'string' } } },
        },
      },
      message: { type: 'string' },
    },
  },
};

export function registerAuthRoutes(api: FastifyInstance, deps: RouteDeps): void {
  const { access, auth, redisKeys, loginThrottle } = deps;

  api.post<{ Body: { email: string; password: string } }>('/auth/login', {
    schema: {
      tags: ['auth'], summary: 'Exchange e-mail and password for a token pair', security: [],
      body: {
        type: 'object', required: ['email', 'password'], additionalProperties: false,
        properties: { email: { type: 'string', minLength: 3, maxLength: 320 }, password: { type: 'string', minLength: 1, maxLength: 1024 } },
      },
    },
  }, async (req, reply) => {
    const headers = await access.limitAnonymous([
      { name: 'login-ip', key: redisKeys.rate(`login:ip:${req.ip}`), limit: LOGIN_PER_IP, windowSec: 60 },
    ]);
    reply.headers(headers);
    const { email, password } = req.body;
    const turn = await loginThrottle.admit(email, req.ip);
    if (turn.refused) throw errors.rateLimited(turn.retryAfterSec);
    const pair = await auth.login(email, password);
    await loginThrottle.succeeded(email, req.ip);
    return ok(pair, 'Logged in');
  });

  api.post<{ Body: { refreshToken: string } }>('/auth/refresh', {
    schema: {
      tags: ['auth'], summary: 'Rotate a refresh token for a new token pair', security: [],
      body: { type: 'object', required: ['refreshToken'], additionalProperties: false, properties: { refreshToken: { type: 'string', minLength: 1, maxLength: 512 } } },
    },
  }, async (req, reply) => {
    reply.headers(await access.limitAnonymous([{ name: 'refresh-ip', key: redisKeys.rate(`refresh:ip:${req.ip}`), limit: REFRESH_PER_IP, windowSec: 60 }]));
    return ok(await auth.refresh(req.body.refreshToken), 'Token refreshed');
  });

  api.post('/auth/logout', {
    config: { auth: true, role: 'viewer' },
    schema: { tags: ['auth'], summary: 'End the current session (its refresh tokens and access tokens)' },
  }, async (req) => {
    if (!req.principal.sessionId) throw errors.validation('Only a login session can log out; revoke an API key instead');
    await auth.logout(req.principal.sessionId);
    return ok({ logged_out: true }, 'Logged out');
  });

  api.get('/auth/me', {
    config: { auth: true },
    schema: { tags: ['auth'], summary: 'The caller: user, organization, role, environment and credential', response: meResponse },
  }, async (req) => {
    const p = req.principal;
    return ok({
      user: { id: p.userId, email: p.email, role: p.role },
      organization: { id: p.orgId, name: p.orgName, plan: p.plan, rate_limit_per_minute: p.orgRateLimitPerMinute },
      environment: p.environment,
      auth_method: p.kind,
      api_key: p.apiKey ? { id: p.apiKey.id, name: p.apiKey.name } : null,
    });
  });
}
