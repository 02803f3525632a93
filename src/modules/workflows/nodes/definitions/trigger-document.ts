import { defineNode } from '../definition.js';
import { triggerNode } from '../flow-nodes.js';
import { DOCUMENT_TRIGGER_EVENTS } from '../../../events/events.types.js';
import { id, obj } from '../specs.js';

export const documentTrigger = defineNode({
  type: 'trigger.document',
  kind: 'trigger',
  label: 'Document event',
  category: 'trigger',
  description: 'One run per matching document event (active workflows only).',
  config: obj(
    {
      events: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...DOCUMENT_TRIGGER_EVENTS] } },
      filters: obj({
        project_ids: { type: 'array', maxItems: 50, items: id },
        sources: { type: 'array', maxItems: 3, items: { enum: ['upload', 'email', 'api'] } },
        classification_types: {
          type: 'array',
          maxItems: 50,
          items: { type: 'string', minLength: 1, maxLength: 100 },
        },
        min_confidence: { type: 'number', minimum: 0, maximum: 1 },
        max_confidence: { type: 'number', minimum: 0, maximum: 1 },
      }),
    },
    ['events'],
  ),
  refs: [{ path: 'filters.project_ids', kind: 'project' }],
  sideEffects: false,
  check(c) {
    const f = (c.filters ?? {}) as { min_confidence?: number; max_confidence?: number };
    return typeof f.min_confidence === 'number' &&
      typeof f.max_confidence === 'number' &&
      f.min_confidence > f.max_confidence
      ? [{ path: 'filters.min_confidence', message: 'must not exceed max_confidence' }]
      : [];
  },
  fields: [
    { path: 'events', label: 'Events' },
    { path: 'filters.project_ids', label: 'Only these projects' },
    { path: 'filters.sources', label: 'Only these sources' },
    {
      path: 'filters.classification_types',
      label: 'Only these types',
      help: 'Comma-separated, e.g. invoice, receipt.',
    },
    { path: 'filters.min_confidence', label: 'Minimum confidence', help: '0 to 1.' },
    { path: 'filters.max_confidence', label: 'Maximum confidence', help: '0 to 1.' },
  ],
  initial: { events: ['document.extracted'] },
  executor: () => triggerNode,
});
