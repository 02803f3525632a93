// JSON schemas of the Sheets routes (validation + the OpenAPI document). Literal types throughout
// (`as const`): the routes take their input types from these schemas.
import { pagingQuery, type ListPaging } from '../../paging.js';

export const TAGS = ['integrations: sheets'];

// Both paging spellings; limit/offset is this list's documented one.
export const PAGING: ListPaging = { canonical: 'offset' };
const page = pagingQuery(PAGING);
const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const secretText = { type: 'string', minLength: 1, maxLength: 4096 } as const;

export const createConnectionBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    service_account_key: {
      type: 'object',
      additionalProperties: true,
      required: ['client_email', 'private_key'],
      properties: {
        client_email: { description: 'The service account' },
        private_key: { description: 'PEM private key' },
      },
      description: 'The service account key file (JSON object) as downloaded; stored encrypted, never returned',
    },
    oauth: {
      type: 'object',
      additionalProperties: false,
      required: ['client_id', 'client_secret', 'refresh_token'],
      description: 'OAuth client and a refresh token with the spreadsheets scope; stored encrypted, never returned',
      properties: {
        client_id: { type: 'string', minLength: 1, maxLength: 512 },
        client_secret: secretText,
        refresh_token: secretText,
      },
    },
  },
} as const;

export const testConnectionBody = {
  type: 'object',
  required: ['spreadsheet_id'],
  additionalProperties: false,
  properties: { spreadsheet_id: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' } },
} as const;

const column = {
  type: 'object',
  required: ['header', 'field'],
  additionalProperties: false,
  properties: {
    header: { type: 'string', minLength: 1, maxLength: 200 },
    field: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'document.*, classification.* or fields.* path, e.g. fields.total',
    },
  },
} as const;

const exportProps = {
  project_id: id,
  connection_id: id,
  spreadsheet_id: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' },
  sheet_name: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f]+$' },
  columns: { type: 'array', minItems: 1, maxItems: 200, items: column },
  mode: {
    type: 'string',
    enum: ['append', 'upsert'],
    description: 'upsert rewrites the row holding the document id (needs a document.id column)',
  },
  write_header: { type: 'boolean', description: 'Write the header row into an empty sheet (default true)' },
  trigger: { type: 'string', enum: ['after_extraction', 'manual'] },
  is_active: { type: 'boolean' },
} as const;

export const createExportBody = {
  type: 'object',
  additionalProperties: false,
  required: ['project_id', 'connection_id', 'spreadsheet_id', 'sheet_name', 'columns'],
  properties: exportProps,
} as const;

export const updateExportBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: exportProps,
} as const;

export const listQuery = { type: 'object', additionalProperties: false, properties: { ...page } } as const;
export const listExportsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { project_id: id, ...page },
} as const;

export const exportDocumentBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    export_id: { ...id, description: 'Only this export (default: every active export of the document’s project)' },
  },
} as const;
