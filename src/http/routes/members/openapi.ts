// The member routes in the OpenAPI document (presentMember).
import { ROLES } from '../../../modules/orgs/orgs.types.js';
import { component, t, type OperationDocs } from '../../openapi-shapes.js';

const props = {
  id: t.str,
  email: t.str,
  name: t.nstr,
  role: t.enum(ROLES),
  is_active: t.bool,
  created_at: t.time,
  updated_at: t.time,
};
const member = component('Member', t.obj(props));
const example = {
  id: 'usr_01HZX3Y0',
  email: 'ana@example.com',
  name: 'Ana',
  role: 'member',
  is_active: true,
  created_at: '2026-05-04T09:00:00.000Z',
  updated_at: '2026-05-04T09:00:00.000Z',
};
const lastOwner = 'The organization would have no active owner left';

export const membersDocs: OperationDocs = {
  'GET /members': { list: true, data: member, example },
  'GET /members/:id': { data: member, example },
  'POST /members': {
    status: 201,
    description: 'Added; without a given password, `temporary_password` is shown once',
    data: t.obj({ ...props, temporary_password: t.str }, ['temporary_password']),
    example: { ...example, temporary_password: 'x7Kp-2mQa-9vTr' },
    errors: { 409: 'A user with this e-mail already exists' },
    requestExample: { email: 'ana@example.com', role: 'member', name: 'Ana' },
  },
  'PUT /members/:id': { data: member, example, errors: { 409: lastOwner }, requestExample: { role: 'admin' } },
  'DELETE /members/:id': { data: t.gone('removed'), errors: { 409: lastOwner } },
};
