import { customEventTypeProblem } from '../../../events/events.types.js';
import { defineNode, EXPRESSION_HELP, TEMPLATE_HELP } from '../definition.js';
import { sendWebhookEventNode } from '../outbound-nodes.js';
import { expr, obj } from '../specs.js';

export const sendWebhookEvent = defineNode({
  type: 'send_webhook_event',
  kind: 'action',
  label: 'Send webhook event',
  category: 'outbound',
  description: 'A signed delivery with retries and an attempt log.',
  config: obj(
    {
      url: { type: 'string', minLength: 1, maxLength: 2048 },
      event: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        pattern: '^[a-z][a-z0-9_.-]*$',
        default: 'workflow.event',
      },
      payload: expr,
    },
    ['url'],
  ),
  templates: ['url'],
  expressions: ['payload'],
  sideEffects: true,
  outboundUrl: true,
  check(c) {
    const forged = typeof c.event === 'string' ? customEventTypeProblem(c.event) : null;
    return forged ? [{ path: 'event', message: forged }] : [];
  },
  fields: [
    { path: 'url', label: 'URL', help: TEMPLATE_HELP },
    { path: 'event', label: 'Event name' },
    { path: 'payload', label: 'Payload', help: EXPRESSION_HELP },
  ],
  initial: { url: 'https://' },
  executor: (d) => sendWebhookEventNode(d.outbound),
});
