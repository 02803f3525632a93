// The webhook routes in the OpenAPI document (presentSubscription, presentDelivery, presentAttempt).
import { DELIVERY_STATUSES } from '../../../modules/webhooks/webhooks.types.js';
import { component, t, type OperationDocs } from '../../openapi-shapes.js';
import { eventSchema } from '../events/openapi.js';

const subProps = {
  id: t.str,
  url: t.str,
  events: t.arr(t.str),
  description: t.nstr,
  status: t.enum(['active', 'failing', 'disabled']),
  environment: t.enum(['live', 'test']),
  failing_since: t.ntime,
  previous_secret_expires_at: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'While the old secret still signs (after a rotation)',
  },
  created_at: t.time,
  updated_at: t.time,
};
const subscription = component('WebhookSubscription', t.obj(subProps));
const withSecret = component(
  'WebhookSubscriptionWithSecret',
  t.obj({ ...subProps, secret: { type: 'string', description: 'The signing secret: shown in this answer only' } }),
);
const deliveryProps = {
  id: t.str,
  subscription_id: t.str,
  event_id: t.str,
  event_type: t.str,
  environment: t.enum(['live', 'test']),
  status: t.enum(DELIVERY_STATUSES),
  attempts: t.int,
  next_attempt_at: t.ntime,
  last_attempt_at: t.ntime,
  last_status_code: t.nint,
  last_error: t.nstr,
  delivered_at: t.ntime,
  created_at: t.time,
  updated_at: t.time,
};
const delivery = component('WebhookDelivery', t.obj(deliveryProps));
const attempt = t.obj({
  attempt: t.int,
  trigger: t.str,
  status_code: t.nint,
  error: t.nullable(t.obj({ code: t.str, message: t.str })),
  duration_ms: t.nint,
  response_body: t.nstr,
  response_truncated: t.bool,
  next_attempt_at: t.ntime,
  attempted_at: t.time,
});
const example = {
  id: 'wh_01HZX3ZC',
  url: 'https://hooks.example.com/docpipe',
  events: ['document.extracted'],
  description: null,
  status: 'active',
  environment: 'live',
  failing_since: null,
  previous_secret_expires_at: null,
  created_at: '2026-05-04T09:00:00.000Z',
  updated_at: '2026-05-04T09:00:00.000Z',
};

export const webhooksDocs: OperationDocs = {
  'POST /webhooks': {
    status: 201,
    description: 'Created; store `secret` now',
    data: withSecret,
    example: { ...example, secret: 'whsec_3k…' },
    requestExample: { url: 'https://hooks.example.com/docpipe', events: ['document.extracted'] },
  },
  'GET /webhooks': { list: true, data: subscription, example },
  'GET /webhooks/:id/deliveries': { list: true, data: delivery },
  'GET /webhooks/deliveries/:id': {
    data: t.obj({ ...deliveryProps, payload: t.nullable(eventSchema), attempt_log: t.arr(attempt) }),
  },
  'POST /webhooks/deliveries/:id/resend': {
    status: 202,
    description: 'Queued for one attempt now',
    data: delivery,
    errors: { 409: 'The delivery is already pending' },
  },
  'GET /webhooks/:id': { data: subscription, example },
  'PUT /webhooks/:id': {
    data: subscription,
    example,
    requestExample: { events: ['document.extracted', 'document.classified'] },
  },
  'DELETE /webhooks/:id': { data: t.gone() },
  'POST /webhooks/:id/enable': {
    data: t.obj({
      ...subProps,
      released_deliveries: { type: 'integer', description: 'Suspended deliveries now queued' },
    }),
  },
  'POST /webhooks/:id/rotate-secret': { data: withSecret, requestExample: { grace_period_hours: 24 } },
  'POST /webhooks/:id/test': {
    status: 202,
    description: 'A webhook.test event was queued for this subscription',
    data: t.obj({ event_id: t.str, delivery_id: t.str }),
  },
  'POST /webhooks/:id/recover': {
    status: 202,
    description: 'The failed deliveries of the window were queued again',
    data: t.obj({ queued: t.int, since: t.time, until: t.time }),
    requestExample: { since: '2026-05-03T00:00:00Z', until: '2026-05-04T00:00:00Z' },
  },
};
