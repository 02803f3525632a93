// A key limited by `allowed_endpoints` reaches only the routes its rules allow, whatever the
// request target looks like: fragments (`#`), encoded fragments, `;` parameters, encoded and
// doubled slashes, dot segments, case changes and trailing slashes, alone and smuggled between
// a forbidden path and an allowed tail. Targets go over a raw socket exactly as written; the
// oracle is the route the router actually dispatched to (recorded after the access checks).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  call,
  dataOf,
  insertDocument,
  makeKey,
  makeProject,
  quickActor,
} from '../integration/foundation/support.js';
import { rawRequest, startSecurityApp, type Reached, type SecurityApp } from './support.js';

const TOKENS = [
  '#',
  '%23',
  ';',
  '%3B',
  '?',
  '%3F',
  '%2F',
  '%2f',
  '/..',
  '/../..',
  '/./',
  '//',
  '%5C',
  '\\',
  '%00',
  '%20',
  '%09',
  '..;',
  '/%2e%2e',
  '#/../',
  ';/..',
  '%252F',
  '/.%2e',
];
const PREFIXES = [
  '//api/v1',
  '/api//v1',
  '/./api/v1',
  '/api/v1/.',
  '/api/x/../v1',
  '/API/v1',
  '/api/V1',
  '/api/v1%2F',
  '/api%2Fv1',
];

type Method = 'GET' | 'POST' | 'PUT' | 'HEAD';

/** Every way of writing `path` (relative to /api/v1) that the generator knows. */
function variants(path: string): string[] {
  const segs = path.split('/').filter(Boolean);
  const out = new Set<string>([`/api/v1${path}`]);
  for (let i = 1; i <= segs.length; i++) {
    const head = `/api/v1/${segs.slice(0, i).join('/')}`;
    const tail = segs.slice(i).length ? `/${segs.slice(i).join('/')}` : '';
    for (const tok of TOKENS) {
      out.add(`${head}${tok}${tail}`);
      out.add(`${head}${tok}`);
      out.add(`${head}/${tok}${tail}`);
    }
    // Encoded slash instead of the real one after this segment.
    if (tail) out.add(`${head}%2F${tail.slice(1)}`);
    // Case changes, one segment at a time.
    const upper = segs.map((s, j) => (j === i - 1 ? s.toUpperCase() : s));
    out.add(`/api/v1/${upper.join('/')}`);
  }
  for (const end of ['/', '//', '/.', '/..', '/%2e', '%2F']) out.add(`/api/v1${path}${end}`);
  for (const p of PREFIXES) out.add(`${p}${path}`);
  return [...out];
}

describe('allowed_endpoints against raw request targets', () => {
  let s: SecurityApp;
  beforeAll(async () => {
    s = await startSecurityApp();
  });
  afterAll(async () => {
    await s?.close();
  });

  it(
    'a restricted key reaches only the routes its rules allow, however the target is written',
    { timeout: 120_000 },
    async () => {
      const owner = await quickActor(s);
      const P = (await makeProject(s.app, owner.auth, { name: 'allowed by literal rule' })).id;
      const P2 = (await makeProject(s.app, owner.auth, { name: 'only stats allowed' })).id;
      const D = await insertDocument(s, { orgId: owner.orgId, projectId: P });
      const W = dataOf(
        await call(s.app, {
          method: 'POST',
          url: '/webhooks',
          headers: owner.auth,
          payload: { url: 'https://93.184.215.14/hook', events: ['*'] },
        }),
        201,
      ).id as string;
      const key = await makeKey(s.app, owner, {
        name: 'restricted',
        allowed_endpoints: ['GET /projects/*/stats', `GET /projects/${P}`, 'POST /webhooks/*/test', 'GET /documents/*'],
      });
      const auth = bearer(key.key);

      /** What the rules above allow, written against the route table (not against paths). */
      const allowed = (r: Reached): boolean => {
        const m = r.method === 'HEAD' ? 'GET' : r.method;
        const route = r.route.replace(/^\/api\/v1/, '');
        if (m === 'GET' && route === '/projects/:id/stats') return true;
        if (m === 'GET' && route === '/projects/:id' && r.params.id === P) return true;
        if (m === 'POST' && route === '/webhooks/:id/test') return true;
        if (m === 'GET' && (route === '/documents' || route.startsWith('/documents/'))) return true;
        return false;
      };

      const allowedBases: [Method, string][] = [
        ['GET', `/projects/${P}/stats`],
        ['GET', `/projects/${P2}/stats`],
        ['GET', `/projects/${P}`],
        ['HEAD', `/projects/${P}`],
        ['POST', `/webhooks/${W}/test`],
        ['GET', '/documents'],
        ['GET', `/documents/${D}`],
        ['GET', `/documents/${D}/text`],
      ];
      const forbiddenBases: [Method, string][] = [
        ['GET', `/projects/${P2}`],
        ['GET', '/projects'],
        ['GET', `/projects/${P2}/documents`],
        ['POST', '/webhooks'],
        ['GET', `/webhooks/${W}`],
        ['GET', '/webhooks'],
        ['GET', '/api-keys'],
        ['POST', '/api-keys'],
        ['PUT', `/projects/${P}`],
        ['POST', '/documents/reprocess'],
        ['GET', '/auth/me'],
      ];

      // 1. The plain allowed targets work (the suite would prove nothing if they did not).
      for (const [method, path] of allowedBases) {
        const before = s.reached.length;
        const res = await rawRequest(
          s.port,
          method,
          `/api/v1${path}`,
          { ...auth, 'Content-Type': 'application/json' },
          method === 'POST' ? '{}' : '',
        );
        expect([200, 202, 409], `${method} ${path}: ${res.body}`).toContain(res.status);
        expect(s.reached.length, `${method} ${path}`).toBe(before + 1);
      }
      // 2. The plain forbidden ones are refused by the rule.
      for (const [method, path] of forbiddenBases) {
        const res = await rawRequest(
          s.port,
          method,
          `/api/v1${path}`,
          { ...auth, 'Content-Type': 'application/json' },
          method === 'GET' ? '' : '{}',
        );
        expect(res.status, `${method} ${path}`).toBe(403);
      }

      // 3. Every variant of every base, plus forbidden paths with an allowed tail smuggled behind a token.
      const targets: [Method, string][] = [];
      for (const [method, path] of [...allowedBases, ...forbiddenBases])
        for (const v of variants(path)) targets.push([method, v]);
      for (const [fm, fp] of forbiddenBases) {
        for (const [am, ap] of allowedBases) {
          if (am !== fm) continue;
          const tails = [
            ap,
            `/${ap.split('/').filter(Boolean).slice(-2).join('/')}`,
            `/${ap.split('/').filter(Boolean).at(-1)}`,
          ];
          for (const tok of TOKENS) {
            for (const tail of tails) {
              targets.push([fm, `/api/v1${fp}${tok}${tail}`]);
              targets.push([fm, `/api/v1${fp}/${tok}${tail}`]);
            }
          }
        }
      }
      const violations: string[] = [];
      const serverErrors: string[] = [];
      s.reached.length = 0;
      const queue = [...targets];
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [method, target] = next;
          const res = await rawRequest(
            s.port,
            method,
            target,
            { ...auth, 'Content-Type': 'application/json' },
            method === 'GET' || method === 'HEAD' ? '' : '{}',
          );
          if (res.status >= 500) serverErrors.push(`${method} ${target} -> ${res.status} ${res.body.slice(0, 120)}`);
        }
      };
      await Promise.all(Array.from({ length: 6 }, worker));
      for (const r of s.reached)
        if (!allowed(r)) violations.push(`${r.method} ${r.rawUrl} reached ${r.route} ${JSON.stringify(r.params)}`);
      console.log(
        `raw targets: ${targets.length} sent, ${s.reached.length} passed the access checks, ${violations.length} violations`,
      );
      expect(violations).toEqual([]);
      expect(serverErrors).toEqual([]);
      // Still the same data afterwards: nothing was created through a smuggled target.
      const hooks = dataOf(await call(s.app, { url: '/webhooks', headers: owner.auth }));
      expect(hooks.map((h: { id: string }) => h.id)).toEqual([W]);
      const keys = dataOf(await call(s.app, { url: '/api-keys', headers: owner.auth }));
      expect(keys.map((k: { id: string }) => k.id)).toEqual([key.id]);
    },
  );
});
