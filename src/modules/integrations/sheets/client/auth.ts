// Auth clients for the two credential kinds, with the library's own retries switched off.
//
// Why the interceptor: the export queue owns retry policy (backoff, Retry-After, attempt
// limits, dead-lettering). gaxios would otherwise retry 429/5xx up to three times with its own
// backoff inside one job attempt — and token requests carry their own retry config that a
// per-call `retry: false` does not reach. Every request, API or token, passes through the auth
// client's transporter, so that is where retries are zeroed.
//
// Why the URL rewrite: for service-account token exchange the token URL is hard-coded in the
// library (the key file's `token_uri` is ignored), so a configured token endpoint is applied by
// rewriting that one URL.
import type { OAuth2Client } from 'google-auth-library';
import { SPREADSHEETS_SCOPE, type SheetsClientOptions, type SheetsCredentials } from './types.js';
import { lazy } from '../../../../lib/lazy.js';

/** The token endpoint the library calls when none is configured. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

// Loaded on first use, as googleapis is: a process without Sheets connections never needs it.
const loadGoogleAuth = lazy(() => import('google-auth-library'));

/** Throws a TypeError when the credentials lack what their kind needs (done when a client is made). */
export function checkCredentials(credentials: SheetsCredentials): void {
  if (credentials.type === 'service_account') {
    const { client_email: email, private_key: key } = credentials.key;
    if (typeof email !== 'string' || !email || typeof key !== 'string' || !key) {
      throw new TypeError('service account key needs client_email and private_key');
    }
  } else {
    const { clientId, clientSecret, refreshToken } = credentials;
    if (!clientId || !clientSecret || !refreshToken) {
      throw new TypeError('oauth credentials need clientId, clientSecret and refreshToken');
    }
  }
}

export async function createAuthClient(
  credentials: SheetsCredentials,
  opts: SheetsClientOptions,
): Promise<OAuth2Client> {
  checkCredentials(credentials);
  const { JWT, OAuth2Client } = await loadGoogleAuth();
  const timeout = opts.timeoutMs ?? 30_000;
  const tokenUrl = opts.tokenUrl ?? GOOGLE_TOKEN_URL;
  let client: OAuth2Client;
  if (credentials.type === 'service_account') {
    const { client_email: email, private_key: key, private_key_id: keyId } = credentials.key;
    const jwt = new JWT({ email, key, keyId, scopes: [SPREADSHEETS_SCOPE], transporterOptions: { timeout } });
    // A property, not a constructor option, in this library version.
    jwt.useJWTAccessWithScope = (opts.serviceAccountAuth ?? 'self_signed_jwt') === 'self_signed_jwt';
    client = jwt;
  } else {
    const { clientId, clientSecret, refreshToken } = credentials;
    client = new OAuth2Client({
      clientId,
      clientSecret,
      endpoints: { oauth2TokenUrl: tokenUrl },
      // An access token revoked before its expiry gets one refresh-and-retry instead of failing.
      forceRefreshOnFailure: true,
      transporterOptions: { timeout },
    });
    client.setCredentials({ refresh_token: refreshToken });
  }
  client.transporter.interceptors.request.add({
    resolved: async (req) => {
      req.retry = false;
      req.retryConfig = { ...req.retryConfig, retry: 0, noResponseRetries: 0 };
      if (tokenUrl !== GOOGLE_TOKEN_URL && String(req.url) === GOOGLE_TOKEN_URL) req.url = new URL(tokenUrl);
      return req;
    },
  });
  return client;
}
