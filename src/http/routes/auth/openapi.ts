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
