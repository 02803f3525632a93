// Request and response schemas of the /workflows routes. Node and edge internals are checked by
// the graph validator (which names node ids and JSON paths); here only their outer shape. The
// request schemas have literal types (`as const`): the routes take their input types from them.
import { MAX_EDGES, MAX_NODES } from '../../../modules/workflows/graph/validate.js';
import {
  DEFAULT_SETTINGS,
  ON_ERRORS,
  RUN_STATUSES,
  WORKFLOW_STATUSES,
} from '../../../modules/workflows/workflows.types.js';
import { paginationSchema, pagingQuery, type ListPaging } from '../../paging.js';

export const TAGS = ['workflows'];
const obj = { type: 'object', additionalProperties: true } as const;
const str = { type: 'string' } as const;

const nodes = {
  type: 'array',
  maxItems: MAX_NODES,
  items: obj,
  description: 'Nodes `{id, type, name?, config, retry?, on_error?}`',
} as const;
const edges = {
  type: 'array',
  maxItems: MAX_EDGES,
  items: obj,
  description: 'Edges `{source, target, when?}`',
} as const;
const settings = {
  type: 'object',
  additionalProperties: false,
  properties: {
    timeout_seconds: {
      type: 'integer',
      minimum: 1,
      maximum: 7 * 86_400,
      description: `Default ${DEFAULT_SETTINGS.timeout_seconds}`,
    },
    max_concurrent_runs: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      description: `Default ${DEFAULT_SETTINGS.max_concurrent_runs}`,
    },
    on_error: { type: 'string', enum: [...ON_ERRORS], description: `Default ${DEFAULT_SETTINGS.on_error}` },
  },
} as const;
const variables = { type: 'object', additionalProperties: true, maxProperties: 100 } as const;
const name = { type: 'string', minLength: 1, maxLength: 200 } as const;
const description = { type: 'string', maxLength: 2000 } as const;
const status = { type: 'string', enum: [...WORKFLOW_STATUSES] } as const;

export const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name, description, nodes, edges, settings, variables, status },
} as const;

// `{}` (or no body) changes nothing and answers the workflow, like every other update.
export const updateBody = {
  type: 'object',
  additionalProperties: false,
  properties: { name, description: { type: ['string', 'null'], maxLength: 2000 }, nodes, edges, status },
} as const;

export const validateBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    nodes,
    edges,
    status: {
      ...status,
      description: 'draft checks structure only; otherwise the graph must also be runnable (default)',
    },
  },
} as const;

export const runBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    mode: { type: 'string', enum: ['execute', 'dry_run'], default: 'execute' },
    input: { ...obj, description: '`document_id` names the document the run works on' },
    variables,
  },
} as const;

// The contract: page and per_page; limit/offset are accepted too.
export const PAGING: ListPaging = { canonical: 'page' };
const page = pagingQuery(PAGING);

export const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { status, search: { type: 'string', maxLength: 200 }, ...page },
} as const;

export const runsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: [...RUN_STATUSES] },
    workflow_id: { type: 'string', maxLength: 64 },
    mode: { type: 'string', enum: ['execute', 'dry_run'] },
    ...page,
  },
} as const;

const envelope = (data: object) => ({
  type: 'object',
  properties: { success: { type: 'boolean' }, data, message: str },
});
const pageEnvelope = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    data: { type: 'array', items: obj },
    message: str,
    pagination: paginationSchema,
  },
};
const error = (description: string) => ({
  description,
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    error: {
      type: 'object',
      additionalProperties: true,
      properties: { code: str, message: str, details: {}, request_id: str },
    },
  },
});
const errors = (...codes: number[]) => {
  const text: Record<number, string> = {
    400: 'Invalid request (details name each field; graph problems also name the node id)',
    401: 'Missing or invalid credentials',
    403: 'The role may not do this',
    404: 'No such resource in this organization and environment',
    409: 'The current state refuses it',
    429: 'Rate limited',
  };
  return Object.fromEntries(codes.map((c) => [c, error(text[c])]));
};

export const responses = {
  workflow: (code: number) => ({ [code]: envelope(obj), ...errors(400, 401, 403, 404, 429) }),
  list: { 200: pageEnvelope, ...errors(400, 401, 403, 429) },
  run: (code: number) => ({ [code]: envelope(obj), ...errors(400, 401, 403, 404, 409, 429) }),
  nodeTypes: { 200: envelope({ type: 'array', items: obj }), ...errors(401, 403, 429) },
  validate: {
    200: envelope({
      type: 'object',
      properties: { valid: { type: 'boolean' }, issues: { type: 'array', items: obj } },
    }),
    ...errors(400, 401, 403, 429),
  },
};
