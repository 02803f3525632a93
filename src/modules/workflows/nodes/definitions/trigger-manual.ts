import { defineNode } from '../definition.js';
import { triggerNode } from '../flow-nodes.js';
import { obj } from '../specs.js';

export const manualTrigger = defineNode({
  type: 'trigger.manual',
  kind: 'trigger',
  label: 'Manual trigger',
  category: 'trigger',
  description: 'Started by Run; input.document_id names the document.',
  config: obj({}),
  sideEffects: false,
  fields: [],
  initial: {},
  executor: () => triggerNode,
});
