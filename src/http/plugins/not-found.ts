import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../lib/errors.js';
import { HttpError } from '../errors.js';

/**
 * Unknown paths get a 404 envelope; a known path with the wrong method gets 405 with `Allow`,
 * so clients can tell a typo from a method mistake. A browser navigating to a path of the
 * dashboard gets the app instead (`appFallback` decides).
 */
export function installNotFound(
  app: FastifyInstance,
  appFallback?: { wants(req: FastifyRequest): boolean; serve(req: FastifyRequest, reply: FastifyReply): unknown },
): void {
  const routes: { re: RegExp; method: string }[] = [];
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    const pattern = r.url
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/:[A-Za-z0-9_]+/g, '[^/]+')
      .replace(/\\\*|\*/g, '.*');
    for (const m of methods) routes.push({ re: new RegExp(`^${pattern}/?$`), method: String(m).toUpperCase() });
  });
  app.setNotFoundHandler(async (req, reply) => {
    if (appFallback?.wants(req)) return appFallback.serve(req, reply);
    const path = req.url.split('?')[0];
    const allowed = [...new Set(routes.filter((r) => r.re.test(path)).map((r) => r.method))].filter(
      (m) => m !== 'HEAD',
    );
    if (allowed.length > 0) {
      throw new HttpError(
        'METHOD_NOT_ALLOWED',
        405,
        `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
        { Allow: allowed.join(', ') },
      );
    }
    throw errors.notFound(`Route ${req.method} ${path}`);
  });
}
