// JSON schemas of the webhook routes (validation + the OpenAPI document). Literal types throughout
// (`as const`): the routes take their input types from these schemas.
import { pagingQuery, type ListPaging } from '../../paging.js';
import { EVENT_TYPES } from '../../../modules/events/events.types.js';
import { DELIVERY_STATUSES } from '../../../modules/webhooks/webhooks.types.js';

export const TAGS = ['webhooks'];

const url = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  description: 'http or https URL that receives POST requests',
} as const;
const events = {
  type: 'array',
  minItems: 1,
  maxItems: 20,
  items: { type: 'string', enum: [...EVENT_TYPES, '*'] },
  description: 'Event types to receive; `*` for all of them',
} as const;
const description = { type: 'string', maxLength: 500 } as const;
const secret = {
  type: 'string',
  minLength: 16,
  maxLength: 256,
  description: 'Signing secret; generated (whsec_…) when absent',
} as const;
// Both paging spellings; limit/offset is this list's documented one.
export const PAGING: ListPaging = { canonical: 'offset' };
const page = pagingQuery(PAGING);

export const createBody = {
  type: 'object',
  required: ['url', 'events'],
  additionalProperties: false,
  properties: { url, events, secret, description },
} as const;

export const updateBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    url,
    events,
    description: { ...description, type: ['string', 'null'] },
    status: {
      type: 'string',
      enum: ['active', 'disabled'],
      description: '`disabled` stops deliveries; `active` re-enables (like POST …/enable)',
    },
  },
} as const;

export const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { status: { type: 'string', enum: ['active', 'failing', 'disabled'] }, ...page },
} as const;

export const deliveriesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: [...DELIVERY_STATUSES] },
    event_type: { type: 'string', enum: [...EVENT_TYPES, 'webhook.test'] },
    event_id: { type: 'string', minLength: 1, maxLength: 64 },
    ...page,
  },
} as const;

export const rotateBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    secret,
    grace_period_hours: {
      type: 'number',
      minimum: 0,
      maximum: 168,
      description: 'How long the old secret keeps signing; default 24',
    },
  },
} as const;

export const recoverBody = {
  type: 'object',
  required: ['since'],
  additionalProperties: false,
  properties: {
    since: { type: 'string', format: 'date-time' },
    until: { type: 'string', format: 'date-time', description: 'Default: now. At most 14 days after since.' },
  },
} as const;
