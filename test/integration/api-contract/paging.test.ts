// Every list endpoint accepts both paging spellings (page/per_page and limit/offset), gives the
// same items for the same window in either, refuses a mix with a 400 that says so, and answers
// with the same `pagination` object (totals, both spellings' numbers, next/prev links).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { upload } from '../../helpers/pipeline.js';
import {
  API,
  call,
  dataOf,
  expectError,
  makeKey,
  makeProject,
  quickActor,
  type QuickActor,
} from '../foundation/support.js';

const PAGINATION_KEYS = ['has_more', 'limit', 'next', 'offset', 'page', 'per_page', 'prev', 'total', 'total_pages'];

interface ListCase {
  url: string;
  /** The spelling the list documents (from the API contract). */
  canonical: 'page' | 'offset';
  /** The contract's page + limit spelling of GET /projects/{id}/documents. */
  pageWithLimit?: boolean;
  /** Least items the fixture puts in the list (the window checks need 5). */
  min: number;
}

let t: TestApp;
let owner: QuickActor;
let cases: ListCase[] = [];

const get = (url: string) => call(t.app, { url, headers: owner.auth });
const join = (url: string, q: string) => `${url}${url.includes('?') ? '&' : '?'}${q}`;
const ids = (res: LightMyRequestResponse) =>
  (res.json().data as { id?: string; user_id?: string }[]).map((x) => x.id ?? x.user_id);

describe.each(dbKinds())('paging spelled one way in answers (%s)', (kind) => {
  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = await quickActor(t, { role: 'owner' });
    const post = async (url: string, payload: unknown, status = 201) =>
      dataOf(await call(t.app, { method: 'POST', url, headers: owner.auth, payload }), status);

    for (let i = 0; i < 5; i++) await makeKey(t.app, owner, { name: `key ${i}` });
    const projects = [];
    for (let i = 0; i < 5; i++) projects.push(await makeProject(t.app, owner.auth, { name: `Project ${i}` }));
    const projectId = projects[0].id;
    for (let i = 0; i < 6; i++) {
      const res = await upload(t, owner, projectId, `note-${i}.txt`, Buffer.from(`Note number ${i}\nInvoice ${i}\n`));
      expect(res.statusCode, res.body).toBe(201);
    }
    for (let i = 0; i < 5; i++)
      await post('/templates', {
        issuer: `Issuer ${i}`,
        name: `tpl${i}`,
        keywords: [`Issuer ${i}`],
        fields: { reference: 'Ref:\\s*(\\S+)' },
      });
    // A public address literal: no name to resolve, nothing refused by the outbound policy.
    for (let i = 0; i < 5; i++) await post('/webhooks', { url: `https://93.184.216.34/hook/${i}`, events: ['*'] });
    for (let i = 0; i < 5; i++)
      await t.deps.repos.orgs.insertUser({
        orgId: owner.orgId,
        email: `m${i}-${owner.email}`,
        passwordHash: '!',
        role: 'viewer',
      });
    const wf = await post('/workflows', {
      name: 'wf 0',
      nodes: [{ id: 'go', type: 'trigger.manual', config: {} }],
      edges: [],
    });
    for (let i = 1; i < 5; i++) await post('/workflows', { name: `wf ${i}` });
    for (let i = 0; i < 5; i++) await post(`/workflows/${wf.id}/run`, { mode: 'dry_run' }, 202);
    const whk = dataOf(await get('/webhooks?limit=1')) as { id: string }[];
    const rpt = await post('/reports', { name: 'r 0', type: 'extraction_export' });
    for (let i = 1; i < 5; i++) await post('/reports', { name: `r ${i}`, type: 'extraction_export' });
    for (let i = 0; i < 5; i++) await post(`/reports/${rpt.id}/run`, undefined, 202);
    const mbx = await post('/integrations/mailboxes', {
      name: 'In',
      host: '93.184.216.34',
      port: 993,
      security: 'tls',
      username: 'u',
      password: 'p',
      project_id: projectId,
      is_active: false,
    });

    cases = [
      { url: '/api-keys', canonical: 'offset', min: 5 },
      { url: '/projects', canonical: 'offset', min: 5 },
      { url: '/events', canonical: 'offset', min: 5 },
      { url: '/documents', canonical: 'page', min: 5 },
      { url: `/projects/${projectId}/documents`, canonical: 'page', pageWithLimit: true, min: 5 },
      { url: '/templates', canonical: 'offset', min: 5 },
      { url: '/webhooks', canonical: 'offset', min: 5 },
      { url: `/webhooks/${whk[0].id}/deliveries`, canonical: 'offset', min: 0 },
      { url: '/members', canonical: 'offset', min: 5 },
      { url: '/workflows', canonical: 'page', min: 5 },
      { url: '/workflows/runs', canonical: 'page', min: 5 },
      { url: '/reports', canonical: 'page', min: 5 },
      { url: `/reports/${rpt.id}/executions`, canonical: 'page', min: 5 },
      { url: '/integrations/mailboxes', canonical: 'offset', min: 1 },
      { url: `/integrations/mailboxes/${mbx.id}/messages`, canonical: 'offset', min: 0 },
      { url: '/integrations/sheets/connections', canonical: 'offset', min: 0 },
      { url: '/integrations/sheets/exports', canonical: 'offset', min: 0 },
    ];
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('every list route of the OpenAPI document is covered by this table', async () => {
    const doc = dataOfDoc(await t.app.inject({ url: `${API}/openapi.json` }));
    const lists = Object.entries(doc.paths)
      .filter(([, ops]) =>
        (ops as Record<string, { parameters?: { name: string }[] }>).get?.parameters?.some(
          (p) => p.name === 'per_page',
        ),
      )
      .map(([path]) => path.replace(API, ''));
    expect(lists.length).toBeGreaterThanOrEqual(cases.length);
    const covered = cases.map((c) => templated(c.url));
    for (const path of lists) expect(covered, `list ${path} is not in the table`).toContain(path);
  });

  it('both spellings give the same items and the same pagination shape on every list', async () => {
    for (const c of cases) {
      const all = await get(join(c.url, c.canonical === 'page' ? 'per_page=100' : 'limit=100'));
      const everything = ids(all);
      expect(everything.length, c.url).toBeGreaterThanOrEqual(c.min);
      const total = all.json().pagination.total as number;
      expect(total, c.url).toBe(everything.length);

      for (const [size, page] of [
        [2, 1],
        [2, 2],
        [2, 3],
        [100, 1],
      ]) {
        const byPage = await get(join(c.url, `page=${page}&per_page=${size}`));
        const byOffset = await get(join(c.url, `limit=${size}&offset=${(page - 1) * size}`));
        for (const res of [byPage, byOffset]) {
          expect(res.statusCode, `${c.url}: ${res.body}`).toBe(200);
          expect(Object.keys(res.json().pagination).sort(), c.url).toEqual(PAGINATION_KEYS);
        }
        const want = everything.slice((page - 1) * size, page * size);
        expect(ids(byPage), `${c.url} page ${page}`).toEqual(want);
        expect(ids(byOffset), `${c.url} offset ${(page - 1) * size}`).toEqual(want);
        const { next: n1, prev: p1, ...a } = byPage.json().pagination;
        const { next: n2, prev: p2, ...b } = byOffset.json().pagination;
        expect(a, c.url).toEqual(b);
        expect(a, c.url).toEqual({
          total,
          limit: size,
          offset: (page - 1) * size,
          page,
          per_page: size,
          total_pages: Math.ceil(total / size),
          has_more: page * size < total,
        });
        // Links keep the spelling of the request; both are there exactly when the page has neighbours.
        expect(n1 === null, c.url).toBe(page * size >= total);
        expect(n2 === null, c.url).toBe(page * size >= total);
        expect(p1 === null && p2 === null, c.url).toBe(page === 1);
        if (n1) expect(n1).toContain(`page=${page + 1}&per_page=${size}`);
        if (n2) expect(n2).toContain(`limit=${size}&offset=${page * size}`);
      }
    }
  });

  it('following next links walks the whole list once, in either spelling', async () => {
    for (const c of cases) {
      const everything = ids(await get(join(c.url, 'limit=100')));
      for (const first of ['per_page=2', 'limit=2']) {
        const seen: unknown[] = [];
        let url: string | null = `${API}${join(c.url, first)}`;
        for (let hops = 0; url && hops < 60; hops++) {
          const res: LightMyRequestResponse = await t.app.inject({ url, headers: owner.auth });
          expect(res.statusCode, res.body).toBe(200);
          seen.push(...ids(res));
          url = res.json().pagination.next;
        }
        expect(seen, `${c.url} from ${first}`).toEqual(everything);
      }
    }
  });

  it('the default spelling is the canonical one and the page size defaults apply', async () => {
    for (const c of cases) {
      const p = (await get(c.url)).json().pagination;
      const size = c.url === '/api-keys' || c.url === '/members' ? 50 : 20;
      expect(p, c.url).toMatchObject({ limit: size, per_page: size, offset: 0, page: 1 });
      if (p.has_more) expect(p.next, c.url).toContain(c.canonical === 'page' ? 'page=2' : `offset=${size}`);
    }
  });

  it('an offset between page boundaries works on lists that page by number', async () => {
    for (const c of cases.filter((x) => x.canonical === 'page')) {
      const everything = ids(await get(join(c.url, 'per_page=100')));
      const res = await get(join(c.url, 'limit=3&offset=1'));
      expect(ids(res), c.url).toEqual(everything.slice(1, 4));
      expect(res.json().pagination, c.url).toMatchObject({ offset: 1, limit: 3, has_more: everything.length > 4 });
    }
  });

  it('mixing the two spellings is a 400 that names both and the list’s documented spelling', async () => {
    for (const c of cases) {
      for (const q of ['page=1&offset=0', 'per_page=5&limit=5', 'per_page=5&offset=5']) {
        const err = expectError(await get(join(c.url, q)), 400, 'VALIDATION_ERROR');
        expect(err.message, c.url).toMatch(/either page\/per_page or limit\/offset/);
        expect(err.message, c.url).toContain(
          c.canonical === 'page' ? 'documented spelling is page/per_page' : 'documented spelling is limit/offset',
        );
        expect(err.details?.map((d) => d.field).sort(), c.url).toEqual(
          q
            .split('&')
            .map((kv) => kv.split('=')[0])
            .sort(),
        );
      }
      if (!c.pageWithLimit) expectError(await get(join(c.url, 'page=2&limit=5')), 400, 'VALIDATION_ERROR');
    }
  });

  it('GET /projects/{id}/documents keeps the contract’s page + limit', async () => {
    const c = cases.find((x) => x.pageWithLimit)!;
    const everything = ids(await get(join(c.url, 'limit=100')));
    const res = await get(join(c.url, 'page=2&limit=2'));
    expect(ids(res)).toEqual(everything.slice(2, 4));
    expect(res.json().pagination).toMatchObject({ page: 2, per_page: 2, limit: 2, offset: 2 });
    expect(res.json().pagination.next).toContain('page=3&limit=2');
  });

  it('bounds: page size at most 100, page and offset not negative', async () => {
    for (const q of ['per_page=101', 'limit=101', 'page=0', 'offset=-1', 'limit=0']) {
      expectError(await get(`/documents?${q}`), 400, 'VALIDATION_ERROR');
      expectError(await get(`/projects?${q}`), 400, 'VALIDATION_ERROR');
    }
  });

  it('the OpenAPI document declares both spellings on every list, the canonical one without the alias note', async () => {
    const doc = dataOfDoc(await t.app.inject({ url: `${API}/openapi.json` }));
    for (const c of cases) {
      const path = `${API}${templated(c.url)}`;
      const params = (doc.paths[path].get.parameters as { name: string; in: string; description?: string }[]).filter(
        (p) => p.in === 'query',
      );
      const byName = Object.fromEntries(params.map((p) => [p.name, p]));
      for (const n of ['page', 'per_page', 'limit', 'offset']) expect(byName[n], `${path} ${n}`).toBeDefined();
      const canonical = c.canonical === 'page' ? 'page' : 'offset';
      expect(byName[canonical].description, path).not.toMatch(/Alternative spelling/);
    }
  });
});

/** `/projects/prj_…/documents` → `/projects/{id}/documents`, as the OpenAPI document spells it. */
function templated(url: string): string {
  return url.replace(/\/[a-z]{3}_[A-Za-z0-9]+/g, '/{id}');
}

function dataOfDoc(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(200);
  return res.json() as { paths: Record<string, any> };
}
