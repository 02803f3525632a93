// Cookie mode of login / refresh / logout (the dashboard's sessions): the refresh token only in
// an HttpOnly cookie on the refresh path, CSRF checks on refresh and logout, JSON mode unchanged,
// and dashboard sessions limited per person instead of against the plan.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/app.js';
import { bearer, call, dataOf, expectError, foundationApp } from './support.js';

const PASSWORD = 'correct horse battery';
let ip = 0;
const freshIp = () => `198.19.${(++ip >> 8) & 255}.${ip & 255}`;
const HOST = 'docpipe.example';
const ORIGIN = `https://${HOST}`;

interface Cookie {
  name: string;
  value: string;
  attrs: Record<string, string | true>;
}

function setCookies(res: LightMyRequestResponse): Cookie[] {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.map((line) => {
    const [pair, ...rest] = String(line).split(';');
    const i = pair.indexOf('=');
    const attrs: Record<string, string | true> = {};
    for (const a of rest) {
      const [k, ...v] = a.trim().split('=');
      attrs[k.toLowerCase()] = v.length ? v.join('=') : true;
    }
    return { name: pair.slice(0, i).trim(), value: pair.slice(i + 1), attrs };
  });
}

/** A minimal cookie jar: what a browser would send to the refresh path and elsewhere. */
class Jar {
  refresh = '';
  csrf = '';
  take(res: LightMyRequestResponse) {
    for (const c of setCookies(res)) {
      if (c.name === 'docpipe_refresh') this.refresh = c.value;
      if (c.name === 'docpipe_csrf') this.csrf = c.value;
    }
  }
  forRefresh() {
    return [this.refresh && `docpipe_refresh=${this.refresh}`, this.csrf && `docpipe_csrf=${this.csrf}`]
      .filter(Boolean)
      .join('; ');
  }
  elsewhere() {
    return this.csrf ? `docpipe_csrf=${this.csrf}` : '';
  }
}

describe('cookie-mode sessions', () => {
  let t: TestApp;
  let email: string;
  beforeAll(async () => {
    t = await foundationApp('pglite');
    email = `c${randomBytes(5).toString('hex')}@example.test`;
    // A free plan: 30 requests a minute for the organization's API use.
    await t.deps.services.orgs.createUser({
      email,
      password: PASSWORD,
      orgName: `Org ${email}`,
      role: 'owner',
      plan: 'free',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const cookieLogin = async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/auth/login',
      payload: { email, password: PASSWORD, mode: 'cookie' },
      remoteAddress: freshIp(),
      headers: { host: HOST },
    });
    const jar = new Jar();
    jar.take(res);
    return { res, jar, data: dataOf(res) };
  };
  const refresh = (jar: Jar, headers: Record<string, string> = {}) =>
    call(t.app, {
      method: 'POST',
      url: '/auth/refresh',
      payload: {},
      remoteAddress: freshIp(),
      headers: {
        host: HOST,
        cookie: jar.forRefresh(),
        'x-csrf-token': jar.csrf,
        origin: ORIGIN,
        'sec-fetch-site': 'same-origin',
        ...headers,
      },
    });

  it('login in cookie mode keeps the refresh token out of the body and in an HttpOnly, Secure, SameSite=Strict cookie on the refresh path', async () => {
    const { res, data } = await cookieLogin();
    expect(data.refreshToken).toBeUndefined();
    expect(data.expiresIn).toBe(900);
    const cookies = setCookies(res);
    const rt = cookies.find((c) => c.name === 'docpipe_refresh')!;
    expect(rt.value).toMatch(/^rt_/);
    expect(rt.attrs).toMatchObject({ path: '/api/v1/auth/refresh', httponly: true, secure: true, samesite: 'Strict' });
    const csrf = cookies.find((c) => c.name === 'docpipe_csrf')!;
    expect(csrf.attrs).toMatchObject({ path: '/', secure: true, samesite: 'Strict' });
    expect(csrf.attrs.httponly).toBeUndefined();
    expect(data.csrfToken).toBe(csrf.value);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(dataOf(await call(t.app, { url: '/auth/me', headers: bearer(data.accessToken) })).user.email).toBe(email);
  });

  it('JSON mode is unchanged: the refresh token in the body and no cookies', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/auth/login',
      payload: { email, password: PASSWORD },
      remoteAddress: freshIp(),
    });
    const data = dataOf(res);
    expect(data.refreshToken).toMatch(/^rt_/);
    expect(res.headers['set-cookie']).toBeUndefined();
    const again = await call(t.app, {
      method: 'POST',
      url: '/auth/refresh',
      payload: { refreshToken: data.refreshToken },
      remoteAddress: freshIp(),
    });
    expect(dataOf(again).refreshToken).toMatch(/^rt_/);
    expect(again.headers['set-cookie']).toBeUndefined();
    const err = expectError(
      await call(t.app, { method: 'POST', url: '/auth/refresh', payload: {}, remoteAddress: freshIp() }),
      400,
      'VALIDATION_ERROR',
    );
    expect(err.details?.map((d) => d.field)).toEqual(['refreshToken']);
  });

  it('refresh with the cookie and the CSRF header rotates both cookies; the old cookie replayed ends the session', async () => {
    const { jar } = await cookieLogin();
    const old = { ...jar } as Jar;
    const res = await refresh(jar);
    const data = dataOf(res);
    expect(data.refreshToken).toBeUndefined();
    expect(typeof data.accessToken).toBe('string');
    const before = jar.refresh;
    jar.take(res);
    expect(jar.refresh).not.toBe(before);
    expect(data.csrfToken).toBe(jar.csrf);
    expect(dataOf(await call(t.app, { url: '/auth/me', headers: bearer(data.accessToken) })).user.email).toBe(email);
    // The rotated-away cookie presented again (a stolen copy): refused, cookies cleared, family revoked.
    const replay = new Jar();
    replay.refresh = old.refresh;
    replay.csrf = old.csrf;
    const r2 = await refresh(replay);
    expectError(r2, 401, 'UNAUTHORIZED');
    expect(setCookies(r2).every((c) => c.attrs['max-age'] === '0')).toBe(true);
    expectError(await refresh(jar), 401, 'UNAUTHORIZED');
    expectError(await call(t.app, { url: '/auth/me', headers: bearer(data.accessToken) }), 401, 'UNAUTHORIZED');
  });

  it('refresh by cookie is refused without the CSRF proof, from another origin or site, or with a token of another session', async () => {
    const { jar } = await cookieLogin();
    const other = (await cookieLogin()).jar;
    expectError(await refresh(jar, { 'x-csrf-token': '' }), 403, 'FORBIDDEN');
    expectError(await refresh(jar, { 'x-csrf-token': 'x'.repeat(43) }), 403, 'FORBIDDEN');
    expectError(await refresh(jar, { origin: 'https://evil.example' }), 403, 'FORBIDDEN');
    expectError(await refresh(jar, { origin: 'null' }), 403, 'FORBIDDEN');
    expectError(await refresh(jar, { 'sec-fetch-site': 'cross-site' }), 403, 'FORBIDDEN');
    expectError(await refresh(jar, { 'sec-fetch-site': 'same-site' }), 403, 'FORBIDDEN');
    // A CSRF cookie and header planted by someone else (e.g. from a sibling domain) that match
    // each other but not this session's refresh token.
    const planted = `docpipe_refresh=${jar.refresh}; docpipe_csrf=${other.csrf}`;
    expectError(await refresh(jar, { cookie: planted, 'x-csrf-token': other.csrf }), 403, 'FORBIDDEN');
    // None of the refusals used the token up: the real request still works.
    dataOf(await refresh(jar));
  });

  it('logout in cookie mode needs the CSRF header, clears both cookies and ends the session', async () => {
    const { jar, data } = await cookieLogin();
    const headers = { ...bearer(data.accessToken), host: HOST, cookie: jar.elsewhere() };
    expectError(await call(t.app, { method: 'POST', url: '/auth/logout', headers }), 403, 'FORBIDDEN');
    const res = await call(t.app, {
      method: 'POST',
      url: '/auth/logout',
      headers: { ...headers, 'x-csrf-token': jar.csrf },
    });
    expect(dataOf(res).logged_out).toBe(true);
    const cleared = setCookies(res);
    expect(cleared.map((c) => c.name).sort()).toEqual(['docpipe_csrf', 'docpipe_refresh']);
    expect(cleared.every((c) => c.attrs['max-age'] === '0')).toBe(true);
    expect(cleared.find((c) => c.name === 'docpipe_refresh')!.attrs.path).toBe('/api/v1/auth/refresh');
    expectError(await refresh(jar), 401, 'UNAUTHORIZED');
    expectError(await call(t.app, { url: '/auth/me', headers: bearer(data.accessToken) }), 401, 'UNAUTHORIZED');
  });

  it('a dashboard session is limited per person, not by the free plan; the same person through the API is', async () => {
    const { data } = await cookieLogin();
    let last!: LightMyRequestResponse;
    for (let i = 0; i < 40; i++) {
      last = await call(t.app, { url: '/projects', headers: bearer(data.accessToken) });
      expect(last.statusCode, last.body).toBe(200);
    }
    expect(String(last.headers['ratelimit-policy'])).toMatch(/^"dashboard-minute";q=600;w=60$/);
    // A token refreshed by cookie stays a dashboard token.
    const { jar } = await cookieLogin();
    const refreshed = dataOf(await refresh(jar));
    expect(
      String(
        (await call(t.app, { url: '/projects', headers: bearer(refreshed.accessToken) })).headers['ratelimit-policy'],
      ),
    ).toMatch(/dashboard-minute/);
    const api = dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/auth/login',
        payload: { email, password: PASSWORD },
        remoteAddress: freshIp(),
      }),
    );
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await call(t.app, { url: '/projects', headers: bearer(api.accessToken) })).statusCode);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});
