import { defineNode } from '../definition.js';
import { stageNode } from '../document-nodes.js';
import { id, obj } from '../specs.js';

export const extract = defineNode({
  type: 'extract',
  kind: 'action',
  label: 'Extract',
  category: 'document',
  description: 'Runs field extraction on the document.',
  config: obj({ template_id: id }),
  refs: [{ path: 'template_id', kind: 'template' }],
  sideEffects: true,
  fields: [{ path: 'template_id', label: 'Template', help: 'Leave empty to let the pipeline choose.' }],
  initial: {},
  executor: (d) => stageNode(d.documents, 'extract'),
});
