import type { FastifyInstance } from 'fastify';
import type { AccessService } from '../../modules/access/access.service.js';
import { roleAtLeast, type Role } from '../../modules/orgs/orgs.types.js';
import { errors } from '../../lib/errors.js';
import { routedPath } from '../routed-path.js';

export const API_PREFIX = '/api/v1';

/** The least role a route needs: its own `role`, else viewer for reads and member for writes. */
export function requiredRole(method: string, cfg: { role?: Role } | undefined): Role {
  return cfg?.role ?? (method === 'GET' || method === 'HEAD' ? 'viewer' : 'member');
}

/**
 * Authenticates every route whose config says `auth: true`, before the body is read, so an
 * unauthenticated upload is refused without streaming it. Adds the rate-limit headers.
 */
export function installAuth(app: FastifyInstance, access: AccessService): void {
  app.decorateRequest('principal', null as never);
  app.decorateRequest('scope', null as never);
  app.decorateRequest('projectsVersion', null as never);
  app.addHook('onRequest', async (req, reply) => {
    const cfg = req.routeOptions.config;
    if (!cfg?.auth) return;
    // Key restrictions are checked against the route the router matched, never the raw URL.
    const path = routedPath(req.routeOptions.url ?? '', req.params as Record<string, unknown>, API_PREFIX);
    const auth = req.headers.authorization;
    const env = req.headers['x-environment'];
    // Failures throw domain errors; a 429 carries its rate-limit headers on the error itself.
    const { principal, headers, projectsVersion } = await access.authenticate({
      authorization: auth,
      environmentHeader: Array.isArray(env) ? env[0] : env,
      ip: req.ip,
      method: req.method,
      path,
    });
    reply.headers(headers);
    const needed = requiredRole(req.method, cfg);
    if (!roleAtLeast(principal.role, needed)) throw errors.forbidden(`This requires the ${needed} role or higher`);
    // Like the role, decided before anything is looked up.
    if (cfg.liveOnly && principal.environment !== 'live')
      throw errors.forbidden('This works in live mode only (test-mode credentials cannot use it)');
    req.principal = principal;
    req.scope = { orgId: principal.orgId, environment: principal.environment };
    req.projectsVersion = projectsVersion;
  });
}
