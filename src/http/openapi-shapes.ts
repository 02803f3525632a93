// What routes say about themselves in the OpenAPI document beyond their validation schemas: the
// success status and the shape of the envelope's `data`, extra errors, examples (see
// plugins/openapi.ts, which completes every operation from these).
type Schema = Record<string, unknown>;

export interface OperationDoc {
  /** Success status: 200 (default), 201 created, 202 accepted work, 204 nothing to say. */
  status?: 200 | 201 | 202 | 204;
  /** Schema of the envelope's `data`. */
  data?: Schema;
  /** `data` is a page of `data` items with a `pagination` object. */
  list?: boolean;
  /** The answer is not the JSON envelope but a file (`GET …/content`); a string names its media type. */
  binary?: boolean | string;
  /** What the success answer means (default: "OK"). */
  description?: string;
  /** Other success answers than `status`, e.g. 200 for an upload that was a duplicate. */
  also?: Record<number, { description: string; data?: Schema }>;
  /** Error statuses beyond those derived from the route (409, 422, 503 …), with what they mean. */
  errors?: Record<number, string>;
  /** An example of `data`. */
  example?: unknown;
  /** An example request body. */
  requestExample?: unknown;
  /** A request body Fastify does not validate (multipart): documented as given. */
  requestBody?: Schema;
}

declare module 'fastify' {
  interface FastifySchema {
    'x-docpipe'?: OperationDoc;
  }
}

/** Descriptions by `METHOD /path` as Fastify spells the path under /api/v1 (`GET /documents/:id`). */
export type OperationDocs = Record<string, OperationDoc>;

/** The `x-docpipe` entry of a route schema: `schema: { …, ...describe({ status: 201, data }) }`. */
export function describe(doc: OperationDoc): { 'x-docpipe': OperationDoc } {
  return { 'x-docpipe': doc };
}

// Shorthands for the response descriptions: the presenters always write every key, so objects
// built with `obj` require all of theirs unless listed in `optional`.
export const t = {
  str: { type: 'string' } as Schema,
  nstr: { type: ['string', 'null'] } as Schema,
  time: { type: 'string', format: 'date-time' } as Schema,
  ntime: { type: ['string', 'null'], format: 'date-time' } as Schema,
  int: { type: 'integer' } as Schema,
  nint: { type: ['integer', 'null'] } as Schema,
  num: { type: 'number' } as Schema,
  bool: { type: 'boolean' } as Schema,
  any: {} as Schema,
  /** A JSON object with free-form keys. */
  map: (values: Schema = {}, description?: string): Schema => ({
    type: 'object',
    additionalProperties: values,
    ...(description ? { description } : {}),
  }),
  arr: (items: Schema): Schema => ({ type: 'array', items }),
  enum: (values: readonly string[], nullable = false): Schema =>
    nullable ? { type: ['string', 'null'], enum: [...values, null] } : { type: 'string', enum: [...values] },
  nullable: (s: Schema): Schema => ({ anyOf: [s, { type: 'null' }] }),
  obj: (properties: Record<string, Schema>, optional: string[] = [], description?: string): Schema => ({
    type: 'object',
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
    ...(description ? { description } : {}),
  }),
  /** `{id, deleted: true}`-style answers of deletions. */
  gone: (flag = 'deleted'): Schema => ({
    type: 'object',
    required: ['id', flag],
    properties: { id: { type: 'string' }, [flag]: { type: 'boolean', const: true } },
  }),
};

const named: Record<string, Schema> = {};

/** Registers a schema under components/schemas and returns a reference to it. */
export function component(name: string, schema: Schema): Schema {
  if (named[name] && named[name] !== schema) throw new Error(`OpenAPI component ${name} is defined twice`);
  named[name] = schema;
  return { $ref: `#/components/schemas/${name}` };
}

/** The schemas registered with `component` (the response check resolves references with them). */
export function componentSchemas(): Readonly<Record<string, Schema>> {
  return named;
}
