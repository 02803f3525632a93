// The report routes in the OpenAPI document (presentReport, presentSchedule, presentExecution).
// The routes' own response schemas stay as they are (compiled serializers); these describe `data`.
import { EXECUTION_STATUSES, REPORT_TYPES } from '../../../modules/reports/reports.types.js';
import { WEEKDAYS } from '../../../modules/reports/schedule-math.js';
import { component, t, type OperationDocs } from '../../openapi-shapes.js';

const schedule = component(
  'ReportSchedule',
  t.obj({
    frequency: t.enum(['daily', 'weekly', 'monthly']),
    time: { type: 'string', description: 'HH:MM in `timezone`' },
    timezone: t.str,
    day_of_week: t.enum(WEEKDAYS, true),
    day_of_month: t.nint,
    next_run_at: { type: 'string', format: 'date-time', description: 'UTC' },
    next_run_at_local: { type: 'string', description: 'The same instant in the schedule’s zone, with its offset' },
    last_run_at: t.ntime,
    last_execution_id: t.nstr,
    created_at: t.time,
    updated_at: t.time,
  }),
);
const strings = t.arr(t.str);
// What the service stores after checking them (reports.types.ts DataSource and Filters).
const dataSource = t.obj(
  {
    project_ids: strings,
    period: {
      oneOf: [
        t.obj({ from: t.str, to: t.str }),
        t.obj({ last: { type: 'string', description: 'e.g. 24h, 7d, 4w, 3m' } }),
      ],
    },
    timezone: t.str,
  },
  ['project_ids', 'period', 'timezone'],
);
const filters = t.obj(
  { status: strings, classification: strings, source: strings, min_confidence: t.num, fields: strings },
  ['status', 'classification', 'source', 'min_confidence', 'fields'],
);
const column = t.obj({
  key: t.str,
  label: t.str,
  type: t.enum(['string', 'number', 'integer', 'datetime', 'date', 'json']),
});
const report = component(
  'Report',
  t.obj({
    id: t.str,
    name: t.str,
    type: t.enum(REPORT_TYPES),
    description: t.nstr,
    category: t.nstr,
    data_source: dataSource,
    filters,
    tags: t.arr(t.str),
    retention_days: t.int,
    environment: t.enum(['live', 'test']),
    schedule: t.nullable(schedule),
    last_execution: t.nullable(
      t.obj({
        id: t.str,
        status: t.enum(EXECUTION_STATUSES),
        trigger: t.str,
        row_count: t.nint,
        created_at: t.time,
        finished_at: t.ntime,
      }),
    ),
    created_by: t.nstr,
    created_at: t.time,
    updated_at: t.time,
  }),
);
const execution = component(
  'ReportExecution',
  t.obj({
    id: t.str,
    report_id: t.str,
    status: t.enum(EXECUTION_STATUSES),
    trigger: t.enum(['manual', 'schedule']),
    report_type: t.enum(REPORT_TYPES),
    period: t.obj({ from: t.ntime, to: t.ntime }),
    timezone: t.str,
    scheduled_for: t.ntime,
    row_count: t.nint,
    summary: t.nullable(t.map()),
    sections: t.arr(t.obj({ name: t.str, title: t.str, rows: t.int, columns: t.arr(column) })),
    error: t.nullable(t.obj({ code: t.str, message: t.str })),
    attempts: t.int,
    file_bytes: t.nint,
    download_path: { type: ['string', 'null'], description: 'Once completed: where to download the result' },
    requested_by: t.nstr,
    created_at: t.time,
    started_at: t.ntime,
    finished_at: t.ntime,
    duration_ms: t.nint,
  }),
);

const scheduleExample = {
  frequency: 'monthly',
  time: '06:30',
  timezone: 'Europe/Berlin',
  day_of_week: null,
  day_of_month: 31,
  next_run_at: '2026-11-30T05:30:00.000Z',
  next_run_at_local: '2026-11-30T06:30:00+01:00',
  last_run_at: null,
  last_execution_id: null,
  created_at: '2026-11-01T08:00:00.000Z',
  updated_at: '2026-11-01T08:00:00.000Z',
};
const executionExample = {
  id: 'exe_01HZX6A1',
  report_id: 'rpt_01HZX5Z0',
  status: 'completed',
  trigger: 'manual',
  report_type: 'extraction_export',
  period: { from: '2026-10-01T00:00:00.000Z', to: '2026-11-01T00:00:00.000Z' },
  timezone: 'Europe/Berlin',
  scheduled_for: null,
  row_count: 42,
  summary: { documents: 42 },
  sections: [
    {
      name: 'rows',
      title: 'Documents',
      rows: 42,
      columns: [
        { key: 'invoice_number', label: 'Invoice number', type: 'string' },
        { key: 'total', label: 'Total', type: 'number' },
      ],
    },
  ],
  error: null,
  attempts: 1,
  file_bytes: 5120,
  download_path: '/api/v1/reports/rpt_01HZX5Z0/executions/exe_01HZX6A1/download',
  requested_by: 'usr_01HZX3Y0',
  created_at: '2026-11-01T08:00:00.000Z',
  started_at: '2026-11-01T08:00:01.000Z',
  finished_at: '2026-11-01T08:00:02.000Z',
  duration_ms: 1000,
};

export const reportsDocs: OperationDocs = {
  'GET /reports': { list: true, data: report },
  'POST /reports': {
    status: 201,
    description: 'Created',
    data: report,
    requestExample: { name: 'Monthly documents', type: 'document_summary', data_source: { period: { last: '30d' } } },
  },
  'GET /reports/:id': { data: report },
  'PUT /reports/:id': { data: report, requestExample: { name: 'Monthly documents (all projects)' } },
  'DELETE /reports/:id': {
    data: t.obj({ id: t.str, deleted: { type: 'boolean', const: true }, files_removed: t.int }),
  },
  'POST /reports/:id/run': { status: 202, description: 'The execution is queued', data: execution },
  'GET /reports/:id/schedule': { data: schedule, example: scheduleExample },
  'POST /reports/:id/schedule': {
    status: 201,
    description: 'Schedule created',
    data: schedule,
    also: { 200: { description: 'Schedule replaced' } },
    requestExample: { frequency: 'monthly', day_of_month: 1, time: '07:00', timezone: 'Europe/Berlin' },
  },
  'DELETE /reports/:id/schedule': { data: t.obj({ report_id: t.str, deleted: { type: 'boolean', const: true } }) },
  'GET /reports/:id/executions': { list: true, data: execution },
  'GET /reports/:id/executions/:executionId': { data: execution, example: executionExample },
  'GET /reports/:id/executions/:executionId/download': { errors: { 409: 'The execution has not completed' } },
};
