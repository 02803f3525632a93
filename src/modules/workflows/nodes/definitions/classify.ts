import { defineNode } from '../definition.js';
import { stageNode } from '../document-nodes.js';
import { obj } from '../specs.js';

export const classify = defineNode({
  type: 'classify',
  kind: 'action',
  label: 'Classify',
  category: 'document',
  description: 'Runs classification on the document.',
  config: obj({}),
  sideEffects: true,
  fields: [],
  initial: {},
  executor: (d) => stageNode(d.documents, 'classify'),
});
