import { defineNode, EXPRESSION_HELP } from '../definition.js';
import { setFieldsNode } from '../document-nodes.js';
import { exprMap, obj } from '../specs.js';

export const setFields = defineNode({
  type: 'set_fields',
  kind: 'action',
  label: 'Set fields',
  category: 'document',
  description: 'Writes fields or metadata on the document.',
  config: obj({ fields: exprMap, metadata: exprMap }, [], { minProperties: 1 }),
  expressionMaps: ['fields', 'metadata'],
  sideEffects: true,
  fields: [
    { path: 'fields', label: 'Fields', help: `Name → expression. ${EXPRESSION_HELP}` },
    { path: 'metadata', label: 'Metadata', help: 'Name → expression.' },
  ],
  initial: { fields: { status_note: '"checked"' } },
  executor: (d) => setFieldsNode(d.documents),
});
