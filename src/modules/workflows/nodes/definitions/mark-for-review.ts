import { defineNode, TEMPLATE_HELP } from '../definition.js';
import { markForReviewNode } from '../document-nodes.js';
import { expr, obj } from '../specs.js';

export const markForReview = defineNode({
  type: 'mark_for_review',
  kind: 'action',
  label: 'Mark for review',
  category: 'document',
  description: 'Sends the document to the review queue.',
  config: obj({ reason: expr }),
  templates: ['reason'],
  sideEffects: true,
  fields: [{ path: 'reason', label: 'Reason', help: TEMPLATE_HELP }],
  initial: { reason: 'Checked by a workflow' },
  executor: (d) => markForReviewNode(d.documents),
});
