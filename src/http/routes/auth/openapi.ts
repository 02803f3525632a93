// The auth routes in the OpenAPI document (token pairs as the auth service issues them).
import { t, type OperationDocs } from '../../openapi-shapes.js';

const pair = t.obj(
  {
    accessToken: { type: 'string', description: 'JWT for `Authorization: Bearer …` (15 minutes)' },
    refreshToken: { type: 'string', description: 'Absent in cookie mode (set as an HttpOnly cookie instead)' },
    csrfToken: { type: 'string', description: 'Cookie mode only: send it as X-CSRF-Token to refresh and log out' },
    expiresIn: { type: 'integer', description: 'Seconds until the access token expires' },
    tokenType: { type: 'string', const: 'Bearer' },
  },
  ['refreshToken', 'csrfToken'],
);
const example = {
  accessToken: 'eyJhbGciOiJIUzI1NiJ9…',
  refreshToken: 'rt_01HZX…',
  expiresIn: 900,
  tokenType: 'Bearer',
};
const limited = 'Too many attempts from this address (or for this e-mail); retry after `Retry-After` seconds';

export const authDocs: OperationDocs = {
  'GET /setup': {
    description:
      '`needed` while the installation has no user (the dashboard then offers "Create the owner account"); ' +
      '`token_required` when the server listens on a non-loopback address: setup then needs the token it printed in its log at start-up',
    data: t.obj({ needed: t.bool, token_required: t.bool }),
    example: { needed: true, token_required: false },
    errors: { 429: limited },
  },
  'POST /setup': {
    status: 201,
    description:
      'Creates the first organization (on DEFAULT_PLAN, `self_hosted` unless the operator chose another) and its owner. ' +
      'Allowed only while no user exists; then sign in with `POST /auth/login`.',
    data: t.obj({
      user: t.obj({ id: t.str, email: t.str, role: t.str }),
      organization: t.obj({ id: t.str, name: t.str }),
    }),
    example: {
      user: { id: 'usr_01HZX3Y0', email: 'owner@example.com', role: 'owner' },
      organization: { id: 'org_01HZX3X9', name: 'Acme' },
    },
    requestExample: { email: 'owner@example.com', password: 'correct horse battery', organization_name: 'Acme' },
    errors: {
      403: 'The server listens on a network address and the setup token is missing or wrong',
      409: 'Setup is done: the installation already has users',
      429: limited,
    },
  },
  'POST /auth/login': {
    data: pair,
    example,
    requestExample: { email: 'owner@example.com', password: 'correct horse battery' },
    errors: { 401: 'Wrong e-mail or password, or the user is deactivated', 429: limited },
  },
  'POST /auth/refresh': {
    data: pair,
    example,
    requestExample: { refreshToken: 'rt_01HZX…' },
    errors: {
      401: 'The refresh token is invalid, expired, revoked or reused (a reuse ends the whole session)',
      403: 'Cookie mode: X-CSRF-Token does not match',
      429: limited,
    },
  },
  'POST /auth/logout': {
    data: t.obj({ logged_out: { type: 'boolean', const: true } }),
    errors: { 400: 'The credential is an API key, not a login session' },
  },
  'GET /auth/me': {},
};
