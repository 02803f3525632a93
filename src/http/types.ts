import type { Principal } from '../modules/access/principal.js';
import type { Scope } from '../lib/scope.js';
import type { Role } from '../modules/orgs/orgs.types.js';

export interface RouteConfig {
  /** Requires a valid credential; default for everything but health, login and refresh. */
  auth?: boolean;
  /** Minimum role. Defaults: GET/HEAD → viewer, anything else → member. */
  role?: Role;
  /** When set, test-mode callers may not use this route (e.g. something that only exists live). */
  liveOnly?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    scope: Scope;
    /** See AccessResult.projectsVersion. */
    projectsVersion: string;
  }
  interface FastifyContextConfig {
    auth?: boolean;
    role?: Role;
    liveOnly?: boolean;
  }
}
