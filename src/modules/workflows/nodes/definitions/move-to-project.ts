import { defineNode } from '../definition.js';
import { moveToProjectNode } from '../document-nodes.js';
import { id, obj } from '../specs.js';

export const moveToProject = defineNode({
  type: 'move_to_project',
  kind: 'action',
  label: 'Move to project',
  category: 'document',
  description: 'Moves the document to another project.',
  config: obj({ project_id: id }, ['project_id']),
  refs: [{ path: 'project_id', kind: 'project' }],
  sideEffects: true,
  fields: [{ path: 'project_id', label: 'Project' }],
  initial: {},
  executor: (d) => moveToProjectNode(d.documents),
});
