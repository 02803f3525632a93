// The /reports API: create/list/get/update/delete, validation naming the key or field (unknown
// data_source and filters keys, filters that do not apply to the type, project ids of another
// organization, bad schedule time and zone), the schedule endpoints with next_run_at in UTC and
// local time, roles (viewer reads, member writes), another organization's ids answering 404 and
// test-mode credentials not seeing live reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, body, createActor, createKey, type Actor, type TestApp } from '../../helpers/app.js';
import { createReportsStack, type ReportsStack } from '../../helpers/reports-harness.js';
import { schedulerId } from '../../../src/modules/reports/jobs.js';

describe('reports API', () => {
  let t: ReportsStack;
  let owner: Actor;
  let other: Actor;
  const call = (
    who: { auth: Record<string, string> } | Record<string, string>,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: 'auth' in who ? (who.auth as Record<string, string>) : who,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const create = async (who: Actor | Record<string, string>, payload: Record<string, unknown>) => {
    const res = await call(who as Actor, 'POST', '/reports', payload);
    expect(res.statusCode, res.body).toBe(201);
    return body(res).data;
  };

  beforeAll(async () => {
    t = await createReportsStack({ workers: false });
    owner = await createActor(t as unknown as TestApp);
    other = await createActor(t as unknown as TestApp);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates, lists with filters and paging, reads, updates and deletes', async () => {
    const a = await create(owner, {
      name: 'Monthly invoices',
      type: 'extraction_export',
      description: 'for accounting',
      category: 'finance',
      tags: ['acc', 'acc', 'month'],
      data_source: { period: { last: '30d' }, timezone: 'Europe/Berlin' },
      filters: { status: 'completed', fields: ['total'] },
    });
    expect(a).toMatchObject({
      name: 'Monthly invoices',
      type: 'extraction_export',
      category: 'finance',
      tags: ['acc', 'month'],
      retention_days: 90,
      schedule: null,
      last_execution: null,
      data_source: { period: { last: '30d' }, timezone: 'Europe/Berlin' },
      filters: { status: ['completed'], fields: ['total'] },
    });
    const b = await create(owner, { name: 'Usage', type: 'usage', category: 'ops', retention_days: 7 });
    expect(b.retention_days).toBe(7);
    const list = body(await call(owner, 'GET', '/reports?per_page=1'));
    expect(list.data.map((r: any) => r.id)).toEqual([b.id]);
    expect(list.pagination).toMatchObject({ page: 1, per_page: 1, total: 2, total_pages: 2, has_more: true });
    expect(body(await call(owner, 'GET', '/reports?page=2&per_page=1')).data.map((r: any) => r.id)).toEqual([a.id]);
    expect(body(await call(owner, 'GET', '/reports?type=usage')).data.map((r: any) => r.id)).toEqual([b.id]);
    expect(body(await call(owner, 'GET', '/reports?category=finance')).data.map((r: any) => r.id)).toEqual([a.id]);
    expect(body(await call(owner, 'GET', '/reports?search=ACCOUNT')).data.map((r: any) => r.id)).toEqual([a.id]);
    expect(body(await call(owner, 'GET', '/reports?search=month')).data.map((r: any) => r.id)).toEqual([a.id]);
    expect(body(await call(owner, 'GET', '/reports?search=%25')).data).toEqual([]);
    expect((await call(owner, 'GET', '/reports?type=nope')).statusCode).toBe(400);

    const up = await call(owner, 'PUT', `/reports/${a.id}`, {
      name: 'Invoices',
      filters: { fields: ['total', 'invoice_number'] },
      retention_days: 30,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(body(up).data).toMatchObject({
      name: 'Invoices',
      filters: { fields: ['total', 'invoice_number'] },
      retention_days: 30,
      description: 'for accounting',
    });
    expect(body(await call(owner, 'GET', `/reports/${a.id}`)).data.name).toBe('Invoices');
    const typeChange = await call(owner, 'PUT', `/reports/${a.id}`, { type: 'usage' });
    expect(typeChange.statusCode).toBe(400);
    expect(JSON.stringify(body(typeChange).error)).toContain('type');

    const del = await call(owner, 'DELETE', `/reports/${b.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(body(del).data).toMatchObject({ id: b.id, deleted: true });
    expect((await call(owner, 'GET', `/reports/${b.id}`)).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', `/reports/${b.id}`)).statusCode).toBe(404);
  });

  it('answers 400 naming the key for unknown or inapplicable data_source and filters keys, and stores nothing', async () => {
    const before = body(await call(owner, 'GET', '/reports')).pagination.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ data_source: { project_ids: [], periodd: { last: '7d' } } }, 'data_source.periodd'],
      [{ filters: { colour: 'red' } }, 'filters.colour'],
      [{ data_source: { period: { last: '7 days' } } }, 'data_source.period.last'],
      [{ data_source: { period: { from: '2026-03-05', to: '2026-03-01' } } }, 'data_source.period'],
      [{ data_source: { timezone: 'Mars/Olympus' } }, 'data_source.timezone'],
      [{ filters: { status: ['done'] } }, 'filters.status[0]'],
      [{ filters: { min_confidence: 2 } }, 'filters.min_confidence'],
      [{ type: 'usage', filters: { status: 'completed' } }, 'filters.status'],
      [{ type: 'document_summary', filters: { fields: ['total'] } }, 'filters.fields'],
    ];
    for (const [extra, field] of cases) {
      const res = await call(owner, 'POST', '/reports', { name: 'x', type: 'extraction_export', ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      const err = body(res).error!;
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.message).toContain(field);
      expect(err.details.map((d: any) => d.field)).toContain(field);
    }
    // Unknown top-level fields and types: the schema names them.
    const top = await call(owner, 'POST', '/reports', { name: 'x', type: 'extraction_export', colour: 'red' });
    expect(top.statusCode).toBe(400);
    expect(JSON.stringify(body(top).error)).toContain('colour');
    const type = await call(owner, 'POST', '/reports', { name: 'x', type: 'pie_chart' });
    expect(type.statusCode).toBe(400);
    expect(JSON.stringify(body(type).error)).toContain('type');
    expect((await call(owner, 'POST', '/reports', { type: 'usage' })).statusCode).toBe(400);
    // A project of another organization is refused by position, naming the id.
    const otherProject = body(await call(other, 'POST', '/projects', { name: 'Theirs' })).data.id;
    const mine = body(await call(owner, 'POST', '/projects', { name: 'Mine' })).data.id;
    const res = await call(owner, 'POST', '/reports', {
      name: 'x',
      type: 'document_summary',
      data_source: { project_ids: [mine, otherProject] },
    });
    expect(res.statusCode).toBe(400);
    expect(body(res).error!.details).toEqual([expect.objectContaining({ field: 'data_source.project_ids[1]' })]);
    expect(body(await call(owner, 'GET', '/reports')).pagination.total).toBe(before);
    // Updates are checked the same way and change nothing when refused.
    const r = await create(owner, { name: 'Summary', type: 'document_summary', data_source: { project_ids: [mine] } });
    const bad = await call(owner, 'PUT', `/reports/${r.id}`, { name: 'renamed', filters: { fields: ['x'] } });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).error!.details.map((d: any) => d.field)).toEqual(['filters.fields']);
    expect(body(await call(owner, 'GET', `/reports/${r.id}`)).data).toMatchObject({
      name: 'Summary',
      data_source: { project_ids: [mine] },
    });
  });

  it('schedules: defaults, next run in UTC and local time, replace, validation, delete', async () => {
    const r = await create(owner, { name: 'Daily summary', type: 'document_summary' });
    const none = await call(owner, 'GET', `/reports/${r.id}/schedule`);
    expect(none.statusCode).toBe(404);

    const res = await call(owner, 'POST', `/reports/${r.id}/schedule`, { time: '09:15', timezone: 'Europe/Berlin' });
    expect(res.statusCode, res.body).toBe(201);
    const s = body(res).data;
    expect(s).toMatchObject({
      frequency: 'daily',
      time: '09:15',
      timezone: 'Europe/Berlin',
      day_of_week: null,
      day_of_month: null,
      last_run_at: null,
    });
    expect(s.next_run_at).toMatch(/Z$/);
    expect(s.next_run_at_local).toMatch(/T09:15:00\+0[12]:00$/);
    expect(Date.parse(s.next_run_at_local)).toBe(Date.parse(s.next_run_at));
    expect(Date.parse(s.next_run_at)).toBeGreaterThan(Date.now());
    expect(Date.parse(s.next_run_at) - Date.now()).toBeLessThanOrEqual(86_400_000 + 3_600_000);
    const scheduler = await t.deps.queues.get('reports').getJobScheduler(schedulerId(r.id));
    expect(scheduler).toMatchObject({ pattern: '0 15 9 * * *', tz: 'Europe/Berlin' });
    expect(body(await call(owner, 'GET', `/reports/${r.id}`)).data.schedule).toMatchObject({
      time: '09:15',
      next_run_at: s.next_run_at,
    });

    const weekly = await call(owner, 'POST', `/reports/${r.id}/schedule`, { time: '07:00', frequency: 'weekly' });
    expect(weekly.statusCode, weekly.body).toBe(200);
    expect(body(weekly).data).toMatchObject({ frequency: 'weekly', day_of_week: 'monday', timezone: 'UTC' });
    expect(new Date(body(weekly).data.next_run_at).getUTCDay()).toBe(1);
    const monthly = body(
      await call(owner, 'POST', `/reports/${r.id}/schedule`, {
        time: '23:30',
        frequency: 'monthly',
        day_of_month: 31,
        timezone: 'America/New_York',
      }),
    ).data;
    expect(monthly).toMatchObject({ day_of_month: 31, day_of_week: null });
    expect(monthly.next_run_at_local).toMatch(/T23:30:00-0[45]:00$/);
    expect(await t.deps.queues.get('reports').getJobScheduler(schedulerId(r.id))).toMatchObject({
      pattern: '0 30 23 28-31 * *',
      tz: 'America/New_York',
    });

    const bad: [Record<string, unknown>, string][] = [
      [{ time: '25:00' }, 'time'],
      [{ time: '9:00' }, 'time'],
      [{ time: '09:00', timezone: 'Mars/Olympus' }, 'timezone'],
      [{ time: '09:00', timezone: 'CEST+2' }, 'timezone'],
      [{ time: '09:00', day_of_week: 'monday' }, 'day_of_week'],
      [{ time: '09:00', frequency: 'monthly', day_of_month: 32 }, 'day_of_month'],
      [{ time: '09:00', frequency: 'hourly' }, 'frequency'],
      [{}, 'time'],
    ];
    for (const [payload, field] of bad) {
      const b = await call(owner, 'POST', `/reports/${r.id}/schedule`, payload);
      expect(b.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(body(b).error), JSON.stringify(payload)).toContain(field);
    }
    // Refused schedules left the last good one alone.
    expect(body(await call(owner, 'GET', `/reports/${r.id}/schedule`)).data).toMatchObject({
      frequency: 'monthly',
      day_of_month: 31,
    });

    expect((await call(owner, 'DELETE', `/reports/${r.id}/schedule`)).statusCode).toBe(200);
    expect((await call(owner, 'GET', `/reports/${r.id}/schedule`)).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', `/reports/${r.id}/schedule`)).statusCode).toBe(404);
    expect(await t.deps.queues.get('reports').getJobScheduler(schedulerId(r.id))).toBeFalsy();

    // Deleting a scheduled report removes its scheduler too.
    await call(owner, 'POST', `/reports/${r.id}/schedule`, { time: '10:00' });
    expect((await call(owner, 'DELETE', `/reports/${r.id}`)).statusCode).toBe(200);
    expect(await t.deps.queues.get('reports').getJobScheduler(schedulerId(r.id))).toBeFalsy();
  });

  it('roles: a viewer reads, a member writes and runs', async () => {
    const r = await create(owner, { name: 'Team report', type: 'usage' });
    const viewer = await createActor(t as unknown as TestApp, { role: 'viewer', orgName: undefined });
    // createActor makes a new organization; put the viewer and a member into the owner's.
    const member = await createActor(t as unknown as TestApp, { role: 'member' });
    for (const a of [viewer, member])
      await t.testDb.db.query('UPDATE users SET org_id = $1 WHERE id = $2', [owner.orgId, a.userId]);
    const login = async (a: Actor) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: a.email, password: a.password },
      });
      return { authorization: `Bearer ${res.json().data.accessToken}` };
    };
    const v = await login(viewer);
    const m = await login(member);
    expect((await call(v, 'GET', `/reports/${r.id}`)).statusCode).toBe(200);
    expect((await call(v, 'GET', `/reports/${r.id}/executions`)).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['POST', '/reports', { name: 'x', type: 'usage' }],
      ['PUT', `/reports/${r.id}`, { name: 'x' }],
      ['DELETE', `/reports/${r.id}`, undefined],
      ['POST', `/reports/${r.id}/run`, undefined],
      ['POST', `/reports/${r.id}/schedule`, { time: '08:00' }],
      ['DELETE', `/reports/${r.id}/schedule`, undefined],
    ] as const) {
      const res = await call(v, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(body(res).error!.code).toBe('FORBIDDEN');
    }
    expect((await call(m, 'PUT', `/reports/${r.id}`, { name: 'by member' })).statusCode).toBe(200);
    expect((await call(m, 'POST', `/reports/${r.id}/run`)).statusCode).toBe(202);
    expect((await call(m, 'POST', `/reports/${r.id}/schedule`, { time: '08:00' })).statusCode).toBe(201);
  });

  it("another organization's ids answer 404 everywhere; test-mode credentials do not see live reports", async () => {
    const r = await create(owner, { name: 'Private', type: 'document_summary' });
    await call(owner, 'POST', `/reports/${r.id}/schedule`, { time: '06:00' });
    const exe = body(await call(owner, 'POST', `/reports/${r.id}/run`)).data;
    const testKey = (await createKey(t as unknown as TestApp, owner, { name: 'sandbox', environment: 'test' })).key;
    const liveKey = (await createKey(t as unknown as TestApp, owner, { name: 'live' })).key;
    const routes: [string, string, unknown?][] = [
      ['GET', `/reports/${r.id}`],
      ['PUT', `/reports/${r.id}`, { name: 'stolen' }],
      ['DELETE', `/reports/${r.id}`],
      ['POST', `/reports/${r.id}/run`],
      ['GET', `/reports/${r.id}/schedule`],
      ['POST', `/reports/${r.id}/schedule`, { time: '01:00' }],
      ['DELETE', `/reports/${r.id}/schedule`],
      ['GET', `/reports/${r.id}/executions`],
      ['GET', `/reports/${r.id}/executions/${exe.id}`],
      ['GET', `/reports/${r.id}/executions/${exe.id}/download?format=csv`],
    ];
    for (const who of [other.auth, bearer(testKey), { ...owner.auth, 'x-environment': 'test' }]) {
      for (const [method, url, payload] of routes) {
        const res = await call(who, method as 'GET', url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(body(res).error!.code).toBe('NOT_FOUND');
      }
      expect(body(await call(who, 'GET', '/reports')).data.map((x: any) => x.id)).not.toContain(r.id);
    }
    // An execution id under another report of the same organization is not found either.
    const sibling = await create(owner, { name: 'Sibling', type: 'usage' });
    expect((await call(owner, 'GET', `/reports/${sibling.id}/executions/${exe.id}`)).statusCode).toBe(404);
    // Nothing changed, and the live key sees it.
    const seen = body(await call(bearer(liveKey), 'GET', `/reports/${r.id}`)).data;
    expect(seen).toMatchObject({ name: 'Private', schedule: { time: '06:00' } });
    // Test mode has reports of its own.
    const t1 = await create(bearer(testKey), { name: 'Sandbox report', type: 'usage' });
    expect(body(await call(bearer(testKey), 'GET', '/reports')).data.map((x: any) => x.id)).toEqual([t1.id]);
    expect((await call(bearer(liveKey), 'GET', `/reports/${t1.id}`)).statusCode).toBe(404);
  });

  it('the routes are in the OpenAPI document with their schemas', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, any>>;
    };
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/reports'));
    expect(paths.sort()).toEqual([
      '/api/v1/reports',
      '/api/v1/reports/{id}',
      '/api/v1/reports/{id}/executions',
      '/api/v1/reports/{id}/executions/{executionId}',
      '/api/v1/reports/{id}/executions/{executionId}/download',
      '/api/v1/reports/{id}/run',
      '/api/v1/reports/{id}/schedule',
    ]);
    expect(Object.keys(doc.paths['/api/v1/reports/{id}/schedule']).sort()).toEqual(['delete', 'get', 'post']);
    const post = doc.paths['/api/v1/reports'].post;
    expect(post.requestBody.content['application/json'].schema.required).toEqual(['name', 'type']);
    expect(post.description).toContain('Requires the member role');
    expect(doc.paths['/api/v1/reports/{id}'].get.description).toContain('Requires the viewer role');
    const dl = doc.paths['/api/v1/reports/{id}/executions/{executionId}/download'].get;
    expect(dl.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['format', 'id', 'executionId']));
    expect(Object.keys(dl.responses['200'].content)).toEqual(expect.arrayContaining(['text/csv', 'application/json']));
  });
});
