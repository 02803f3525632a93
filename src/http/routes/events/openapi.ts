// The event routes in the OpenAPI document: events as webhooks deliver them (presentEvent).
import { CUSTOM_EVENT_RULE, EVENT_TYPES } from '../../../modules/events/events.types.js';
import { component, t, type OperationDocs } from '../../openapi-shapes.js';

export const eventSchema = component(
  'Event',
  t.obj({
    id: t.str,
    type: t.enum([...EVENT_TYPES, 'webhook.test']),
    createdAt: t.time,
    data: t.map(
      t.any,
      'The event’s payload (for document events: the document’s id, project, status, classification and fields)',
    ),
  }),
);

/** An event as GET /events shows it: the delivered event and who wrote it. */
export const eventRecordSchema = component(
  'EventRecord',
  t.obj({
    id: t.str,
    type: {
      type: 'string',
      description: `A platform event type (${[...EVENT_TYPES, 'webhook.test'].join(', ')}) or, with \`source\` set, a workflow's custom type (${CUSTOM_EVENT_RULE})`,
    },
    createdAt: t.time,
    data: t.map(t.any, 'The event’s payload, as delivered'),
    source: t.nullable(
      t.obj(
        { type: t.enum(['workflow']), workflow_id: t.str, run_id: t.str, node_id: t.str },
        [],
        'Null for the platform’s own events; for a custom event a workflow sent (send_webhook_event), the workflow, run and node that sent it',
      ),
    ),
  }),
);
const example = {
  id: 'evt_01HZX4C2',
  type: 'document.extracted',
  createdAt: '2026-05-04T09:12:03.000Z',
  data: { document_id: 'doc_01HZX4A7Q2', project_id: 'prj_01HZX3Z1K9' },
};

export const eventsDocs: OperationDocs = {
  'GET /events': { list: true, data: eventRecordSchema, example: { ...example, source: null } },
  'GET /events/:id': { data: eventRecordSchema, example: { ...example, source: null } },
};
