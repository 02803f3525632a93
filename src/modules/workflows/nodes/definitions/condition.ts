import { defineNode, EXPRESSION_HELP } from '../definition.js';
import { conditionNode } from '../flow-nodes.js';
import { expr, obj } from '../specs.js';

export const condition = defineNode({
  type: 'condition',
  kind: 'action',
  label: 'Condition',
  category: 'flow',
  description: 'Follows the true or the false branch.',
  config: obj({ expression: expr }, ['expression']),
  branches: ['true', 'false'],
  expressions: ['expression'],
  sideEffects: false,
  fields: [{ path: 'expression', label: 'Expression', help: EXPRESSION_HELP }],
  initial: { expression: 'document.classification.confidence > 0.8' },
  executor: () => conditionNode,
});
