// The real googleapis client authenticating against the fake: Bearer enforcement, service
// accounts (self-signed JWT and token exchange), OAuth refresh tokens.
import { generateKeyPairSync, createSign } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from '../../helpers/fake-google.js';
import {
  classifyGoogleError,
  createSheetsClient,
  type SheetsCredentials,
} from '../../../src/modules/integrations/sheets/client/index.js';

const newKey = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const SA_EMAIL = 'exporter@docpipe-test.iam.gserviceaccount.com';
const sa = newKey();
const stranger = newKey();
const saCreds: SheetsCredentials = {
  type: 'service_account',
  key: {
    client_email: SA_EMAIL,
    private_key: sa.privateKey,
    private_key_id: 'k1',
    token_uri: 'http://unused.invalid/token',
  },
};
const oauthCreds: SheetsCredentials = {
  type: 'oauth',
  clientId: 'cid-1',
  clientSecret: 'secret-1',
  refreshToken: 'rt-1',
};

function signJwt(privateKey: string, payload: Record<string, unknown>): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const data = `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc(payload)}`;
  return `${data}.${createSign('RSA-SHA256').update(data).sign(privateKey).toString('base64url')}`;
}

let g: FakeGoogle;
beforeAll(async () => {
  g = await startFakeGoogle();
  g.registerServiceAccount(SA_EMAIL, sa.publicKey);
  g.registerOAuthClient('cid-1', 'secret-1', 'rt-1');
  g.spreadsheets.create('ss1', ['Sheet1', 'My Sheet']);
});
afterAll(async () => {
  await g.close();
});
beforeEach(() => {
  g.calls.length = 0;
});

describe('fake Google: Bearer enforcement', () => {
  const url = () => `${g.rootUrl}v4/spreadsheets/ss1/values/Sheet1!A1:C`;
  it('rejects a call without a token with a Google-shaped 401', async () => {
    const res = await fetch(url());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it('rejects an unknown opaque token and a JWT signed by an unregistered key', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = signJwt(stranger.privateKey, {
      iss: SA_EMAIL,
      scope: 'https://www.googleapis.com/auth/spreadsheets',
      iat: now,
      exp: now + 600,
    });
    for (const token of ['ya29.made-up', forged]) {
      const res = await fetch(url(), { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(401);
    }
  });

  it('accepts a correctly signed, scoped, unexpired JWT and rejects an expired one', async () => {
    const now = Math.floor(Date.now() / 1000);
    const scope = 'https://www.googleapis.com/auth/spreadsheets';
    const good = signJwt(sa.privateKey, { iss: SA_EMAIL, scope, iat: now, exp: now + 600 });
    const expired = signJwt(sa.privateKey, { iss: SA_EMAIL, scope, iat: now - 7200, exp: now - 3600 });
    expect((await fetch(url(), { headers: { authorization: `Bearer ${good}` } })).status).toBe(200);
    expect((await fetch(url(), { headers: { authorization: `Bearer ${expired}` } })).status).toBe(401);
  });
});

describe('service account credentials', () => {
  it('self-signed JWT: reads sheet titles without any token endpoint call', async () => {
    const api = createSheetsClient(saCreds, { rootUrl: g.rootUrl });
    const before = g.tokensIssued;
    expect(await api.getSheetTitles('ss1')).toEqual(['Sheet1', 'My Sheet']);
    expect(g.tokensIssued).toBe(before);
    expect(g.calls.map((c) => [c.kind, c.status])).toEqual([['spreadsheets.get', 200]]);
  });

  it('token exchange: trades a signed assertion at the configured token URL once, then reuses it', async () => {
    const api = createSheetsClient(saCreds, {
      rootUrl: g.rootUrl,
      tokenUrl: g.tokenUrl,
      serviceAccountAuth: 'token_exchange',
    });
    const before = g.tokensIssued;
    await api.getValues('ss1', 'Sheet1!A1:C');
    await api.getValues('ss1', 'Sheet1!A1:C');
    expect(g.tokensIssued).toBe(before + 1);
    expect(g.calls.map((c) => c.kind)).toEqual(['token', 'values.get', 'values.get']);
  });

  it('a key the fake does not know is refused (fatal 401)', async () => {
    const api = createSheetsClient(
      {
        type: 'service_account',
        key: { client_email: 'nobody@x.iam.gserviceaccount.com', private_key: stranger.privateKey },
      },
      { rootUrl: g.rootUrl },
    );
    const err = await api.getSheetTitles('ss1').catch((e: unknown) => e);
    expect(classifyGoogleError(err)).toMatchObject({ kind: 'fatal', status: 401, code: 'UNAUTHENTICATED' });
  });

  it('a malformed private key fails before any request (fatal, status 0)', async () => {
    const api = createSheetsClient(
      { type: 'service_account', key: { client_email: SA_EMAIL, private_key: 'not a key' } },
      { rootUrl: g.rootUrl },
    );
    const err = await api.getSheetTitles('ss1').catch((e: unknown) => e);
    expect(classifyGoogleError(err)).toMatchObject({ kind: 'fatal', status: 0 });
    expect(g.calls).toHaveLength(0);
  });
});

describe('OAuth refresh-token credentials', () => {
  it('refreshes once at the configured token URL and reuses the access token', async () => {
    const api = createSheetsClient(oauthCreds, { rootUrl: g.rootUrl, tokenUrl: g.tokenUrl });
    const before = g.tokensIssued;
    expect(await api.getSheetTitles('ss1')).toEqual(['Sheet1', 'My Sheet']);
    await api.getSheetTitles('ss1');
    expect(g.tokensIssued).toBe(before + 1);
    expect(g.calls.filter((c) => c.kind === 'token')).toHaveLength(1);
  });

  it('an access token revoked early is refreshed once and the call succeeds', async () => {
    const api = createSheetsClient(oauthCreds, { rootUrl: g.rootUrl, tokenUrl: g.tokenUrl });
    await api.getSheetTitles('ss1');
    g.revokeAccessTokens();
    const before = g.tokensIssued;
    expect(await api.getSheetTitles('ss1')).toHaveLength(2);
    expect(g.tokensIssued).toBe(before + 1);
  });

  it('a revoked refresh token is fatal invalid_grant', async () => {
    const api = createSheetsClient(
      { ...oauthCreds, refreshToken: 'rt-old' },
      { rootUrl: g.rootUrl, tokenUrl: g.tokenUrl },
    );
    const err = await api.getSheetTitles('ss1').catch((e: unknown) => e);
    expect(classifyGoogleError(err)).toEqual({
      kind: 'fatal',
      status: 400,
      code: 'invalid_grant',
      reason: 'Token has been expired or revoked.',
    });
  });

  it('a wrong client secret is fatal invalid_client', async () => {
    const api = createSheetsClient(
      { ...oauthCreds, clientSecret: 'nope' },
      { rootUrl: g.rootUrl, tokenUrl: g.tokenUrl },
    );
    const err = await api.getSheetTitles('ss1').catch((e: unknown) => e);
    expect(classifyGoogleError(err)).toMatchObject({ kind: 'fatal', status: 401, code: 'invalid_client' });
  });

  it('a 503 from the token endpoint is retryable and not retried by the library', async () => {
    g.failNext(1, 503, { path: '/token' });
    const api = createSheetsClient(oauthCreds, { rootUrl: g.rootUrl, tokenUrl: g.tokenUrl });
    const err = await api.getSheetTitles('ss1').catch((e: unknown) => e);
    expect(classifyGoogleError(err)).toMatchObject({ kind: 'retry', status: 503 });
    expect(g.calls.map((c) => c.kind)).toEqual(['token']);
  });
});
