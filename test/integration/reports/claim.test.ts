// One execution per period when claims race: on PGlite and (with TEST_DATABASE_URL) PostgreSQL,
// where a second container with its own connection pool stands in for a second process. The
// claims are made at once for the same due occurrence, again after it was claimed, and after the
// schedule's state was wound back (the run key still refuses a second execution).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDeps, type Deps } from '../../../src/container.js';
import { createDb } from '../../../src/db/client.js';
import { createLogger } from '../../../src/lib/logger.js';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { databaseUrl, dbKinds } from '../../helpers/db.js';
import { createReportsStack, type ReportsStack } from '../../helpers/reports-harness.js';

describe.each(dbKinds())('racing schedule claims on %s', (kind) => {
  let t: ReportsStack;
  let other: Deps;
  let owner: Actor;

  beforeAll(async () => {
    t = await createReportsStack({ kind, workers: false });
    owner = await createActor(t as unknown as TestApp);
    if (kind === 'postgres') {
      const schema = (await t.testDb.db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
      const db = await createDb({ url: databaseUrl()!, schema, poolSize: 5 });
      other = await createDeps(t.config, {
        db,
        redisUrl: inject('redisUrl'),
        logger: createLogger({ level: 'silent', pretty: false }),
        migrate: false,
      });
    }
  });
  afterAll(async () => {
    if (other) {
      await other.close();
      await other.db.close();
    }
    await t?.close();
  });

  it('twelve claims of one due occurrence make one execution; later claims make none', async () => {
    const api = (url: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: owner.auth, payload: payload as object });
    const id = body(await api('/reports', { name: 'Race', type: 'usage' })).data.id;
    const s = body(await api(`/reports/${id}/schedule`, { time: '04:00', timezone: 'Europe/Berlin' })).data;
    const due = Date.parse(s.next_run_at) + 1000;
    const claimers = [t.deps, other ?? t.deps];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => claimers[i % 2].reports.schedules.claim(id, due)),
    );
    expect(results.filter((r) => r?.executionId)).toHaveLength(1);
    expect(results.filter((r) => r?.due)).toHaveLength(1);
    // Claimed: the next occurrence is a day later, and nothing is due now.
    expect(results.every((r) => r!.nextRunAt.getTime() === Date.parse(s.next_run_at) + 86_400_000)).toBe(true);
    expect(await t.deps.reports.schedules.claim(id, due + 60_000)).toMatchObject({ due: false, executionId: null });
    await t.testDb.db.query('UPDATE report_schedules SET next_run_at = $2 WHERE report_id = $1', [id, s.next_run_at]);
    const again = await Promise.all(claimers.map((c) => c.reports.schedules.claim(id, due)));
    expect(again.filter((r) => r?.executionId)).toHaveLength(0);
    const { rows } = await t.testDb.db.query<{ run_key: string; trigger: string; status: string }>(
      'SELECT run_key, trigger, status FROM report_executions WHERE report_id = $1',
      [id],
    );
    const local = new Date(Date.parse(s.next_run_at)).toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
    expect(rows).toEqual([{ run_key: `schedule:${local}`, trigger: 'schedule', status: 'queued' }]);
  });
});
