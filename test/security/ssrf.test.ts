// The SSRF table: every spelling of a loopback, private, link-local, CGNAT, unspecified or
// mapped address we know of, as a webhook URL and as a mailbox host, is refused when saved; and
// names that resolve to such addresses are refused when delivering, before any connection (and
// a name that also has a public answer is never tried at its forbidden one). The unit tests of the address policy (test/unit/http-client) cover the
// classification itself; this table drives it through the API as an attacker would.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../helpers/app.js';
import { quickActor } from '../integration/foundation/support.js';
import { startWebhookSink, type WebhookSink } from '../helpers/webhook-sink.js';
import { createWebhooksTestApp, eventually, type WebhooksTestApp } from '../helpers/webhooks-harness.js';
import { attemptsOf, createSub, deliveriesOf, owner, warmOwners } from '../integration/webhooks/helpers.js';

/** Hosts that must never be reached, spelled every way an URL parser or resolver accepts. */
const HOSTILE_HOSTS = [
  '127.0.0.1',
  '127.0.0.2',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0x7f.0.0.1',
  '0177.0.0.1',
  '017700000001',
  '127.000.000.001',
  '0.0.0.0',
  '0',
  '10.0.0.5',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.0.1',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '198.18.0.1',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::ffff:10.0.0.1]',
  '[::ffff:169.254.169.254]',
  '[64:ff9b::7f00:1]',
  '[fe80::1]',
  '[fc00::1]',
  '[fd12:3456::1]',
  'localhost',
  'LOCALHOST',
  'localhost.',
  'api.localhost',
];

/** Names an attacker controls the DNS of: each resolves (also) to a forbidden address. */
const RESOLVES: Record<string, { address: string; family: 4 | 6 }[]> = {
  'rebind.attacker.example': [{ address: '127.0.0.1', family: 4 }],
  'metadata.attacker.example': [{ address: '169.254.169.254', family: 4 }],
  'v6.attacker.example': [{ address: '::1', family: 6 }],
  'mapped.attacker.example': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'mixed.attacker.example': [
    { address: '93.184.215.14', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'private.attacker.example': [{ address: '10.1.2.3', family: 4 }],
};

describe('SSRF table', () => {
  let t: WebhooksTestApp;
  const sinks: WebhookSink[] = [];
  beforeAll(async () => {
    t = await createWebhooksTestApp({
      env: { WEBHOOK_ALLOWED_HOSTS: '', MAIL_ALLOWED_HOSTS: '' },
      module: { resolver: async (host) => RESOLVES[host] ?? [] },
    });
    warmOwners(t, 2);
  });
  afterEach(async () => {
    for (const s of sinks.splice(0)) await s.close();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every hostile host is refused as a webhook URL (any scheme, port, userinfo or path trick)', async () => {
    const a = await owner(t);
    const accepted: string[] = [];
    for (const host of HOSTILE_HOSTS) {
      for (const url of [
        `http://${host}/h`,
        `https://${host}:8443/h`,
        `http://user:pw@${host}/h`,
        `http://93.184.215.14@${host}/h`,
        `http://${host}/h?x=@93.184.215.14`,
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/webhooks',
          headers: a.auth,
          payload: { url, events: ['*'] },
        });
        if (res.statusCode !== 400) accepted.push(`${url} -> ${res.statusCode}`);
        else expect(body(res).error?.details[0].field, url).toBe('url');
      }
    }
    expect(accepted).toEqual([]);
    // Changing an existing subscription to such a URL is refused the same way.
    const ok = await createSub(t, a, { url: 'https://93.184.215.14/h' });
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '169.254.169.254', 'localhost']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/webhooks/${ok.id}`,
        headers: a.auth,
        payload: { url: `http://${host}/h` },
      });
      expect(res.statusCode, host).toBe(400);
    }
  });

  it('names resolving to forbidden addresses pass the save but are refused at delivery, before any connection', async () => {
    const a = await owner(t);
    const rx = await startWebhookSink();
    sinks.push(rx);
    const subs = [];
    for (const name of Object.keys(RESOLVES))
      subs.push(await createSub(t, a, { url: `http://${name}:${rx.port}/hook` }));
    await t.emit(a.orgId, 'document.processed', {});
    for (const sub of subs) {
      const [d] = await eventually(async () => {
        const ds = await deliveriesOf(t, sub.id);
        return ds[0]?.attempts ? ds : null;
      }, `an attempt for ${sub.url}`);
      const [first] = await attemptsOf(t, d.id);
      // A name with a public answer as well may be tried at the public address (unreachable
      // here); it must never be tried at the forbidden one (the sink below sees nothing).
      if (String(sub.url).includes('mixed.')) expect(first, String(sub.url)).toMatchObject({ status_code: 0 });
      else expect(first, String(sub.url)).toMatchObject({ status_code: 0, error_code: 'FORBIDDEN_ADDRESS' });
    }
    expect(rx.requests).toHaveLength(0);
    expect(rx.connectionCount()).toBe(0);
  });
});

describe('SSRF table: mailbox hosts', () => {
  let m: TestApp;
  beforeAll(async () => {
    m = await createTestApp('pglite', { MAIL_ALLOWED_HOSTS: '' });
  });
  afterAll(async () => {
    await m?.close();
  });

  it('every hostile host is refused as a mailbox host', async () => {
    const a = await quickActor(m);
    const project = body(
      await m.app.inject({ method: 'POST', url: '/api/v1/projects', headers: a.auth, payload: { name: 'Mail' } }),
    ).data.id;
    const accepted: string[] = [];
    for (const raw of HOSTILE_HOSTS) {
      const host = raw.replace(/^\[|\]$/g, '');
      const res = await m.app.inject({
        method: 'POST',
        url: '/api/v1/integrations/mailboxes',
        headers: a.auth,
        payload: {
          name: 'x',
          host,
          port: 993,
          username: 'u',
          password: 'p',
          project_id: project,
          is_active: false,
        },
      });
      if (res.statusCode !== 400) accepted.push(`${host} -> ${res.statusCode}`);
    }
    expect(accepted).toEqual([]);
  });
});
