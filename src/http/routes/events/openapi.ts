// The event routes in the OpenAPI document: events as webhooks deliver them (presentEvent).
import { EVENT_TYPES } from '../../../modules/events/events.types.js';
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
const example = {
  id: 'evt_01HZX4C2',
  type: 'document.extracted',
  createdAt: '2026-05-04T09:12:03.000Z',
  data: { document_id: 'doc_01HZX4A7Q2', project_id: 'prj_01HZX3Z1K9' },
};

export const eventsDocs: OperationDocs = {
  'GET /events': { list: true, data: eventSchema, example },
  'GET /events/:id': { data: eventSchema, example },
};
