import { Ajv, type ErrorObject } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldIssue } from '../lib/errors.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

// Bodies are validated strictly (no type coercion, unknown fields rejected by the schemas);
// query strings and params are coerced because they only ever arrive as text.
// `verbose` keeps the failing schema on each error, so a message can list the accepted fields.
const bodyAjv = addFormats(
  new Ajv({
    allErrors: true,
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    verbose: true,
  }),
);
const textAjv = addFormats(
  new Ajv({ allErrors: true, coerceTypes: 'array', removeAdditional: false, useDefaults: true, strict: false }),
);

/** Integers the database's int4 columns and offsets can hold: the bounds of any integer a schema leaves open. */
const INT_MAX = 2_147_483_647;
const INT_MIN = -2_147_483_648;

/**
 * A copy of `schema` in which every integer without its own bounds gets int4's. Without them a
 * query such as `page=99999999999999999999` is a valid integer to Ajv (1e20) and overflows in SQL.
 */
export function boundIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundIntegers);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    // Keywords whose values are data, not schemas.
    out[k] =
      k === 'enum' || k === 'const' || k === 'default' || k === 'examples' || k === 'required' ? v : boundIntegers(v);
  }
  const t = out.type;
  if (t === 'integer' || (Array.isArray(t) && t.includes('integer'))) {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = INT_MAX;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = INT_MIN;
  }
  return out;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(boundIntegers(schema) as object) as ReturnType<FastifySchemaCompiler<object>>;
};

function fieldOf(e: ErrorObject): string {
  const base = e.instancePath
    .replace(/^\//, '')
    .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
    .replace(/\//g, '.');
  const p = e.params as { missingProperty?: string; additionalProperty?: string };
  const extra = p.missingProperty ?? p.additionalProperty;
  return [base, extra].filter(Boolean).join('.') || '(root)';
}

function messageOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not an accepted field';
    case 'type':
      return `must be ${String(p.type)}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'minProperties': {
      const fields = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const least = p.limit === 1 ? 'at least one field' : `at least ${String(p.limit)} fields`;
      return fields.length ? `must contain ${least} of: ${fields.join(', ')}` : `must contain ${least}`;
    }
    default:
      return e.message ?? 'is invalid';
  }
}

/** Turns Ajv errors into one line per field, prefixed with where the field was (body, query…). */
export function toFieldIssues(errs: ErrorObject[], context?: string): FieldIssue[] {
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const e of errs) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const issue = { field: fieldOf(e), message: messageOf(e), ...(context ? { in: context } : {}) };
    const k = `${issue.field}|${issue.message}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(issue);
    }
  }
  return out;
}
