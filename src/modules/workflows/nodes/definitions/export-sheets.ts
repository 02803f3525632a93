import { defineNode } from '../definition.js';
import { exportSheetsNode } from '../outbound-nodes.js';
import { id, obj } from '../specs.js';

export const exportSheets = defineNode({
  type: 'export_sheets',
  kind: 'action',
  label: 'Export to Sheets',
  category: 'outbound',
  description: 'Appends the document to a Google Sheets export.',
  config: obj({ export_id: id }, ['export_id']),
  refs: [{ path: 'export_id', kind: 'export' }],
  sideEffects: true,
  fields: [{ path: 'export_id', label: 'Sheets export' }],
  initial: {},
  executor: (d) => exportSheetsNode(d.outbound),
});
