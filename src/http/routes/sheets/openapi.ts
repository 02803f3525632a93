// The Google Sheets routes in the OpenAPI document (presentConnection, presentExport, …).
import { component, t, type OperationDocs } from '../../openapi-shapes.js';

const connection = component(
  'SheetsConnection',
  t.obj(
    {
      id: t.str,
      name: t.str,
      type: t.enum(['service_account', 'oauth']),
      client_email: t.str,
      client_id: t.str,
      created_at: t.time,
      updated_at: t.time,
    },
    ['client_email', 'client_id'],
  ),
);
const exportProps = {
  id: t.str,
  project_id: t.str,
  connection_id: t.str,
  spreadsheet_id: t.str,
  sheet_name: t.str,
  columns: t.arr(t.obj({ header: t.str, field: t.str })),
  mode: t.enum(['append', 'upsert']),
  write_header: t.bool,
  trigger: t.enum(['after_extraction', 'manual']),
  is_active: t.bool,
  status: t.enum(['active', 'error']),
  last_error: t.nstr,
  error_at: t.ntime,
  retry_at: t.ntime,
  created_at: t.time,
  updated_at: t.time,
};
const sheetExport = component('SheetsExport', t.obj(exportProps));
const withRows = t.obj({ ...exportProps, rows: t.map(t.int, 'Rows per status (queued, exported, failed …)') });
const conflictExport = 'The document is being processed, the export is not active, or the project has no active export';

export const sheetsDocs: OperationDocs = {
  'POST /integrations/sheets/connections': {
    status: 201,
    description: 'Stored (credentials encrypted, never returned)',
    data: connection,
  },
  'GET /integrations/sheets/connections': { list: true, data: connection },
  'GET /integrations/sheets/connections/:id': { data: connection },
  'DELETE /integrations/sheets/connections/:id': {
    data: t.obj({ id: t.str, deleted: t.bool }),
    errors: { 409: 'An export uses the connection (`details.export_ids`)' },
  },
  'POST /integrations/sheets/connections/:id/test': {
    description: 'The outcome: `ok` with the sheet titles, or the error Google gave',
    // Two shapes, told apart by `ok` (so a client reads `sheets` only after `ok: true`).
    data: {
      oneOf: [
        t.obj({
          ok: { type: 'boolean', const: true },
          connection_id: t.str,
          spreadsheet_id: t.str,
          sheets: t.arr(t.str),
        }),
        t.obj({
          ok: { type: 'boolean', const: false },
          connection_id: t.str,
          spreadsheet_id: t.str,
          error: t.obj({ status: t.int, code: t.nstr, reason: t.str, retryable: t.bool }),
        }),
      ],
    },
    requestExample: { spreadsheet_id: '1AbCdEfGhIjKlMnOpQrStUvWxYz' },
  },
  'POST /integrations/sheets/exports': {
    status: 201,
    description: 'Created',
    data: sheetExport,
    requestExample: {
      project_id: 'prj_01HZX3Z1K9',
      connection_id: 'shc_01HZX',
      spreadsheet_id: '1AbCdEfGhIjKlMnOpQrStUvWxYz',
      sheet_name: 'Invoices',
      columns: [{ header: 'Number', field: 'fields.invoice_number' }],
    },
  },
  'GET /integrations/sheets/exports': { list: true, data: sheetExport },
  'GET /integrations/sheets/exports/:id': { data: withRows },
  'PUT /integrations/sheets/exports/:id': { data: withRows, requestExample: { is_active: false } },
  'DELETE /integrations/sheets/exports/:id': { data: t.gone() },
  'POST /documents/:id/export': {
    status: 202,
    description: 'Queued for each export target',
    errors: { 409: conflictExport },
    data: t.obj({
      document_id: t.str,
      version: t.int,
      exports: t.arr(t.obj({ export_id: t.str, outcome: t.str, export_status: t.str, last_error: t.nstr })),
    }),
  },
  'GET /documents/:id/exports': {
    data: t.arr(
      t.obj({
        export_id: t.str,
        document_version: t.int,
        status: t.str,
        spreadsheet_id: t.str,
        sheet_name: t.str,
        exported_at: t.ntime,
        range: t.nstr,
        error: t.nstr,
        queued_at: t.ntime,
        updated_at: t.time,
      }),
    ),
  },
};
