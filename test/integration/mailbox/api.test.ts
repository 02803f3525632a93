// The /integrations/mailboxes API: settings, validation, SSRF policy, tenancy, the connection
// test against a real Dovecot, and the message log endpoints. No poller runs in this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { createMailHarness, type MailHarness } from '../../helpers/mail-harness.js';
import { invoiceMessage } from '../../helpers/mail-fixtures.js';

let h: MailHarness;
let projectId: string;

beforeAll(async () => {
  h = await createMailHarness({ users: ['api', 'probe'] });
  projectId = await h.createProject();
});
afterAll(async () => {
  await h?.close();
});

const base = () => ({
  name: 'Invoices',
  host: h.dovecot.host,
  port: h.dovecot.port,
  security: 'none',
  username: 'api',
  password: 'pw-api',
  project_id: projectId,
});

describe('mailbox settings', () => {
  it('creates with defaults, stores the password encrypted and never returns it', async () => {
    const res = await h.api('POST', '/integrations/mailboxes', {
      ...base(),
      allowed_senders: ['billing@vendor.example', '@partner.example'],
    });
    expect(res.status).toBe(201);
    const m = res.body.data;
    expect(m.id).toMatch(/^mbx_/);
    expect(m).toMatchObject({
      name: 'Invoices',
      folder: 'INBOX',
      after_processing: 'mark_seen',
      consume: 'attachments',
      include_inline: false,
      is_active: true,
      status: 'active',
      last_error: null,
      last_checked_at: null,
      processed_folder: null,
      max_age_days: null,
      allowed_senders: ['billing@vendor.example', '@partner.example'],
      attachment_include: [],
      attachment_exclude: [],
    });
    expect(JSON.stringify(res.body)).not.toContain('pw-api');
    expect(m).not.toHaveProperty('password');
    const { rows } = await h.deps.db.query<{ password_sealed: string }>(
      'SELECT password_sealed FROM mailboxes WHERE id = $1',
      [m.id],
    );
    expect(rows[0].password_sealed).not.toContain('pw-api');
    expect(h.deps.secretBox.decrypt(rows[0].password_sealed)).toBe('pw-api');
    const got = await h.api('GET', `/integrations/mailboxes/${m.id}`);
    expect(JSON.stringify(got.body)).not.toContain('pw-api');
  });

  it('defaults the port from the security mode', async () => {
    const { port: _, ...noPort } = base();
    const tls = await h.api('POST', '/integrations/mailboxes', { ...noPort, security: 'tls', is_active: false });
    expect(tls.body.data.port).toBe(993);
    expect(tls.body.data.status).toBe('inactive');
    const plain = await h.api('POST', '/integrations/mailboxes', { ...noPort, security: 'starttls', is_active: false });
    expect(plain.body.data.port).toBe(143);
  });

  it.each([
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['a missing project', { project_id: 'prj_missing' }, 'project_id'],
    ['move without processed_folder', { after_processing: 'move' }, 'processed_folder'],
    ['processed_folder equal to folder', { after_processing: 'move', processed_folder: 'inbox' }, 'processed_folder'],
    ['a broken subject regex', { subject_filter: '/(unclosed/' }, 'subject_filter'],
    ['a subject regex the linear-time engine cannot run', { subject_filter: '/^(?!Re:)Invoice/' }, 'subject_filter'],
    ['a sender that is neither address nor domain', { allowed_senders: ['not an address'] }, 'allowed_senders'],
    ['a bad security mode', { security: 'ssl' }, 'security'],
    ['a private address', { host: '10.1.2.3' }, 'host'],
    ['loopback other than the allowed one', { host: '127.0.0.2' }, 'host'],
    ['localhost', { host: 'localhost' }, 'host'],
    ['link-local metadata', { host: '169.254.169.254' }, 'host'],
  ])('refuses %s with 400 naming the field', async (_what, patch, field) => {
    const res = await h.api('POST', '/integrations/mailboxes', { ...base(), ...patch });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error.details)).toContain(field);
  });

  it('checks a host name against the addresses it resolves to', async () => {
    // A public-looking name that resolves to a private address is still refused.
    const { createHostPolicy } = await import('../../../src/modules/integrations/mailbox/host-policy.js');
    const { createAllowList } = await import('../../../src/lib/http-client/index.js');
    const policy = createHostPolicy(createAllowList(['127.0.0.1']), {
      lookup: async (host) =>
        host === 'imap.evil.example'
          ? [{ address: '192.168.1.5', family: 4 }]
          : [{ address: '93.184.216.34', family: 4 }],
    });
    expect(await policy.check('imap.evil.example')).toMatch(/forbidden/);
    expect(await policy.check('imap.good.example')).toBeNull();
    expect(policy.addressAllowed('imap.good.example')({ address: '10.0.0.1', family: 4 })).toBe(false);
    expect(policy.addressAllowed('127.0.0.1')({ address: '127.0.0.1', family: 4 })).toBe(true);
  });

  it('PUT updates a subset, keeps the password unless given, and clears an error', async () => {
    const m = (await h.api('POST', '/integrations/mailboxes', base())).body.data;
    await h.deps.db.query(
      `UPDATE mailboxes SET status = 'error', last_error = 'authentication failed: x' WHERE id = $1`,
      [m.id],
    );
    expect((await h.api('GET', `/integrations/mailboxes/${m.id}`)).body.data.status).toBe('error');
    const res = await h.api('PUT', `/integrations/mailboxes/${m.id}`, {
      subject_filter: 'invoice',
      attachment_include: ['*.pdf'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'active',
      last_error: null,
      subject_filter: 'invoice',
      attachment_include: ['*.pdf'],
      username: 'api',
    });
    const sealed = async () =>
      (
        await h.deps.db.query<{ password_sealed: string; config_version: number }>(
          'SELECT password_sealed, config_version FROM mailboxes WHERE id = $1',
          [m.id],
        )
      ).rows[0];
    const before = await sealed();
    expect(h.deps.secretBox.decrypt(before.password_sealed)).toBe('pw-api');
    await h.api('PUT', `/integrations/mailboxes/${m.id}`, { password: 'new-secret' });
    const after = await sealed();
    expect(h.deps.secretBox.decrypt(after.password_sealed)).toBe('new-secret');
    expect(after.config_version).toBe(before.config_version + 1);
    const off = await h.api('PUT', `/integrations/mailboxes/${m.id}`, { is_active: false, subject_filter: null });
    expect(off.body.data).toMatchObject({ status: 'inactive', is_active: false, subject_filter: null });
    expect((await h.api('PUT', `/integrations/mailboxes/${m.id}`, { host: '10.0.0.8' })).status).toBe(400);
  });

  it('lists with pagination and deletes', async () => {
    const list = await h.api('GET', '/integrations/mailboxes?limit=2');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.pagination.total).toBeGreaterThanOrEqual(3);
    const m = (await h.api('POST', '/integrations/mailboxes', base())).body.data;
    expect((await h.api('DELETE', `/integrations/mailboxes/${m.id}`)).status).toBe(200);
    expect((await h.api('GET', `/integrations/mailboxes/${m.id}`)).status).toBe(404);
  });
});

describe('tenancy and roles', () => {
  let other: Actor;
  let member: Actor;
  let mailboxId: string;
  beforeAll(async () => {
    other = await createActor(h);
    const { rows } = await h.deps.db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [
      h.actor.orgId,
    ]);
    member = await createActor(h, { role: 'member', orgName: rows[0].name });
    mailboxId = (await h.api('POST', '/integrations/mailboxes', base())).body.data.id;
  });

  it('another organization sees 404 everywhere and cannot use our project', async () => {
    for (const [method, url] of [
      ['GET', `/integrations/mailboxes/${mailboxId}`],
      ['PUT', `/integrations/mailboxes/${mailboxId}`],
      ['DELETE', `/integrations/mailboxes/${mailboxId}`],
      ['POST', `/integrations/mailboxes/${mailboxId}/test`],
      ['GET', `/integrations/mailboxes/${mailboxId}/messages`],
    ] as const) {
      const res = await h.api(method, url, method === 'PUT' ? { name: 'x' } : undefined, other);
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect((await h.api('GET', '/integrations/mailboxes', undefined, other)).body.data).toEqual([]);
    const res = await h.api('POST', '/integrations/mailboxes', base(), other);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error.details)).toContain('project_id');
  });

  it('test-mode callers do not see live mailboxes', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/v1/integrations/mailboxes/${mailboxId}`,
      headers: { ...h.actor.auth, 'x-environment': 'test' },
    });
    expect(res.statusCode).toBe(404);
  });

  it('members may not read or change mailbox settings', async () => {
    expect((await h.api('GET', '/integrations/mailboxes', undefined, member)).status).toBe(403);
    expect((await h.api('POST', '/integrations/mailboxes', base(), member)).status).toBe(403);
  });
});

describe('connection test', () => {
  it('reports counts without consuming or flagging anything', async () => {
    await h.dovecot.appendMessage('probe', 'INBOX', invoiceMessage({ messageId: 'probe-1@test' }));
    const m = (
      await h.api('POST', '/integrations/mailboxes', {
        ...base(),
        username: 'probe',
        password: 'pw-probe',
        is_active: false,
      })
    ).body.data;
    const res = await h.api('POST', `/integrations/mailboxes/${m.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ok: true, folder: 'INBOX', messages: 1, unseen: 1 });
    expect(res.body.data.uid_validity).toBe(String(await h.dovecot.uidValidity('probe', 'INBOX')));
    expect((await h.dovecot.listFolder('probe', 'INBOX'))[0].flags.filter((f) => f !== '\\Recent')).toEqual([]);
    expect(await h.messages(m.id)).toEqual([]);
  });

  it('names the failing stage: auth, folder', async () => {
    const bad = (
      await h.api('POST', '/integrations/mailboxes', {
        ...base(),
        username: 'probe',
        password: 'wrong',
        is_active: false,
      })
    ).body.data;
    const auth = await h.api('POST', `/integrations/mailboxes/${bad.id}/test`);
    expect(auth.body.data).toMatchObject({ ok: false, stage: 'auth' });
    expect(auth.body.data.message).toMatch(/authentication failed/);
    const nofolder = (
      await h.api('POST', '/integrations/mailboxes', {
        ...base(),
        username: 'probe',
        password: 'pw-probe',
        folder: 'Nope',
        is_active: false,
      })
    ).body.data;
    const folder = await h.api('POST', `/integrations/mailboxes/${nofolder.id}/test`);
    expect(folder.body.data).toMatchObject({ ok: false, stage: 'folder' });
  });

  it('refuses at connect time an address that became forbidden (allow-list removed)', async () => {
    const m = (await h.api('POST', '/integrations/mailboxes', { ...base(), is_active: false })).body.data;
    const { createMailModule } = await import('../../../src/modules/integrations/mailbox/index.js');
    const strict = createMailModule({
      db: h.deps.db,
      redis: h.deps.redis,
      secretBox: h.deps.secretBox,
      config: { ...h.config, MAIL_ALLOWED_HOSTS: [] },
      logger: h.deps.logger,
      intake: h.deps.documents.intake,
      projects: h.deps.repos.projects,
    });
    const res = await strict.service.test({ orgId: h.actor.orgId, environment: 'live' }, m.id);
    expect(res).toMatchObject({ ok: false, stage: 'blocked' });
  });
});

describe('message log endpoints', () => {
  it('404 for unknown messages, 409 when retrying a consumed one', async () => {
    const m = (await h.api('POST', '/integrations/mailboxes', { ...base(), is_active: false })).body.data;
    expect((await h.api('POST', `/integrations/mailboxes/${m.id}/messages/msg_nope/retry`)).status).toBe(404);
    await h.deps.db.query(
      `INSERT INTO mail_messages (id, mailbox_id, folder, uid_validity, uid, message_key, status, document_ids) VALUES ('msg_x1', $1, 'INBOX', 1, 1, 'mid:x1', 'consumed', '["doc_a"]')`,
      [m.id],
    );
    const list = await h.api('GET', `/integrations/mailboxes/${m.id}/messages?status=consumed`);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual(['msg_x1']);
    expect(list.body.data[0].document_ids).toEqual(['doc_a']);
    const retry = await h.api('POST', `/integrations/mailboxes/${m.id}/messages/msg_x1/retry`);
    expect(retry.status).toBe(409);
    expect((await h.api('GET', `/integrations/mailboxes/${m.id}/messages?status=bogus`)).status).toBe(400);
  });
});
