// Failure answers from the fake, as the export queue will see them through classifyGoogleError.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from '../../helpers/fake-google.js';
import { freePort } from '../../helpers/net.js';
import {
  classifyGoogleError,
  createSheetsClient,
  type SheetsApi,
  type SheetsCredentials,
} from '../../../src/modules/integrations/sheets/client/index.js';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const EMAIL = 'exporter@docpipe-test.iam.gserviceaccount.com';
const creds: SheetsCredentials = { type: 'service_account', key: { client_email: EMAIL, private_key: privateKey } };

let g: FakeGoogle;
let api: SheetsApi;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => classifyGoogleError(e),
  );

beforeAll(async () => {
  g = await startFakeGoogle();
  g.registerServiceAccount(EMAIL, publicKey);
  g.spreadsheets.create('ss', ['Sheet1']);
  g.spreadsheets.create('private', ['Sheet1'], { allow: ['someone-else@example.iam.gserviceaccount.com'] });
  api = createSheetsClient(creds, { rootUrl: g.rootUrl });
});
afterAll(async () => {
  await g.close();
});
beforeEach(() => {
  g.calls.length = 0;
});

describe('classification of real failure responses', () => {
  it('429 with Retry-After → retry after that delay, one call, and the next call succeeds', async () => {
    g.failNext(1, 429, { retryAfter: 7 });
    expect(await failure(api.appendRows('ss', 'Sheet1', [['a']]))).toMatchObject({
      kind: 'retry',
      status: 429,
      retryAfterMs: 7000,
    });
    expect(g.calls).toHaveLength(1);
    await expect(api.appendRows('ss', 'Sheet1', [['a']])).resolves.toMatchObject({ firstRow: 1 });
  });

  it('500 and 503 → retry without a delay hint', async () => {
    for (const status of [500, 503]) {
      g.failNext(1, status);
      const c = await failure(api.getValues('ss', 'Sheet1!A:A'));
      expect(c).toMatchObject({ kind: 'retry', status });
      expect(c).not.toHaveProperty('retryAfterMs');
    }
    expect(g.calls).toHaveLength(2);
  });

  it('403 from a spreadsheet not shared with the account → fatal with Google’s reason', async () => {
    expect(await failure(api.appendRows('private', 'Sheet1', [['a']]))).toEqual({
      kind: 'fatal',
      status: 403,
      code: 'PERMISSION_DENIED',
      reason: 'The caller does not have permission',
    });
  });

  it('403 carrying a rate-limit reason → retry', async () => {
    g.failNext(1, 403, { reason: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded' });
    expect(await failure(api.getSheetTitles('ss'))).toMatchObject({ kind: 'retry', status: 403 });
  });

  it('404 for an unknown spreadsheet and 400 for an unknown sheet → fatal', async () => {
    expect(await failure(api.getSheetTitles('nope'))).toMatchObject({ kind: 'fatal', status: 404, code: 'NOT_FOUND' });
    expect(await failure(api.appendRows('ss', 'Missing', [['a']]))).toMatchObject({
      kind: 'fatal',
      status: 400,
      reason: 'Unable to parse range: Missing!A1',
    });
  });

  it('a request timeout → retry, and the library does not resend it', async () => {
    const slow = createSheetsClient(creds, { rootUrl: g.rootUrl, timeoutMs: 150 });
    g.delayNext(1, 1_000);
    expect(await failure(slow.getSheetTitles('ss'))).toMatchObject({ kind: 'retry' });
    expect(g.calls).toHaveLength(1);
  });

  it('connection refused → retry', async () => {
    const dead = createSheetsClient(creds, { rootUrl: `http://127.0.0.1:${await freePort()}/` });
    expect(await failure(dead.getSheetTitles('ss'))).toMatchObject({
      kind: 'retry',
      reason: expect.stringContaining('ECONNREFUSED'),
    });
  });
});
