// Response schemas: they document the API (OpenAPI) and let Fastify serialise lists with a
// compiled serializer instead of JSON.stringify (the project list is a hot path).
import { paginationSchema } from '../../paging.js';

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const ts = { type: 'string', format: 'date-time' };
const nts = { type: ['string', 'null'], format: 'date-time' };

export const projectSchema = {
  type: 'object',
  properties: {
    id: str,
    name: str,
    description: nstr,
    color: nstr,
    icon: nstr,
    status: { type: 'string', enum: ['active', 'archived'] },
    environment: { type: 'string', enum: ['live', 'test'] },
    auto_classify: { type: 'boolean' },
    auto_extract: { type: 'boolean' },
    default_template_id: nstr,
    retention_days: { type: ['integer', 'null'] },
    allowed_file_types: { type: 'array', items: str },
    classification_threshold: { type: 'number' },
    inbound_address: nstr,
    inbound_allowed_senders: { type: 'array', items: str },
    inbound_authentication: { type: 'string', enum: ['none', 'spf', 'dkim', 'dmarc'] },
    inbound_consume: { type: 'string', enum: ['attachments', 'eml', 'both'] },
    on_near_duplicate: { type: 'string', enum: ['keep', 'review', 'reject'] },
    archived_at: nts,
    created_at: ts,
    updated_at: ts,
  },
};

export const projectListResponse = {
  200: {
    type: 'object',
    properties: {
      success: { type: 'boolean' },
      data: { type: 'array', items: projectSchema },
      pagination: paginationSchema,
      message: str,
    },
  },
};

export const projectResponse = {
  200: { type: 'object', properties: { success: { type: 'boolean' }, data: projectSchema, message: str } },
};

/** The inbound-mail settings a project takes on create and update. */
export const inboundSettingsBody = {
  inbound_allowed_senders: {
    type: 'array',
    maxItems: 200,
    items: { type: 'string', minLength: 3, maxLength: 254 },
  },
  inbound_authentication: { type: 'string', enum: ['none', 'spf', 'dkim', 'dmarc'] },
  inbound_consume: { type: 'string', enum: ['attachments', 'eml', 'both'] },
} as const;
