// The webhook deliveries in the OpenAPI document (its top-level `webhooks:`, OpenAPI 3.1): the
// requests docpipe makes to a subscription's URL, one per event type — the body (presentEvent),
// the signature headers (modules/webhooks/signature.ts) and what the answer decides (retries
// with jitter, 410, failing subscriptions). A receiver can generate its handler types from this.
import { EVENT_TYPES } from '../../../modules/events/events.types.js';

type Schema = Record<string, unknown>;

const RETRIES =
  'Any answer other than 2xx, a timeout or a network error is retried after 1 min, 5 min, 30 min, 2 h and 12 h ' +
  '(the defaults of `WEBHOOK_RETRY_DELAYS`), each delay spread uniformly over ±20% (jitter). After the last retry ' +
  'the subscription becomes `failing`: later events are stored as `suspended` and delivered once it is enabled ' +
  'again (`POST /webhooks/{id}/enable`). `410 Gone` stops retrying that delivery. Redirects are not followed. ' +
  'Delivery is at least once: the same event (same `webhook-id`) can arrive more than once.';

const header = (name: string, description: string, example: string): Schema => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

const HEADERS: Schema[] = [
  header(
    'X-Service-Signature',
    '`sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the subscription’s current secret (`whsec_…`). Verify the raw bytes before parsing them.',
    'sha256=5d41402abc4b2a76b9719d911017c592ae9f1f3b2f1c7a6a2b0f7f4d2c1e0a99',
  ),
  header('X-Service-Event-Id', 'The event’s id (the body’s `id`)', 'evt_01HZX4C2'),
  header('X-Service-Event-Type', 'The event’s type (the body’s `type`)', 'document.extracted'),
  header('webhook-id', 'Standard Webhooks: the event’s id, the same on every retry', 'evt_01HZX4C2'),
  header('webhook-timestamp', 'Standard Webhooks: the attempt’s time in Unix seconds', '1777885921'),
  header(
    'webhook-signature',
    'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`; while a rotated secret is still valid (24 h), one value per secret, space-separated, the current one first',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
];

/** One delivery per event type: `webhooks:` of the OpenAPI document. */
export function webhookDeliveries(): Record<string, Schema> {
  return Object.fromEntries(
    [...EVENT_TYPES, 'webhook.test'].map((type) => [
      type,
      {
        post: {
          operationId: `deliver${type
            .split(/[._]/)
            .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
            .join('')}`,
          tags: ['webhooks'],
          summary: type === 'webhook.test' ? 'A test delivery (POST /webhooks/{id}/test)' : `The ${type} event`,
          description: `Sent to every active subscription whose \`events\` include \`${type}\` (or \`*\`). ${RETRIES}`,
          security: [],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  allOf: [
                    { $ref: '#/components/schemas/Event' },
                    { type: 'object', properties: { type: { type: 'string', const: type } } },
                  ],
                },
              },
            },
          },
          responses: {
            '200': { description: 'Delivered (any 2xx counts; the body is ignored). Answer quickly.' },
            '410': { description: 'The receiver is gone: this delivery is not retried' },
            default: { description: 'Not delivered: retried on the schedule above' },
          },
        },
      },
    ]),
  );
}
