// JSON schemas of the mailbox routes (validation + the OpenAPI document).
import { pagingQuery, type ListPaging } from '../../paging.js';

export const TAGS = ['integrations'];

// Literal types throughout (`as const`): the routes take their input types from these schemas.
const str = (max: number, description?: string) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength: max,
    ...(description ? { description } : {}),
  }) as const;
const nullable = <const S extends { type: string }>(
  s: S,
): Omit<S, 'type'> & { readonly type: readonly [S['type'], 'null'] } => ({ ...s, type: [s.type, 'null'] as const });
const globs = {
  type: 'array',
  maxItems: 50,
  items: str(200),
  description: 'Filename globs (`*`, `?`), case-insensitive',
} as const;

const fields = {
  name: str(200),
  host: { ...str(253, 'IMAP server host name or address'), pattern: '^[A-Za-z0-9._:\\[\\]-]+$' },
  port: { type: 'integer', minimum: 1, maximum: 65535, description: 'Default 993 for tls, 143 otherwise' },
  security: {
    type: 'string',
    enum: ['tls', 'starttls', 'none'],
    description: 'Default tls; none sends the password in clear text',
  },
  username: str(320),
  password: { ...str(1024), description: 'Stored encrypted; never returned' },
  folder: str(255, 'Folder to watch; default INBOX'),
  project_id: str(64, 'Project that receives the documents'),
  after_processing: {
    type: 'string',
    enum: ['move', 'mark_seen', 'flag', 'delete'],
    description: 'IMAP action once the documents are committed; default mark_seen',
  },
  processed_folder: nullable(str(255, 'Target of after_processing=move (created when missing)')),
  failed_folder: nullable(str(255, 'Where messages that finally failed are moved; unset: they stay unseen')),
  allowed_senders: {
    type: 'array',
    maxItems: 100,
    items: str(320),
    description: 'Addresses or @domain entries; empty allows everyone',
  },
  subject_filter: {
    ...nullable({ type: 'string', maxLength: 500 }),
    description: 'Case-insensitive substring, or /regex/flags',
  },
  attachment_include: globs,
  attachment_exclude: globs,
  consume: {
    type: 'string',
    enum: ['attachments', 'eml', 'both'],
    description: 'attachments (default), the whole message as one .eml document, or both',
  },
  include_inline: { type: 'boolean', description: 'Also take images embedded in the HTML body; default false' },
  max_age_days: { type: ['integer', 'null'], minimum: 1, maximum: 36500, description: 'Ignore older mail' },
  is_active: { type: 'boolean' },
} as const;

export const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'host', 'username', 'password', 'project_id'],
  properties: fields,
} as const;

export const updateBody = { type: 'object', additionalProperties: false, properties: fields } as const;

// Both paging spellings; limit/offset is this list's documented one.
export const PAGING: ListPaging = { canonical: 'offset' };
const page = pagingQuery(PAGING);

export const listQuery = { type: 'object', additionalProperties: false, properties: page } as const;

export const messagesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { status: { type: 'string', enum: ['processing', 'consumed', 'skipped', 'failed'] }, ...page },
} as const;

export const messageParams = {
  type: 'object',
  required: ['id', 'messageId'],
  additionalProperties: false,
  properties: { id: str(64), messageId: str(64) },
} as const;
