// The project routes in the OpenAPI document (shapes as presentProject and stats write them).
import { component, t, type OperationDocs } from '../../openapi-shapes.js';
import { projectSchema } from './schemas.js';

const project = component('Project', { ...projectSchema, required: Object.keys(projectSchema.properties) });
const example = {
  id: 'prj_01HZX3Z1K9',
  name: 'Invoices',
  description: 'Supplier invoices',
  color: '#2563eb',
  icon: null,
  status: 'active',
  environment: 'live',
  auto_classify: true,
  auto_extract: true,
  default_template_id: null,
  retention_days: null,
  allowed_file_types: [],
  classification_threshold: 0.6,
  inbound_address: 'invoices-k3v9q2m7x1ab@in.example.com',
  inbound_allowed_senders: ['@acme.example'],
  inbound_authentication: 'dmarc',
  inbound_consume: 'attachments',
  on_near_duplicate: 'keep',
  archived_at: null,
  created_at: '2026-05-04T09:00:00.000Z',
  updated_at: '2026-05-04T09:00:00.000Z',
};

export const projectsDocs: OperationDocs = {
  'GET /projects': { list: true, data: project, example },
  'POST /projects': {
    status: 201,
    description: 'Created',
    data: project,
    example,
    requestExample: { name: 'Invoices', description: 'Supplier invoices', auto_extract: true },
  },
  'GET /projects/:id': { data: project, example },
  'PUT /projects/:id': { data: project, example, requestExample: { name: 'Invoices 2026' } },
  'DELETE /projects/:id': {
    data: t.obj({
      id: t.str,
      deleted: { type: 'boolean', const: true },
      documents_deleted: t.int,
      documents_moved: t.int,
    }),
    errors: {
      409: 'The project has documents and neither delete_documents nor move_to_project_id was given',
      503: 'Document deletion is not available',
    },
  },
  'POST /projects/:id/inbound-address/rotate': {
    data: project,
    example: { ...example, inbound_address: 'invoices-p0w8r2n5c7de@in.example.com' },
  },
  'POST /projects/:id/archive': { data: project },
  'POST /projects/:id/unarchive': { data: project },
  'GET /projects/:id/stats': {
    data: t.obj({
      project_id: t.str,
      total_documents: t.int,
      documents_by_status: t.map(t.int),
      documents_by_classification: t.map(t.int),
      total_bytes: t.int,
      total_pages: t.int,
      last_activity_at: t.time,
    }),
  },
};
