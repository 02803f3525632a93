// Request and response schemas of the /reports routes. data_source and filters are objects here;
// the reports service checks their keys per report type and names any it does not accept. The
// request schemas have literal types (`as const`): the routes take their input types from them.
import { FORMATS } from '../../../modules/reports/output/formats.js';
import { EXECUTION_STATUSES, REPORT_TYPES } from '../../../modules/reports/reports.types.js';
import { FREQUENCIES, WEEKDAYS } from '../../../modules/reports/schedule-math.js';
import { paginationSchema, pagingQuery, type ListPaging } from '../../paging.js';

export const TAGS = ['reports'];
const obj = { type: 'object', additionalProperties: true } as const;
const str = { type: 'string' } as const;
const nullableStr = (max: number) => ({ type: ['string', 'null'], maxLength: max }) as const;

const name = { type: 'string', minLength: 1, maxLength: 200 } as const;
const dataSource = {
  ...obj,
  description:
    '`{project_ids?: string[], period?: {from, to} | {last: "24h" | "7d" | "4w" | "3m" …}, timezone?: IANA zone}`; other keys are refused (400 naming the key)',
} as const;
const filters = {
  ...obj,
  description:
    '`{status?, classification?, source?, min_confidence?, fields?}` (strings or lists of strings; min_confidence 0-1; fields: extraction_export only); other keys are refused',
} as const;
const tags = { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 50 } } as const;
const retention = {
  type: 'integer',
  minimum: 1,
  maximum: 3650,
  description: 'Days executions and their files are kept. Default 90',
} as const;

export const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type'],
  properties: {
    name,
    type: { type: 'string', enum: [...REPORT_TYPES] },
    description: nullableStr(2000),
    category: nullableStr(100),
    data_source: dataSource,
    filters,
    tags,
    retention_days: retention,
  },
} as const;

export const updateBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name,
    description: nullableStr(2000),
    category: nullableStr(100),
    data_source: dataSource,
    filters,
    tags,
    retention_days: retention,
  },
} as const;

export const scheduleBody = {
  type: 'object',
  additionalProperties: false,
  required: ['time'],
  properties: {
    time: { type: 'string', maxLength: 5, description: '"HH:MM", 24-hour, wall-clock time in `timezone`' },
    frequency: { type: 'string', enum: [...FREQUENCIES], description: 'Default daily' },
    timezone: { type: 'string', maxLength: 64, description: 'IANA time zone. Default UTC' },
    day_of_week: { type: 'string', enum: [...WEEKDAYS], description: 'Weekly only. Default monday' },
    day_of_month: {
      type: 'integer',
      minimum: 1,
      maximum: 31,
      description: 'Monthly only. Default 1; 29-31 mean that day or the last day of a shorter month',
    },
  },
} as const;

// The contract: page and per_page; limit/offset are accepted too.
export const PAGING: ListPaging = { canonical: 'page' };
const page = pagingQuery(PAGING);

export const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: [...REPORT_TYPES] },
    category: { type: 'string', maxLength: 100 },
    search: { type: 'string', maxLength: 200 },
    ...page,
  },
} as const;

export const executionsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { status: { type: 'string', enum: [...EXECUTION_STATUSES] }, ...page },
} as const;

export const downloadQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    format: { type: 'string', enum: [...FORMATS], default: 'csv' },
    section: {
      type: 'string',
      maxLength: 64,
      description: "CSV only: the section to export (default the first; see the execution's sections)",
    },
  },
} as const;

export const executionParams = {
  type: 'object',
  required: ['id', 'executionId'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64 },
    executionId: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;

const schedule = {
  type: 'object',
  properties: {
    frequency: str,
    time: str,
    timezone: str,
    day_of_week: { type: ['string', 'null'] },
    day_of_month: { type: ['integer', 'null'] },
    next_run_at: { type: 'string', format: 'date-time', description: 'UTC' },
    next_run_at_local: { type: 'string', description: "The same instant in the schedule's zone, with its offset" },
    last_run_at: { type: ['string', 'null'] },
    last_execution_id: { type: ['string', 'null'] },
    created_at: str,
    updated_at: str,
  },
};
const execution = {
  type: 'object',
  additionalProperties: true,
  properties: {
    id: str,
    report_id: str,
    status: { type: 'string', enum: [...EXECUTION_STATUSES] },
    trigger: { type: 'string', enum: ['manual', 'schedule'] },
    period: { type: 'object', properties: { from: str, to: str } },
    row_count: { type: ['integer', 'null'] },
    summary: { type: ['object', 'null'], additionalProperties: true },
    error: { type: ['object', 'null'], additionalProperties: true },
    download_path: { type: ['string', 'null'] },
    started_at: { type: ['string', 'null'] },
    finished_at: { type: ['string', 'null'] },
    created_at: str,
  },
};
const report = {
  type: 'object',
  additionalProperties: true,
  properties: {
    id: str,
    name: str,
    type: str,
    description: { type: ['string', 'null'] },
    category: { type: ['string', 'null'] },
    data_source: obj,
    filters: obj,
    tags: { type: 'array', items: str },
    retention_days: { type: 'integer' },
    schedule: { anyOf: [schedule, { type: 'null' }] },
    last_execution: { type: ['object', 'null'], additionalProperties: true },
    created_at: str,
    updated_at: str,
  },
};

const envelope = (data: object) => ({
  type: 'object',
  properties: { success: { type: 'boolean' }, data, message: str },
});
const pageEnvelope = (item: object) => ({
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    data: { type: 'array', items: item },
    message: str,
    pagination: paginationSchema,
  },
});
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
const TEXT: Record<number, string> = {
  400: 'Invalid request (details name each field, e.g. data_source.period.last or filters.foo)',
  401: 'Missing or invalid credentials',
  403: 'The role may not do this',
  404: 'No such resource in this organization and environment',
  409: 'The execution has not completed',
  429: 'Rate limited',
};
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, error(TEXT[c])]));

export const responses = {
  report: (code: number) => ({ [code]: envelope(report), ...errors(400, 401, 403, 404, 429) }),
  list: { 200: pageEnvelope(report), ...errors(400, 401, 403, 429) },
  deleted: {
    200: envelope({
      type: 'object',
      properties: { id: str, deleted: { type: 'boolean' }, files_removed: { type: 'integer' } },
    }),
    ...errors(401, 403, 404, 429),
  },
  execution: (code: number) => ({ [code]: envelope(execution), ...errors(400, 401, 403, 404, 429) }),
  executions: { 200: pageEnvelope(execution), ...errors(400, 401, 403, 404, 429) },
  schedule: (code: number) => ({ [code]: envelope(schedule), ...errors(400, 401, 403, 404, 429) }),
  scheduleDeleted: {
    200: envelope({ type: 'object', properties: { report_id: str, deleted: { type: 'boolean' } } }),
    ...errors(401, 403, 404, 429),
  },
  download: {
    200: {
      description:
        'The result file: text/csv (one section), application/json (every section) or an XLSX workbook (a worksheet per section), streamed',
      content: {
        'text/csv': { schema: { type: 'string' } },
        'application/json': { schema: { type: 'object', additionalProperties: true } },
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
          schema: { type: 'string', format: 'binary' },
        },
      },
    },
    ...errors(400, 401, 403, 404, 409, 429),
  },
};
