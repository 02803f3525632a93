import type { FastifyInstance } from 'fastify';
import type { AccessService } from '../../modules/access/access.service.js';
import type { ApiKeysService } from '../../modules/api-keys/api-keys.service.js';
import type { AuthService } from '../../modules/auth/auth.service.js';
import type { LoginThrottle } from '../../modules/auth/login-throttle.js';
import type { OrgsRepository } from '../../modules/orgs/orgs.repository.js';
import type { ProjectsService } from '../../modules/projects/projects.service.js';
import type { RedisKeys } from '../../lib/redis.js';
import { registerSystemRoutes, type HealthChecks } from './system/index.js';
import { registerAuthRoutes } from './auth/index.js';
import { registerApiKeyRoutes } from './api-keys/index.js';
import { registerProjectRoutes } from './projects/index.js';
import { registerEventRoutes } from './events/index.js';
import type { EventsRepository } from '../../modules/events/events.repository.js';
import type { ExtraRoutes } from './extra.js';

export interface RouteDeps {
  access: AccessService;
  auth: AuthService;
  /** Progressive per-address delay for logins. */
  loginThrottle: LoginThrottle;
  orgs: OrgsRepository;
  apiKeys: ApiKeysService;
  projects: ProjectsService;
  events: EventsRepository;
  redisKeys: RedisKeys;
  health: HealthChecks;
  /** Routes of later domains (documents, webhooks, …), each given the same deps object. */
  extra?: ExtraRoutes;
}

export async function registerRoutes(api: FastifyInstance, deps: RouteDeps): Promise<void> {
  registerSystemRoutes(api, deps.health);
  registerAuthRoutes(api, deps);
  registerApiKeyRoutes(api, deps.apiKeys);
  registerProjectRoutes(api, deps.projects);
  registerEventRoutes(api, deps.events);
  for (const register of deps.extra ?? []) await register(api);
}
