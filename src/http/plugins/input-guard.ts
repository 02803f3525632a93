import type { FastifyInstance } from 'fastify';
import { errors } from '../../lib/errors.js';

/** Deepest nesting of arrays and objects accepted in a body (the deepest schema here is ~6). */
export const MAX_DEPTH = 64;

export type InputProblem = { field: string; message: string };

/**
 * Finds what no route can store: a NUL character in any string or key (PostgreSQL text and
 * jsonb cannot hold one) or nesting deeper than MAX_DEPTH. Stops at the first problem and never
 * recurses past MAX_DEPTH, so a hostile body cannot exhaust the stack here either.
 */
export function inputProblem(value: unknown, field = '(root)', depth = 0): InputProblem | null {
  if (typeof value === 'string')
    return value.includes('\u0000') ? { field, message: 'must not contain NUL (\\u0000) characters' } : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return { field, message: `is nested more than ${MAX_DEPTH} levels deep` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = inputProblem(value[i], `${field}[${i}]`, depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const name = field === '(root)' ? k : `${field}.${k}`;
    if (k.includes('\u0000'))
      return { field: name.replace(/\u0000/g, '\\u0000'), message: 'must not contain NUL (\\u0000) characters' };
    const p = inputProblem(v, name, depth + 1);
    if (p) return p;
  }
  return null;
}

/** Throws the 400 envelope for a problem in `value` (`where`: body, querystring, params, a form field). */
export function assertCleanInput(value: unknown, where: string, field?: string): void {
  const p = inputProblem(value, field);
  if (p)
    throw errors.validation(`Invalid ${where}: ${p.field} ${p.message}`, [
      { field: p.field, message: p.message, in: where },
    ]);
}

/**
 * One check for every route, before schema validation: path parameters, the query string and
 * JSON bodies. Multipart fields are read by their route, which calls assertCleanInput itself.
 * An update sent without a body (no Content-Type, or an empty JSON body) is an empty update,
 * `{}`: routes whose body is optional take it as is, routes that need fields answer a 400 that
 * names them instead of "body must be object".
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (req, _reply, done) => {
    try {
      if ((req.method === 'PUT' || req.method === 'PATCH') && req.body == null && !req.isMultipart()) req.body = {};
      assertCleanInput(req.params, 'params');
      assertCleanInput(req.query, 'querystring');
      if (req.body !== undefined && !req.isMultipart()) assertCleanInput(req.body, 'body');
      done();
    } catch (err) {
      done(err as Error);
    }
  });
}
