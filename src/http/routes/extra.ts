import type { FastifyInstance } from 'fastify';

export type ExtraRoutes = ((api: FastifyInstance) => void | Promise<void>)[];

export function extraRouteRegistrars(extra: ExtraRoutes | undefined): ExtraRoutes {
  return extra ?? [];
}
