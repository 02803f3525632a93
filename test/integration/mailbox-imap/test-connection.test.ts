// testConnection against a real private Dovecot: every failure stage, and proof that a
// successful check consumes nothing.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, type PrivateDovecot } from '../../helpers/dovecot.js';
import { freePort } from '../../helpers/net.js';
import { invoiceMessage } from '../../helpers/mail-fixtures.js';
import { testConnection, type ImapMailboxConfig } from '../../../src/modules/integrations/mailbox/imap/index.js';

let dovecot: PrivateDovecot;
let cfg: ImapMailboxConfig;

beforeAll(async () => {
  dovecot = await startDovecot({
    users: [
      { user: 'alice', pass: 's3cret' },
      { user: 'bob', pass: 'pw-bob' },
    ],
  });
  cfg = { host: dovecot.host, port: dovecot.port, security: 'none', username: 'alice', password: 's3cret' };
});
afterAll(async () => {
  await dovecot?.stop();
});

describe('testConnection', () => {
  it('reports counts and UIDVALIDITY without touching any message', async () => {
    await dovecot.appendMessage('alice', 'INBOX', invoiceMessage({ subject: 'unread' }));
    await dovecot.appendMessage('alice', 'INBOX', invoiceMessage({ subject: 'read' }), ['\\Seen']);
    const before = await dovecot.listFolder('alice', 'INBOX');

    const res = await testConnection(cfg);

    expect(res).toEqual({
      ok: true,
      folder: 'INBOX',
      messages: 2,
      unseen: 1,
      uidValidity: String(await dovecot.uidValidity('alice', 'INBOX')),
    });
    expect(await dovecot.listFolder('alice', 'INBOX')).toEqual(before);
  });

  it('checks the configured folder', async () => {
    await dovecot.createFolder('bob', 'Invoices');
    await dovecot.appendMessage('bob', 'Invoices', invoiceMessage());
    const res = await testConnection({ ...cfg, username: 'bob', password: 'pw-bob', folder: 'Invoices' });
    expect(res).toMatchObject({ ok: true, folder: 'Invoices', messages: 1, unseen: 1 });
  });

  it('wrong password -> auth', async () => {
    const res = await testConnection({ ...cfg, password: 'wrong' });
    expect(res).toMatchObject({ ok: false, stage: 'auth' });
    expect(res.ok === false && res.message).toMatch(/authentication failed/i);
    expect(res.ok === false && res.message).not.toContain('wrong');
  });

  it('unknown user -> auth', async () => {
    expect(await testConnection({ ...cfg, username: 'mallory' })).toMatchObject({ ok: false, stage: 'auth' });
  });

  it('missing folder -> folder', async () => {
    const res = await testConnection({ ...cfg, folder: 'Does/Not/Exist' });
    expect(res).toMatchObject({ ok: false, stage: 'folder' });
  });

  it('nothing listening -> connect', async () => {
    const port = await freePort();
    expect(await testConnection({ ...cfg, port })).toMatchObject({ ok: false, stage: 'connect' });
  });

  it('unresolvable host -> dns', async () => {
    const res = await testConnection({ ...cfg, host: 'no-such-host.invalid' });
    expect(res).toMatchObject({ ok: false, stage: 'dns' });
  });

  it('injected resolver failure -> dns, without touching the network', async () => {
    const lookup = async (): Promise<never> => {
      throw Object.assign(new Error('boom'), { code: 'EAI_AGAIN' });
    };
    expect(await testConnection({ ...cfg, host: 'imap.example.com' }, { lookup })).toMatchObject({
      ok: false,
      stage: 'dns',
    });
  });

  it('address refused by the policy -> blocked', async () => {
    const res = await testConnection(cfg, { addressAllowed: (a) => !a.address.startsWith('127.') });
    expect(res).toMatchObject({ ok: false, stage: 'blocked' });
  });

  it('connects to the address the policy approved, not a second resolution', async () => {
    const seen: string[] = [];
    const res = await testConnection(
      { ...cfg, host: 'imap.test.internal' },
      {
        lookup: async () => [{ address: '127.0.0.1', family: 4 }],
        addressAllowed: (a) => {
          seen.push(a.address);
          return true;
        },
      },
    );
    expect(seen).toEqual(['127.0.0.1']);
    expect(res).toMatchObject({ ok: true, messages: 2 });
  });

  it('implicit TLS against a plain-text port -> tls', async () => {
    expect(await testConnection({ ...cfg, security: 'tls' })).toMatchObject({ ok: false, stage: 'tls' });
  });

  it('STARTTLS required but not offered -> tls (no fallback to clear text)', async () => {
    const res = await testConnection({ ...cfg, security: 'starttls' });
    expect(res).toMatchObject({ ok: false, stage: 'tls' });
    expect(res.ok === false && res.message).toMatch(/STARTTLS/);
  });

  describe('against a server that accepts TCP and never speaks', () => {
    let silent: Server;
    let port: number;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      port = await freePort();
      silent = createServer((s) => {
        sockets.add(s);
        s.on('error', () => undefined);
      });
      await new Promise<void>((r) => silent.listen(port, '127.0.0.1', r));
    });
    afterAll(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    });

    it('gives up with stage connect after the connect timeout instead of hanging', async () => {
      const res = await testConnection({ ...cfg, port }, { connectTimeoutMs: 300 });
      expect(res).toMatchObject({ ok: false, stage: 'connect' });
    });

    it('the overall test timeout also bounds it', async () => {
      const res = await testConnection({ ...cfg, port }, { connectTimeoutMs: 20_000, openTimeoutMs: 300 });
      expect(res).toMatchObject({ ok: false, stage: 'connect' });
      expect(res.ok === false && res.message).toMatch(/300 ms/);
    });
  });
});
