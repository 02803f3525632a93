import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsageCounter } from '../../../src/modules/api-keys/usage-counter.js';
import { bearer, createActor, createKey, createTestApp, type TestApp } from '../../helpers/app.js';

describe('API request counter', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts authenticated requests per key, environment and UTC day, sessions under the empty key', async () => {
    const a = await createActor(t);
    const b = await createActor(t);
    const live = await createKey(t, a, { name: 'live' });
    const test = await createKey(t, a, { name: 'test', environment: 'test' });
    await t.deps.usage.flush();
    await t.deps.db.query('DELETE FROM api_usage_daily');
    for (let i = 0; i < 3; i++)
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: bearer(live.key) })).statusCode,
      ).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: bearer(test.key) });
    await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: a.auth });
    await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: b.auth });
    // not authenticated: not counted
    await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: bearer('svc_live_nope') });
    await t.deps.usage.flush();
    await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: bearer(live.key) });
    await t.deps.usage.flush();
    const { rows } = await t.deps.db.query<{
      org_id: string;
      environment: string;
      key_id: string;
      requests: number;
      day: string;
    }>(
      `SELECT org_id, environment, key_id, requests, to_char(day, 'YYYY-MM-DD') AS day FROM api_usage_daily ORDER BY org_id, environment, key_id`,
    );
    const today = new Date().toISOString().slice(0, 10);
    const sort = <T extends { org_id: string; environment: string; key_id: string }>(xs: T[]) =>
      [...xs].sort((x, y) =>
        `${x.org_id}|${x.environment}|${x.key_id}`.localeCompare(`${y.org_id}|${y.environment}|${y.key_id}`),
      );
    expect(rows).toEqual(
      sort([
        { org_id: a.orgId, environment: 'live', key_id: '', requests: 1, day: today },
        { org_id: a.orgId, environment: 'live', key_id: live.id, requests: 4, day: today },
        { org_id: a.orgId, environment: 'test', key_id: test.id, requests: 1, day: today },
        { org_id: b.orgId, environment: 'live', key_id: '', requests: 1, day: today },
      ]),
    );
  });

  it('keeps counts across a failed flush and splits days at UTC midnight', async () => {
    const a = await createActor(t);
    let now = Date.parse('2026-03-01T23:59:59Z');
    let failNext = true;
    const flaky = {
      query: (sql: string, params?: unknown[]) => {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('database down'));
        }
        return t.deps.db.query(sql, params);
      },
    } as never;
    const errors: unknown[] = [];
    const counter = createUsageCounter(flaky, { now: () => now, onError: (e) => errors.push(e) });
    counter.count({ orgId: a.orgId, environment: 'live' });
    await counter.flush();
    expect(errors).toHaveLength(1);
    now += 2000;
    counter.count({ orgId: a.orgId, environment: 'live' });
    counter.count({ orgId: a.orgId, environment: 'live' });
    // an organization deleted meanwhile is skipped, not a reason to fail the others
    counter.count({ orgId: 'org_deleted', environment: 'live' });
    await counter.stop();
    expect(errors).toHaveLength(1);
    const { rows } = await t.deps.db.query<{ day: string; requests: number }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, requests FROM api_usage_daily WHERE org_id = $1 ORDER BY day`,
      [a.orgId],
    );
    expect(rows).toEqual([
      { day: '2026-03-01', requests: 1 },
      { day: '2026-03-02', requests: 2 },
    ]);
  });
});
