import { defineNode } from '../definition.js';
import { delayNode } from '../flow-nodes.js';
import { expr, obj } from '../specs.js';

export const delay = defineNode({
  type: 'delay',
  kind: 'action',
  label: 'Delay',
  category: 'flow',
  description: 'Waits; no worker is held.',
  config: obj({ seconds: { type: 'integer', minimum: 1, maximum: 7 * 86_400 }, until: expr }, [], {
    minProperties: 1,
    maxProperties: 1,
  }),
  expressions: ['until'],
  sideEffects: false,
  fields: [
    { path: 'seconds', label: 'Seconds', help: 'Up to 7 days. Set this or Until, not both.' },
    { path: 'until', label: 'Until', help: 'An expression giving a date-time.' },
  ],
  initial: { seconds: 60 },
  executor: () => delayNode,
});
