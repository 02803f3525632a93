// JSON schemas of the webhook routes (validation + the OpenAPI document).
import { pagingQuery, type ListPaging } from '../../paging.js';
import { EVENT_TYPES } from '../../../modules/events/events.types.js';
import { DELIVERY_STATUSES } from '../../../modules/webhooks/webhooks.types.js';

export const TAGS = ['webhooks'];

const url = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  description: 'http or https URL that receives POST requests',
};
const events = {
  type: 'array',
  minItems: 1,
  maxItems: 20,
  items: { type: 'string', enum: [...EVENT_TYPES, '*'] },
  description: 'Event types to receive; `*` for all of them',
};
const description = { type: 'string', maxLength: 500 };
const secret = {
  type: 'string',
  minLength: 16,
  maxLength: 256,
  description: 'Signing secret; generated (whsec_…) when absent',
};
// Both paging spellings; limit/offset is this list's documented one.
export const PAGING: ListPaging = { canonical: 'offset' };
const page = pagingQuery(PAGING);

export const createBody = {
  type: 'object',
  required: ['url', 'events'],
  additionalProperties: false,
  properties: { url, events, secret, description },
};

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
};

export const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { status: { type: 'string', enum: ['active', 'failing', 'disabled'] }, ...page },
};

export const deliveriesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: [...DELIVERY_STATUSES] },
    event_type: { type: 'string', enum: [...EVENT_TYPES, 'webhook.test'] },
    event_id: { type: 'string', minLength: 1, maxLength: 64 },
    ...page,
  },
};

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
};

export const recoverBody = {
  type: 'object',
  required: ['since'],
  additionalProperties: false,
  properties: {
    since: { type: 'string', format: 'date-time' },
    until: { type: 'string', format: 'date-time', description: 'Default: now. At most 14 days after since.' },
  },
};
