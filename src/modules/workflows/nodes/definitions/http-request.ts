import { defineNode, EXPRESSION_HELP, TEMPLATE_HELP } from '../definition.js';
import { httpRequestNode } from '../outbound-nodes.js';
import { expr, exprMap, obj } from '../specs.js';

export const httpRequest = defineNode({
  type: 'http_request',
  kind: 'action',
  label: 'HTTP request',
  category: 'outbound',
  description: 'A signed request to another system.',
  config: obj(
    {
      method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
      url: { type: 'string', minLength: 1, maxLength: 2048 },
      headers: { ...exprMap, additionalProperties: { type: 'string', maxLength: 4096 } },
      body: expr,
      timeout_seconds: { type: 'integer', minimum: 1, maximum: 60, default: 30 },
    },
    ['url'],
  ),
  templates: ['url'],
  templateMaps: ['headers'],
  expressions: ['body'],
  sideEffects: true,
  outboundUrl: true,
  fields: [
    { path: 'method', label: 'Method' },
    { path: 'url', label: 'URL', help: TEMPLATE_HELP },
    { path: 'headers', label: 'Headers', help: `Name → value. ${TEMPLATE_HELP}` },
    { path: 'body', label: 'Body', help: EXPRESSION_HELP },
    { path: 'timeout_seconds', label: 'Timeout (seconds)', help: '1 to 60.' },
  ],
  initial: { method: 'POST', url: 'https://' },
  executor: (d) => httpRequestNode(d.outbound),
});
