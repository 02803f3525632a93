// The OpenAPI document (served at /api/v1/openapi.json, rendered at /api/v1/docs). Routes declare
// their validation schemas as usual plus an `x-docpipe` description (see `describe`): the success
// status and the shape of `data`, extra error statuses, examples, and a request body Fastify does
// not parse itself (the multipart upload). Everything every route has in common is added here, from
// what the route is: authenticated routes can answer 401, 403 and 429; routes with path parameters
// 404; routes that take input 400; routes with a body 413 and 415. All errors share one envelope.
//
// The descriptions are for the document only: they do not become Fastify response schemas, so the
// serializer never drops or coerces a field that a description forgot (tests check the answers
// against the document instead, see checkResponses).
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { Role } from '../../modules/orgs/orgs.types.js';
import { paginationSchema } from '../paging.js';
import { API_PREFIX, requiredRole } from './auth.js';
import { OPERATION_DOCS } from '../routes/openapi.js';
import { componentSchemas, type OperationDoc } from '../openapi-shapes.js';
import { VERSION } from '../../version.js';
import { webhookDeliveries } from '../routes/webhooks/openapi-deliveries.js';

type Schema = Record<string, unknown>;

const str = { type: 'string' };
const int = { type: 'integer' };

const ERROR_ENVELOPE = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { type: 'boolean', const: false },
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: {
          type: 'string',
          description: 'Stable machine-readable code, e.g. VALIDATION_ERROR, NOT_FOUND, RATE_LIMITED',
        },
        message: { type: 'string', description: 'What went wrong, for people' },
        details: {
          description: 'Per-field problems for VALIDATION_ERROR (`[{field, message, in}]`), other context elsewhere',
        },
        request_id: { type: 'string', description: 'Also in the X-Request-Id header' },
      },
    },
  },
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the tightest window', schema: int },
  'X-RateLimit-Remaining': { description: 'Requests left in that window', schema: int },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the window resets', schema: int },
};

/**
 * On every authenticated answer, not only on 429, whenever a limit applies to the caller (the
 * key's own, the plan's per minute and per day).
 */
const SUCCESS_RATE_HEADERS = {
  ...RATE_HEADERS,
  'RateLimit-Policy': {
    description: 'Every limit that applies, IETF draft form: `"name";q=<limit>;w=<window seconds>`, comma-separated',
    schema: str,
  },
  RateLimit: {
    description: 'What is left of each: `"name";r=<remaining>;t=<seconds to reset>`, comma-separated',
    schema: str,
  },
};

const err = (code: string, message: string, details?: unknown) => ({
  success: false,
  error: { code, message, ...(details !== undefined ? { details } : {}), request_id: 'req_01HZX3Q8J6M2N4P5R7S9T0V1W2' },
});

/** One shared response per error status, all with the error envelope. */
const ERROR_RESPONSES: Record<
  number,
  { name: string; description: string; example: unknown; headers?: Record<string, unknown> }
> = {
  400: {
    name: 'BadRequest',
    description: 'Invalid input; `details` names each field',
    example: err('VALIDATION_ERROR', 'Invalid body: name must NOT have fewer than 1 characters', [
      { field: 'name', message: 'must NOT have fewer than 1 characters', in: 'body' },
    ]),
  },
  401: {
    name: 'Unauthorized',
    description:
      'Missing, invalid or revoked credentials (`UNAUTHORIZED`), or an expired access token (`TOKEN_EXPIRED`)',
    example: err('UNAUTHORIZED', 'Missing or invalid credentials'),
  },
  403: {
    name: 'Forbidden',
    description: 'The role, the key’s restrictions (addresses, endpoints) or the mode do not allow this',
    example: err('FORBIDDEN', 'This requires the admin role or higher'),
  },
  404: {
    name: 'NotFound',
    description: 'No such resource in the caller’s organization and environment',
    example: err('NOT_FOUND', 'Project not found'),
  },
  409: {
    name: 'Conflict',
    description: 'The current state refuses the request',
    example: err('CONFLICT', 'A resource with these values already exists'),
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'The body or the uploaded file is larger than allowed; the message names the maximum',
    example: err(
      'PAYLOAD_TOO_LARGE',
      'Request body is larger than the maximum of 1 MiB (1048576 bytes) for this endpoint',
    ),
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The Content-Type (or the uploaded file type) is not accepted; the message names the accepted ones',
    example: err('UNSUPPORTED_MEDIA_TYPE', 'Content-Type "text/plain" is not accepted; send application/json'),
  },
  422: {
    name: 'UnprocessableEntity',
    description:
      'The Idempotency-Key was already used with a different request (IDEMPOTENCY_KEY_REUSED), or the resource cannot serve the request (UNPROCESSABLE, e.g. a template cannot be learned: `details` names each field)',
    example: err(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used with a different request (method, path or body); use a new key for a new request',
    ),
  },
  429: {
    name: 'RateLimited',
    description: 'Too many requests; retry after `Retry-After` seconds',
    example: err('RATE_LIMITED', 'Rate limit exceeded'),
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: int }, ...RATE_HEADERS },
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'A dependency is not available',
    example: err('SERVICE_UNAVAILABLE', 'Not ready'),
  },
};

type Operation = {
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown }>; required?: boolean };
  responses?: Record<
    string,
    {
      description?: string;
      content?: Record<string, { schema?: Schema; example?: unknown }>;
      headers?: unknown;
      $ref?: string;
    }
  >;
  operationId?: string;
  'x-docpipe'?: OperationDoc;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function successSchema(d: OperationDoc, data: Schema | undefined): Schema {
  if (d.list) {
    return {
      type: 'object',
      required: ['success', 'data', 'pagination', 'message'],
      properties: {
        success: { type: 'boolean', const: true },
        data: { type: 'array', items: data ?? { type: 'object' } },
        pagination: { $ref: '#/components/schemas/Pagination' },
        message: str,
      },
    };
  }
  return {
    type: 'object',
    required: ['success', 'data', 'message'],
    properties: {
      success: { type: 'boolean', const: true },
      data: data ?? { type: 'object', additionalProperties: true },
      message: str,
    },
  };
}

/** `GET /api/v1/documents/{id}` → `getDocumentsById`: unique and stable while the path is. */
function operationId(method: string, path: string): string {
  const parts = path
    .replace(/^\/api\/v1\//, '')
    .split('/')
    .filter(Boolean);
  const words = parts.map((p) => (p.startsWith('{') ? `by_${p.slice(1, -1)}` : p));
  const camel = words
    .join('_')
    .split(/[_-]+/)
    .map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
  return method + camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** Completes one operation of the generated document (see the file comment). */
function completeOperation(method: string, path: string, op: Operation): void {
  const d = op['x-docpipe'] ?? {};
  delete op['x-docpipe'];
  op.operationId ??= operationId(method, path);
  const responses = op.responses ?? {};
  // Fastify response schemas of some routes (compiled serializers) are kept as they are; any
  // generated placeholder ("Default Response" without a body) is replaced.
  for (const [code, r] of Object.entries(responses)) {
    if (Number(code) >= 400 || (r.description === 'Default Response' && !r.content)) delete responses[code];
  }
  const status = String(d.status ?? 200);
  if (d.binary) {
    const type = typeof d.binary === 'string' ? d.binary : 'application/octet-stream';
    responses[status] = {
      description: d.description ?? 'The file',
      content: { [type]: { schema: { type: 'string', contentMediaType: type } } },
    };
  } else if (d.status === 204) {
    responses[status] = { description: d.description ?? 'Done; no body' };
  } else if (!responses[status] || d.data) {
    const media: { schema: Schema; example?: unknown } = { schema: successSchema(d, d.data) };
    if (d.example !== undefined)
      media.example = {
        success: true,
        data: d.list ? [d.example] : d.example,
        ...(d.list
          ? {
              pagination: {
                total: 1,
                limit: 20,
                offset: 0,
                has_more: false,
                page: 1,
                per_page: 20,
                total_pages: 1,
                next: null,
                prev: null,
              },
            }
          : {}),
        message: 'OK',
      };
    responses[status] = { description: d.description ?? 'OK', content: { 'application/json': media } };
  } else if (responses[status].description === 'Default Response') {
    responses[status].description = d.description ?? 'OK';
  }
  for (const [code, a] of Object.entries(d.also ?? {})) {
    responses[code] = {
      description: a.description,
      content: { 'application/json': { schema: successSchema({}, a.data ?? d.data) } },
    };
  }

  if (d.requestBody) op.requestBody = { required: true, content: d.requestBody as never };
  // An update sent without a body is an empty update (`{}`): the body is optional wherever `{}` is valid.
  const json = op.requestBody?.content?.['application/json']?.schema as
    { required?: unknown[]; minProperties?: number } | undefined;
  if ((method === 'put' || method === 'patch') && json && !json.required?.length && !json.minProperties)
    op.requestBody!.required = false;
  if (d.requestExample !== undefined && op.requestBody?.content) {
    for (const media of Object.values(op.requestBody.content)) media.example = d.requestExample;
  }

  const authenticated = !(Array.isArray(op.security) && op.security.length === 0);
  const params = op.parameters ?? [];
  const codes = new Set<number>();
  if (op.requestBody || params.length > 0) codes.add(400);
  if (op.requestBody) codes.add(413).add(415);
  if (authenticated) codes.add(401).add(403).add(429);
  if (params.some((p) => p.in === 'path')) codes.add(404);
  // Idempotency-Key: 409 while a request with the key still runs, 422 for the key with another request.
  if (params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')) codes.add(409).add(422);
  const extra: Record<number, string> = { ...d.errors };
  // Idempotency-Key (plugins/idempotency.ts declares the header on the operations that take it).
  if (params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')) {
    const both = (code: number, text: string) => {
      extra[code] = extra[code] ? `${extra[code]}; or: ${text.toLowerCase()}` : text;
    };
    both(409, 'A request with this Idempotency-Key is still running');
    both(422, 'This Idempotency-Key was used for a different request in the last 24 hours');
    for (const [code, r] of Object.entries(responses)) {
      if (Number(code) < 300 && r.content)
        r.headers = {
          'Idempotent-Replayed': {
            description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key',
            schema: { type: 'string', enum: ['true'] },
          },
        };
    }
  }
  if (authenticated)
    for (const [code, r] of Object.entries(responses))
      if (Number(code) < 300 && !r.$ref) r.headers = { ...SUCCESS_RATE_HEADERS, ...(r.headers as object | undefined) };
  for (const code of Object.keys(extra)) codes.add(Number(code));
  for (const code of [...codes].sort()) {
    const shared = ERROR_RESPONSES[code];
    if (!shared) throw new Error(`${method.toUpperCase()} ${path}: no shared response for ${code}`);
    responses[String(code)] = extra[code]
      ? {
          description: extra[code],
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          ...(shared.headers ? { headers: shared.headers } : {}),
        }
      : { $ref: `#/components/responses/${shared.name}` };
  }
  op.responses = responses;
}

/** Registers @fastify/swagger with the transforms that complete every operation. */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'docpipe API',
        version: VERSION,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Document processing: projects, documents, API keys, webhooks and more. Every answer is a JSON envelope: ' +
          '`{success: true, data, message}` (lists add `pagination`) or `{success: false, error: {code, message, details?, request_id}}`.',
      },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'API key (svc_live_… / svc_test_…) or JWT access token',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: ({ schema, url, route }) => {
      if (!schema) return { schema, url };
      const cfg = route.config as { auth?: boolean; role?: Role; liveOnly?: boolean } | undefined;
      const method = String(Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
      const described = OPERATION_DOCS[`${method} ${url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : url}`];
      const out: typeof schema =
        described && !schema['x-docpipe'] ? { ...schema, 'x-docpipe': described } : { ...schema };
      // Routes without authentication take no credentials: say so instead of inheriting bearer.
      if (!cfg?.auth) return { schema: { ...out, security: out.security ?? [] }, url };
      // Each operation says which role it needs (the role check runs before anything is looked up).
      const note = `Requires the ${requiredRole(method, cfg)} role or higher.${cfg.liveOnly ? ' Live mode only.' : ''}`;
      return { schema: { ...out, description: out.description ? `${out.description}\n\n${note}` : note }, url };
    },
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: Record<string, unknown> }).openapiObject as {
        paths: Record<string, Record<string, Operation>>;
        components: Record<string, Record<string, unknown>>;
        tags?: unknown[];
      };
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        for (const method of METHODS) if (item[method]) completeOperation(method, path, item[method]);
      }
      // What docpipe sends to webhook subscribers (OpenAPI 3.1 `webhooks:`).
      (doc as { webhooks?: unknown }).webhooks = webhookDeliveries();
      doc.components.schemas = {
        ...(doc.components.schemas ?? {}),
        Error: ERROR_ENVELOPE,
        Pagination: paginationSchema,
        ...componentSchemas(),
      };
      const used = new Set(
        JSON.stringify(doc.paths)
          .match(/#\/components\/responses\/\w+/g)
          ?.map((r) => r.split('/').pop()),
      );
      doc.components.responses = Object.fromEntries(
        Object.values(ERROR_RESPONSES)
          .filter((r) => used.has(r.name))
          .map((r) => [
            r.name,
            {
              description: r.description,
              ...(r.headers ? { headers: r.headers } : {}),
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: r.example } },
            },
          ]),
      );
      return doc as never;
    },
  });
}
