// An API key that manages keys can only make or change keys at most as permissive as itself:
// expiry no later, allowed_ips and allowed_endpoints within its own, rate limits no higher.
// What the request leaves out is inherited; what it widens is refused (403, field named).
// Sessions (people) are not bound this way; the role check still applies to both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { createTestApp } from '../helpers/app.js';
import {
  bearer,
  call,
  dataOf,
  expectError,
  makeKey,
  quickActor,
  type QuickActor,
} from '../integration/foundation/support.js';

const DAY = 86_400_000;

describe('keys made or changed by a key stay within its bounds', () => {
  let t: TestApp;
  let owner: QuickActor;
  let parent: { id: string; key: string; expires_at: string };
  beforeAll(async () => {
    t = await createTestApp('pglite');
    owner = await quickActor(t);
    parent = (await makeKey(t.app, owner, {
      name: 'restricted parent',
      expires_in_days: 10,
      allowed_ips: ['10.1.0.0/16', '2001:db8::/32'],
      rate_limit_per_minute: 50,
      rate_limit_per_day: 1000,
      allowed_endpoints: ['/api-keys/*', 'GET /projects/*', 'POST /documents'],
    })) as unknown as typeof parent;
  });
  afterAll(async () => {
    await t?.close();
  });

  const asParent = (c: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: unknown }) =>
    call(t.app, { ...c, headers: bearer(parent.key), remoteAddress: '10.1.2.3' });

  it('a child made with no restrictions inherits every one of the parent key', async () => {
    const child = dataOf(await asParent({ method: 'POST', url: '/api-keys', payload: { name: 'child' } }), 201);
    expect(child).toMatchObject({
      allowed_ips: ['10.1.0.0/16', '2001:db8::/32'],
      allowed_endpoints: ['/api-keys/*', 'GET /projects/*', 'POST /documents'],
      rate_limit_per_minute: 50,
      rate_limit_per_day: 1000,
    });
    expect(new Date(child.expires_at).getTime()).toBe(new Date(parent.expires_at).getTime());
    // And it is really bound: from another address it is refused.
    expectError(
      await call(t.app, { url: '/auth/me', headers: bearer(child.key), remoteAddress: '192.0.2.1' }),
      403,
      'FORBIDDEN',
    );
    expect(
      (await call(t.app, { url: '/projects', headers: bearer(child.key), remoteAddress: '10.1.200.1' })).statusCode,
    ).toBe(200);
    expectError(
      await call(t.app, { url: '/webhooks', headers: bearer(child.key), remoteAddress: '10.1.200.1' }),
      403,
      'FORBIDDEN',
    );
  });

  it('narrower restrictions are accepted', async () => {
    const child = dataOf(
      await asParent({
        method: 'POST',
        url: '/api-keys',
        payload: {
          name: 'narrow',
          expires_in_days: 2,
          allowed_ips: ['10.1.7.0/24', '10.1.9.9', '2001:db8:1::/48'],
          rate_limit_per_minute: 5,
          rate_limit_per_day: 10,
          allowed_endpoints: ['GET /projects', 'GET /projects/*/stats', 'POST /documents'],
        },
      }),
      201,
    );
    expect(new Date(child.expires_at).getTime()).toBeLessThan(Date.now() + 3 * DAY);
    expect(child.allowed_ips).toEqual(['10.1.7.0/24', '10.1.9.9', '2001:db8:1::/48']);
  });

  it.each([
    ['a later expiry', { expires_in_days: 11 }, 'expires_in_days'],
    ['no IP restriction', { allowed_ips: [] }, 'allowed_ips'],
    ['a wider network', { allowed_ips: ['10.0.0.0/8'] }, 'allowed_ips[0]'],
    ['another network', { allowed_ips: ['10.1.0.1', '192.168.0.0/16'] }, 'allowed_ips[1]'],
    ['a wider IPv6 network', { allowed_ips: ['2001::/16'] }, 'allowed_ips[0]'],
    ['no endpoint restriction', { allowed_endpoints: [] }, 'allowed_endpoints'],
    ['everything', { allowed_endpoints: ['*'] }, 'allowed_endpoints[0]'],
    ['a route outside the parent rules', { allowed_endpoints: ['GET /webhooks'] }, 'allowed_endpoints[0]'],
    ['any method where the parent allows one', { allowed_endpoints: ['/documents'] }, 'allowed_endpoints[0]'],
    [
      'a subtree where the parent allows one path',
      { allowed_endpoints: ['POST /documents/*'] },
      'allowed_endpoints[0]',
    ],
    ['a higher per-minute limit', { rate_limit_per_minute: 51 }, 'rate_limit_per_minute'],
    ['a higher daily limit', { rate_limit_per_day: 1001 }, 'rate_limit_per_day'],
    ['the other mode', { environment: 'test' }, 'environment'],
  ])('a child with %s is refused', async (_what, extra, field) => {
    const before = dataOf(await call(t.app, { url: '/api-keys?limit=100', headers: owner.auth })).length;
    const err = expectError(
      await asParent({ method: 'POST', url: '/api-keys', payload: { name: 'wider', ...extra } }),
      403,
      'FORBIDDEN',
    );
    expect(err.details?.map((d) => d.field)).toContain(field);
    expect(dataOf(await call(t.app, { url: '/api-keys?limit=100', headers: owner.auth })).length).toBe(before);
  });

  it('a key cannot widen itself or another key with an update', async () => {
    const sibling = await makeKey(t.app, owner, { name: 'sibling', rate_limit_per_minute: 20 });
    for (const [id, payload, field] of [
      [parent.id, { allowed_ips: ['0.0.0.0/0'] }, 'allowed_ips[0]'],
      [parent.id, { rate_limit_per_minute: null }, 'rate_limit_per_minute'],
      [parent.id, { rate_limit_per_day: 5000 }, 'rate_limit_per_day'],
      [sibling.id, { rate_limit_per_minute: 100 }, 'rate_limit_per_minute'],
      [sibling.id, { allowed_ips: [] }, 'allowed_ips'],
    ] as const) {
      const err = expectError(await asParent({ method: 'PUT', url: `/api-keys/${id}`, payload }), 403, 'FORBIDDEN');
      expect(err.details?.map((d) => d.field)).toContain(field);
    }
    const self = dataOf(await call(t.app, { url: `/api-keys/${parent.id}`, headers: owner.auth }));
    expect(self).toMatchObject({
      allowed_ips: ['10.1.0.0/16', '2001:db8::/32'],
      rate_limit_per_minute: 50,
      rate_limit_per_day: 1000,
    });
    // Narrowing and renaming are fine.
    dataOf(
      await asParent({
        method: 'PUT',
        url: `/api-keys/${sibling.id}`,
        payload: { name: 'renamed', rate_limit_per_minute: 10, allowed_ips: ['10.1.1.1'] },
      }),
    );
  });

  it("people are not bound by a key's limits (their role decides)", async () => {
    const k = dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/api-keys',
        headers: owner.auth,
        payload: { name: 'free', expires_in_days: 3650 },
      }),
      201,
    );
    expect(k.allowed_ips).toEqual([]);
  });
});
