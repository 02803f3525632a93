// The API-key routes in the OpenAPI document (shapes as presentApiKey writes them).
import { component, t, type OperationDocs } from '../../openapi-shapes.js';

const props = {
  id: t.str,
  name: t.str,
  environment: t.enum(['live', 'test']),
  masked_key: t.str,
  status: t.enum(['active', 'inactive', 'revoked', 'expired']),
  is_active: t.bool,
  rate_limit_per_minute: t.nint,
  rate_limit_per_day: t.nint,
  expires_at: t.ntime,
  allowed_ips: t.arr(t.str),
  allowed_endpoints: t.arr(t.str),
  metadata: t.map(),
  created_by: t.str,
  last_used_at: t.ntime,
  revoked_at: t.ntime,
  created_at: t.time,
  updated_at: t.time,
};
const apiKey = component('ApiKey', t.obj(props));
const created = component(
  'ApiKeyCreated',
  t.obj({ ...props, key: { type: 'string', description: 'The secret: shown in this answer only' } }),
);
const example = {
  id: 'key_01HZX3ZB',
  name: 'ci-upload',
  environment: 'live',
  masked_key: 'svc_live_…9f2a',
  status: 'active',
  is_active: true,
  rate_limit_per_minute: null,
  rate_limit_per_day: null,
  expires_at: null,
  allowed_ips: [],
  allowed_endpoints: ['POST /documents', 'GET /documents/*'],
  metadata: {},
  created_by: 'usr_01HZX3Y0',
  last_used_at: null,
  revoked_at: null,
  created_at: '2026-05-04T09:00:00.000Z',
  updated_at: '2026-05-04T09:00:00.000Z',
};

export const apiKeysDocs: OperationDocs = {
  'GET /api-keys': { list: true, data: apiKey, example },
  'POST /api-keys': {
    status: 201,
    description: 'Created; store `key` now, it is not shown again',
    data: created,
    example: { ...example, key: 'svc_live_4q7…' },
    requestExample: {
      name: 'ci-upload',
      environment: 'live',
      allowed_endpoints: ['POST /documents', 'GET /documents/*'],
    },
  },
  'GET /api-keys/:api_key_id': { data: apiKey, example },
  'PUT /api-keys/:api_key_id': {
    data: apiKey,
    example,
    errors: { 409: 'The key is revoked and cannot be changed' },
    requestExample: { name: 'ci-upload (old)', is_active: false },
  },
  'DELETE /api-keys/:api_key_id': {
    data: apiKey,
    description: 'Revoked (status revoked); takes effect on the next request',
  },
};
