// The fake's own protocol behaviour where the export relies on it matching Google: append
// table detection and row insertion, RAW vs USER_ENTERED, null on update, atomic batches.
import { createSign, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from '../../helpers/fake-google.js';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const EMAIL = 'fake-test@docpipe-test.iam.gserviceaccount.com';

let g: FakeGoogle;
let bearer = '';
let n = 0;
const fresh = () => {
  const id = `f-${++n}`;
  g.spreadsheets.create(id, ['Sheet1', 'Other']);
  return id;
};
async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${g.rootUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
const enc = encodeURIComponent;

beforeAll(async () => {
  g = await startFakeGoogle();
  g.registerServiceAccount(EMAIL, publicKey);
  // Exchange a signed assertion for an opaque token, as a service account in token mode does.
  const now = Math.floor(Date.now() / 1000);
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const data = `${b64({ alg: 'RS256' })}.${b64({ iss: EMAIL, scope: 'https://www.googleapis.com/auth/spreadsheets', aud: g.tokenUrl, iat: now, exp: now + 600 })}`;
  const assertion = `${data}.${createSign('RSA-SHA256').update(data).sign(privateKey).toString('base64url')}`;
  const res = await fetch(g.tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
  });
  bearer = ((await res.json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await g.close();
});

describe('fake Google values semantics', () => {
  it('append lands under the table and INSERT_ROWS pushes later rows down', async () => {
    const id = fresh();
    g.spreadsheets.setValues(id, 'Sheet1', [['h'], ['a'], [], [], ['', 'footer in B']]);
    // Range A:A: only column A decides where the table ends.
    const r = await call(
      'POST',
      `v4/spreadsheets/${id}/values/${enc('Sheet1!A:A')}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`,
      { values: [['b'], ['c']] },
    );
    expect(r.body).toMatchObject({
      tableRange: 'Sheet1!A1:A2',
      updates: { updatedRange: 'Sheet1!A3:A4', updatedRows: 2, updatedCells: 2 },
    });
    expect(g.spreadsheets.getValues(id, 'Sheet1')).toEqual([['h'], ['a'], ['b'], ['c'], [], [], ['', 'footer in B']]);
  });

  it('RAW stores strings as given; USER_ENTERED parses them', async () => {
    const id = fresh();
    await call('PUT', `v4/spreadsheets/${id}/values/${enc('Sheet1!A1')}?valueInputOption=RAW`, {
      values: [['007', '=1+1', '2024-01-02']],
    });
    await call('PUT', `v4/spreadsheets/${id}/values/${enc('Sheet1!A2')}?valueInputOption=USER_ENTERED`, {
      values: [['007', '=1+1', '2024-01-02', "'007"]],
    });
    expect(g.spreadsheets.getValues(id, 'Sheet1')).toEqual([
      ['007', '=1+1', '2024-01-02'],
      [7, { formula: '=1+1' }, { date: '2024-01-02' }, '007'],
    ]);
  });

  it('update leaves null cells alone and requires valueInputOption', async () => {
    const id = fresh();
    g.spreadsheets.setValues(id, 'Sheet1', [['a', 'b', 'c']]);
    await call('PUT', `v4/spreadsheets/${id}/values/${enc('Sheet1!A1:C1')}?valueInputOption=RAW`, {
      values: [['A', null, '']],
    });
    expect(g.spreadsheets.getValues(id, 'Sheet1')).toEqual([['A', 'b']]);
    const r = await call('PUT', `v4/spreadsheets/${id}/values/${enc('Sheet1!A1')}`, { values: [['z']] });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/valueInputOption/);
  });

  it('batchUpdate is all-or-nothing', async () => {
    const id = fresh();
    const r = await call('POST', `v4/spreadsheets/${id}/values:batchUpdate`, {
      valueInputOption: 'RAW',
      data: [
        { range: 'Sheet1!A1', values: [['ok']] },
        { range: 'Nope!A1', values: [['x']] },
      ],
    });
    expect(r.status).toBe(400);
    expect(g.spreadsheets.getValues(id, 'Sheet1')).toEqual([]);
    const ok = await call('POST', `v4/spreadsheets/${id}/values:batchUpdate`, {
      valueInputOption: 'RAW',
      data: [
        { range: 'Sheet1!A1', values: [['ok']] },
        { range: "'Other'!B2", values: [['x', 'y']] },
      ],
    });
    expect(ok.body).toMatchObject({ totalUpdatedRows: 2, totalUpdatedCells: 3, totalUpdatedSheets: 2 });
  });

  it('get clips open ranges to the grid and omits trailing empties', async () => {
    const id = fresh();
    g.spreadsheets.setValues(id, 'Other', [['a', '', 'c', ''], [], ['', 'x']]);
    const r = await call('GET', `v4/spreadsheets/${id}/values/${enc("'Other'!A1:Z")}`);
    expect(r.body).toEqual({
      range: 'Other!A1:Z1000',
      majorDimension: 'ROWS',
      values: [['a', '', 'c'], [], ['', 'x']],
    });
    const empty = await call('GET', `v4/spreadsheets/${id}/values/${enc('Sheet1!A1:B2')}`);
    expect(empty.body).toEqual({ range: 'Sheet1!A1:B2', majorDimension: 'ROWS' });
  });

  it('failNext targets matching paths only and counts down', async () => {
    const id = fresh();
    g.failNext(2, 500, { path: ':append' });
    const get = await call('GET', `v4/spreadsheets/${id}`);
    expect(get.status).toBe(200);
    const url = `v4/spreadsheets/${id}/values/Sheet1:append?valueInputOption=RAW`;
    expect((await call('POST', url, { values: [['1']] })).body.error).toMatchObject({ code: 500, status: 'INTERNAL' });
    expect((await call('POST', url, { values: [['1']] })).status).toBe(500);
    expect((await call('POST', url, { values: [['1']] })).status).toBe(200);
  });
});
