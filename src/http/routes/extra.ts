import type { FastifyInstance } from 'fastify';

/** Route registrars of later domains (documents, webhooks, …), registered under /api/v1. */
export type ExtraRoutes = ((api: FastifyInstance) => void | Promise<void>)[];
