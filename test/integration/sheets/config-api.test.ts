// The configuration API: connections (both credential kinds authenticate against the fake via
// the /test endpoint; secrets are never returned), exports (validation, error state, PUT).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { createProject } from '../../helpers/pipeline.js';
import { createSheetsTestApp, serviceAccountKey, type SheetsStack } from '../../helpers/sheets-harness.js';

const COLUMNS = [
  { header: 'Document', field: 'document.id' },
  { header: 'File', field: 'document.filename' },
  { header: 'Total', field: 'fields.total' },
];

describe('sheets configuration API', () => {
  let t: SheetsStack;
  let owner: Actor;
  let projectId: string;
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who: Actor = owner) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: who.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    t = await createSheetsTestApp({ workers: false });
    owner = await createActor(t as unknown as TestApp);
    projectId = await createProject(t as unknown as TestApp, owner);
    t.google.spreadsheets.create('book1', ['Invoices', 'Other']);
    t.google.registerOAuthClient('client-1.apps.example', 'shh-secret', 'refresh-1');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a service-account connection authenticates against the fake and lists the sheets; the key is never returned', async () => {
    const key = serviceAccountKey(t.google);
    const res = await api('POST', '/integrations/sheets/connections', { name: 'SA', service_account_key: key });
    expect(res.statusCode).toBe(201);
    const conn = body(res).data;
    expect(conn).toMatchObject({ type: 'service_account', client_email: key.client_email, name: 'SA' });
    expect(res.body).not.toContain('PRIVATE KEY');
    const stored = await t.deps.db.query<{ credentials_sealed: string }>(
      'SELECT credentials_sealed FROM sheets_connections WHERE id = $1',
      [conn.id],
    );
    expect(stored.rows[0].credentials_sealed).toMatch(/^v1\./);
    expect(stored.rows[0].credentials_sealed).not.toContain('PRIVATE');
    const test = await api('POST', `/integrations/sheets/connections/${conn.id}/test`, { spreadsheet_id: 'book1' });
    expect(test.statusCode).toBe(200);
    expect(body(test).data).toMatchObject({ ok: true, sheets: ['Invoices', 'Other'] });
    const get = await api('GET', `/integrations/sheets/connections/${conn.id}`);
    expect(get.body).not.toContain('PRIVATE KEY');
  });

  it('an OAuth refresh-token connection authenticates via the token endpoint; the secret is never returned', async () => {
    const res = await api('POST', '/integrations/sheets/connections', {
      name: 'OAuth',
      oauth: { client_id: 'client-1.apps.example', client_secret: 'shh-secret', refresh_token: 'refresh-1' },
    });
    expect(res.statusCode).toBe(201);
    const conn = body(res).data;
    expect(conn).toMatchObject({ type: 'oauth', client_id: 'client-1.apps.example' });
    expect(res.body).not.toContain('shh-secret');
    expect(res.body).not.toContain('refresh-1');
    const tokensBefore = t.google.tokensIssued;
    const test = await api('POST', `/integrations/sheets/connections/${conn.id}/test`, { spreadsheet_id: 'book1' });
    expect(body(test).data).toMatchObject({ ok: true, sheets: ['Invoices', 'Other'] });
    expect(t.google.tokensIssued).toBe(tokensBefore + 1);
    const list = await api('GET', '/integrations/sheets/connections');
    expect(list.body).not.toContain('shh-secret');
    expect(body(list).pagination.total).toBeGreaterThanOrEqual(2);
  });

  it('the test endpoint reports the exact failure: unknown spreadsheet, no permission, revoked refresh token', async () => {
    const sa = body(
      await api('POST', '/integrations/sheets/connections', {
        name: 'SA2',
        service_account_key: serviceAccountKey(t.google),
      }),
    ).data;
    const missing = body(
      await api('POST', `/integrations/sheets/connections/${sa.id}/test`, { spreadsheet_id: 'nope' }),
    ).data;
    expect(missing).toMatchObject({ ok: false, error: { status: 404, code: 'NOT_FOUND', retryable: false } });
    t.google.spreadsheets.create('private-book', ['Sheet1'], { allow: ['someone-else@example.test'] });
    const denied = body(
      await api('POST', `/integrations/sheets/connections/${sa.id}/test`, { spreadsheet_id: 'private-book' }),
    ).data;
    expect(denied).toMatchObject({ ok: false, error: { status: 403, code: 'PERMISSION_DENIED' } });
    expect(denied.error.reason).toContain('permission');
    const bad = body(
      await api('POST', '/integrations/sheets/connections', {
        name: 'bad',
        oauth: { client_id: 'client-1.apps.example', client_secret: 'shh-secret', refresh_token: 'revoked' },
      }),
    ).data;
    const revoked = body(
      await api('POST', `/integrations/sheets/connections/${bad.id}/test`, { spreadsheet_id: 'book1' }),
    ).data;
    expect(revoked).toMatchObject({ ok: false, error: { status: 400, code: 'invalid_grant' } });
  });

  it('rejects malformed credentials with the field named, and non-admins', async () => {
    const noKey = await api('POST', '/integrations/sheets/connections', { name: 'x' });
    expect(noKey.statusCode).toBe(400);
    const badPem = await api('POST', '/integrations/sheets/connections', {
      name: 'x',
      service_account_key: { client_email: 'a@b.c', private_key: 'not a key' },
    });
    expect(badPem.statusCode).toBe(400);
    expect(body(badPem).error?.details[0].field).toBe('service_account_key.private_key');
    const member = await createActor(t as unknown as TestApp, {
      role: 'member',
      orgName: (await t.deps.db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [owner.orgId]))
        .rows[0].name,
    });
    const denied = await api('GET', '/integrations/sheets/connections', undefined, member);
    expect(denied.statusCode).toBe(403);
    expect((await api('POST', '/documents/doc_x/export', {}, member)).statusCode).toBe(403);
    // Export status is readable by anyone who can read documents; unknown documents are 404.
    expect((await api('GET', '/documents/doc_x/exports', undefined, member)).statusCode).toBe(404);
    expect((await api('POST', '/documents/doc_x/export', {})).statusCode).toBe(404);
  });

  describe('exports', () => {
    let connId: string;
    beforeAll(async () => {
      connId = body(
        await api('POST', '/integrations/sheets/connections', {
          name: 'SA3',
          service_account_key: serviceAccountKey(t.google),
        }),
      ).data.id;
    });
    const base = () => ({
      project_id: projectId,
      connection_id: connId,
      spreadsheet_id: 'book1',
      sheet_name: 'Invoices',
      columns: COLUMNS,
    });

    it('creates with defaults and reads back status fields', async () => {
      const res = await api('POST', '/integrations/sheets/exports', base());
      expect(res.statusCode).toBe(201);
      expect(body(res).data).toMatchObject({
        mode: 'append',
        write_header: true,
        trigger: 'after_extraction',
        is_active: true,
        status: 'active',
        last_error: null,
        columns: COLUMNS,
      });
      const got = body(await api('GET', `/integrations/sheets/exports/${body(res).data.id}`)).data;
      expect(got.rows).toEqual({ pending: 0, writing: 0, exported: 0, superseded: 0 });
      const list = await api('GET', `/integrations/sheets/exports?project_id=${projectId}`);
      expect(body(list).data.map((e: { id: string }) => e.id)).toContain(got.id);
    });

    it('validates field paths (400 naming the column), upsert without document.id, references and unknown fields', async () => {
      const bad = await api('POST', '/integrations/sheets/exports', {
        ...base(),
        columns: [...COLUMNS, { header: 'Oops', field: 'document.__proto__' }],
      });
      expect(bad.statusCode).toBe(400);
      expect(body(bad).error?.details[0].field).toBe('columns[3].field');
      expect(body(bad).error?.message).toContain('Oops');
      const root = await api('POST', '/integrations/sheets/exports', {
        ...base(),
        columns: [{ header: 'X', field: 'text.body' }],
      });
      expect(body(root).error?.details[0].field).toBe('columns[0].field');
      const upsert = await api('POST', '/integrations/sheets/exports', {
        ...base(),
        mode: 'upsert',
        columns: [{ header: 'Total', field: 'fields.total' }],
      });
      expect(upsert.statusCode).toBe(400);
      expect(body(upsert).error?.details[0].field).toBe('columns');
      const conn = await api('POST', '/integrations/sheets/exports', { ...base(), connection_id: 'shc_nope' });
      expect(body(conn).error?.details[0].field).toBe('connection_id');
      const proj = await api('POST', '/integrations/sheets/exports', { ...base(), project_id: 'prj_nope' });
      expect(body(proj).error?.details[0].field).toBe('project_id');
      const extra = await api('POST', '/integrations/sheets/exports', { ...base(), status: 'active' });
      expect(extra.statusCode).toBe(400);
      expect(body(extra).error?.details[0].field).toBe('status');
    });

    it('PUT updates, re-validates and clears the error state; deleting a connection in use is refused', async () => {
      const e = body(await api('POST', '/integrations/sheets/exports', base())).data;
      await t.deps.db.query(
        `UPDATE sheets_exports SET status = 'error', last_error = 'Google 403 on append rows: denied', error_at = now() WHERE id = $1`,
        [e.id],
      );
      expect(body(await api('GET', `/integrations/sheets/exports/${e.id}`)).data).toMatchObject({
        status: 'error',
        last_error: 'Google 403 on append rows: denied',
      });
      const badPut = await api('PUT', `/integrations/sheets/exports/${e.id}`, {
        mode: 'upsert',
        columns: [{ header: 'T', field: 'fields.total' }],
      });
      expect(badPut.statusCode).toBe(400);
      const put = await api('PUT', `/integrations/sheets/exports/${e.id}`, { sheet_name: 'Other', mode: 'upsert' });
      expect(put.statusCode).toBe(200);
      expect(body(put).data).toMatchObject({ status: 'active', last_error: null, sheet_name: 'Other', mode: 'upsert' });
      const del = await api('DELETE', `/integrations/sheets/connections/${connId}`);
      expect(del.statusCode).toBe(409);
      expect(body(del).error?.details.export_ids).toContain(e.id);
      expect((await api('DELETE', `/integrations/sheets/exports/${e.id}`)).statusCode).toBe(200);
      expect((await api('GET', `/integrations/sheets/exports/${e.id}`)).statusCode).toBe(404);
    });

    it('is scoped: another organization sees none of it', async () => {
      const stranger = await createActor(t as unknown as TestApp);
      const list = await api('GET', '/integrations/sheets/exports', undefined, stranger);
      expect(body(list).data).toEqual([]);
      expect((await api('GET', `/integrations/sheets/connections/${connId}`, undefined, stranger)).statusCode).toBe(
        404,
      );
    });
  });
});
