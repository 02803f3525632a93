// Report schedules on the real BullMQ job scheduler with the clock faked (Date only: Redis and the
// workers run for real): one execution per local date across both DST changes in Europe/Berlin
// and America/New_York (and a midnight that does not exist in America/Santiago), monthly day 31 falling back to the last day of February (28 and 29),
// exactly one execution per period with two worker sets and concurrent or repeated ticks, a
// stretch of missed ticks run once when a worker returns, and schedulers lost with Redis data
// re-asserted from the database while the sweep claims the tick that never came.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { createReportsStack, until, type ReportsStack } from '../../helpers/reports-harness.js';
import { schedulerId } from '../../../src/modules/reports/jobs.js';

interface Exe {
  run_key: string;
  scheduled_for: Date;
  period_from: Date;
  period_to: Date;
  status: string;
}

describe('report schedules', () => {
  let t: ReportsStack;
  let owner: Actor;
  const api = (method: 'POST' | 'GET', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const queue = () => t.deps.queues.get('reports');
  const executions = async (id: string) =>
    (
      await t.testDb.db.query<Exe>(
        'SELECT run_key, scheduled_for, period_from, period_to, status FROM report_executions WHERE report_id = $1 ORDER BY scheduled_for, id',
        [id],
      )
    ).rows;
  const iso = (d: Date) => d.toISOString();
  const scheduled = async (schedule: Record<string, unknown>) => {
    const r = await api('POST', '/reports', { name: `Scheduled ${JSON.stringify(schedule)}`, type: 'usage' });
    const id = body(r).data.id as string;
    const s = await api('POST', `/reports/${id}/schedule`, schedule);
    expect(s.statusCode, s.body).toBe(201);
    return { id, schedule: body(s).data };
  };
  /** Every job on the queue has been handled and every execution has finished. */
  const settled = (id: string) =>
    until(async () => {
      const c = await queue().getJobCounts('active', 'waiting', 'prioritized');
      if (c.active + c.waiting + c.prioritized > 0) return false;
      return (await executions(id)).every((e) => e.status === 'completed');
    }, 'the queue to settle');
  /** Jumps the clock to the scheduler's next tick and lets the worker handle it. */
  const step = async (id: string) => {
    const s = await queue().getJobScheduler(schedulerId(id));
    expect(s?.next).toBeTypeOf('number');
    vi.setSystemTime(s!.next! + 1000);
    await queue().promoteJobs();
    await until(
      async () => ((await queue().getJobScheduler(schedulerId(id)))?.next ?? 0) > s!.next!,
      'the next tick to be scheduled',
    );
    await settled(id);
    return s!.next!;
  };
  /** Steps until `n` executions exist (at most `maxSteps` ticks). */
  const stepUntil = async (id: string, n: number, maxSteps: number) => {
    for (let i = 0; i < maxSteps && (await executions(id)).length < n; i++) await step(id);
    return executions(id);
  };

  beforeAll(async () => {
    t = await createReportsStack();
    owner = await createActor(t as unknown as TestApp);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('Europe/Berlin 02:30 daily: once on the spring-forward day (03:30 local), then 02:30 CEST; the period is the day before', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-03-27T12:00:00Z'), shouldAdvanceTime: true });
    const { id, schedule } = await scheduled({ time: '02:30', timezone: 'Europe/Berlin' });
    expect(schedule).toMatchObject({
      next_run_at: '2026-03-28T01:30:00.000Z',
      next_run_at_local: '2026-03-28T02:30:00+01:00',
    });
    const ex = await stepUntil(id, 3, 4);
    expect(ex.map((e) => [e.run_key, iso(e.scheduled_for)])).toEqual([
      ['schedule:2026-03-28', '2026-03-28T01:30:00.000Z'],
      ['schedule:2026-03-29', '2026-03-29T01:30:00.000Z'],
      ['schedule:2026-03-30', '2026-03-30T00:30:00.000Z'],
    ]);
    // Each run covers the span since the previous occurrence: 24 h, then the 23-hour day.
    expect(ex.map((e) => (e.period_to.getTime() - e.period_from.getTime()) / 3_600_000)).toEqual([24, 24, 23]);
    expect(body(await api('GET', `/reports/${id}/schedule`)).data).toMatchObject({
      next_run_at: '2026-03-31T00:30:00.000Z',
      next_run_at_local: '2026-03-31T02:30:00+02:00',
      last_run_at: '2026-03-30T00:30:00.000Z',
    });
  });

  it('Europe/Berlin 02:30 daily: once on the fall-back day, though 02:30 happens twice', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-10-23T12:00:00Z'), shouldAdvanceTime: true });
    const { id } = await scheduled({ time: '02:30', timezone: 'Europe/Berlin' });
    const ex = await stepUntil(id, 3, 5);
    expect(ex.map((e) => e.run_key)).toEqual(['schedule:2026-10-24', 'schedule:2026-10-25', 'schedule:2026-10-26']);
    expect(ex.map((e) => iso(e.scheduled_for))).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
    expect(ex.map((e) => (e.period_to.getTime() - e.period_from.getTime()) / 3_600_000)).toEqual([24, 24, 25]);
  });

  it('America/New_York: 02:30 on the spring-forward day runs once (03:30 EDT); 01:30 on the fall-back day runs once', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-03-06T20:00:00Z'), shouldAdvanceTime: true });
    const spring = await scheduled({ time: '02:30', timezone: 'America/New_York' });
    const ex = await stepUntil(spring.id, 3, 4);
    expect(ex.map((e) => [e.run_key, iso(e.scheduled_for)])).toEqual([
      ['schedule:2026-03-07', '2026-03-07T07:30:00.000Z'],
      ['schedule:2026-03-08', '2026-03-08T07:30:00.000Z'],
      ['schedule:2026-03-09', '2026-03-09T06:30:00.000Z'],
    ]);
    vi.setSystemTime(Date.parse('2026-10-30T20:00:00Z'));
    const fall = await scheduled({
      time: '01:30',
      timezone: 'America/New_York',
      frequency: 'weekly',
      day_of_week: 'sunday',
    });
    expect(fall.schedule.next_run_at).toBe('2026-11-01T05:30:00.000Z');
    const ex2 = await stepUntil(fall.id, 2, 4);
    expect(ex2.map((e) => [e.run_key, iso(e.scheduled_for)])).toEqual([
      ['schedule:2026-11-01', '2026-11-01T05:30:00.000Z'],
      ['schedule:2026-11-08', '2026-11-08T06:30:00.000Z'],
    ]);
  });

  it('America/Santiago 00:00 daily: the day whose midnight does not exist (cron skips it) still runs once, at 01:00', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-09-04T12:00:00Z'), shouldAdvanceTime: true });
    const { id } = await scheduled({ time: '00:00', timezone: 'America/Santiago' });
    /** Jumps the clock to the earliest delayed job (a scheduler tick or a follow-up) and runs what is due then. */
    const stepEarliest = async () => {
      const delayed = (await queue().getDelayed()).filter((j) => j.id?.includes(id));
      const dueAt = (j: { timestamp: number; delay: number }) => j.timestamp + j.delay;
      const at = Math.min(...delayed.map(dueAt));
      vi.setSystemTime(at + 1000);
      // (A job the worker already found due is not delayed any more.)
      for (const j of delayed) if (dueAt(j) <= at) await j.promote().catch(() => undefined);
      await settled(id);
    };
    for (let i = 0; i < 8 && (await executions(id)).length < 3; i++) await stepEarliest();
    expect((await executions(id)).map((e) => [e.run_key, iso(e.scheduled_for)])).toEqual([
      ['schedule:2026-09-05', '2026-09-05T04:00:00.000Z'],
      ['schedule:2026-09-06', '2026-09-06T04:00:00.000Z'],
      ['schedule:2026-09-07', '2026-09-07T03:00:00.000Z'],
    ]);
  });

  it('monthly on the 31st runs on 31 January, 28 February, 31 March, and 29 February in a leap year', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2027-01-20T12:00:00Z'), shouldAdvanceTime: true });
    const { id } = await scheduled({
      time: '09:00',
      timezone: 'Europe/Berlin',
      frequency: 'monthly',
      day_of_month: 31,
    });
    const ex = await stepUntil(id, 3, 12);
    expect(ex.map((e) => [e.run_key, iso(e.scheduled_for)])).toEqual([
      ['schedule:2027-01-31', '2027-01-31T08:00:00.000Z'],
      ['schedule:2027-02-28', '2027-02-28T08:00:00.000Z'],
      ['schedule:2027-03-31', '2027-03-31T07:00:00.000Z'],
    ]);
    vi.setSystemTime(Date.parse('2028-02-10T12:00:00Z'));
    const leap = await scheduled({ time: '09:00', timezone: 'Europe/Berlin', frequency: 'monthly', day_of_month: 30 });
    expect(leap.schedule.next_run_at_local).toBe('2028-02-29T09:00:00+01:00');
    const ex2 = await stepUntil(leap.id, 1, 4);
    expect(ex2.map((e) => e.run_key)).toEqual(['schedule:2028-02-29']);
  });

  it('exactly one execution per period with two worker sets, concurrent ticks and a tick handled again after a restart', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-06-01T05:00:00Z'), shouldAdvanceTime: true });
    const second = await t.startWorkers();
    try {
      const { id } = await scheduled({ time: '06:00' });
      const ex = await stepUntil(id, 3, 3);
      expect(ex.map((e) => e.run_key)).toEqual(['schedule:2026-06-01', 'schedule:2026-06-02', 'schedule:2026-06-03']);
      // The next tick claimed by both "processes" at once, and several times over.
      vi.setSystemTime(Date.parse('2026-06-04T06:00:01Z'));
      const claims = await Promise.all(
        [1, 2, 3, 4].map(() => t.deps.reports.schedules.tick({ data: { kind: 'tick', reportId: id } })),
      );
      expect(claims.filter((c) => c?.executionId)).toHaveLength(1);
      await settled(id);
      // After a restart the same tick comes again (a job retried, a scheduler re-asserted): nothing new.
      await t.stopWorkers();
      await t.startWorkers();
      await t.deps.reports.schedules.tick({ data: { kind: 'tick', reportId: id } });
      // Even with the schedule's state wound back, the period's run key stops a second run.
      await t.testDb.db.query(`UPDATE report_schedules SET next_run_at = '2026-06-04T06:00:00Z' WHERE report_id = $1`, [
        id,
      ]);
      expect(await t.deps.reports.schedules.claim(id)).toMatchObject({ due: true, executionId: null });
      await settled(id);
      expect((await executions(id)).map((e) => e.run_key)).toEqual([
        'schedule:2026-06-01',
        'schedule:2026-06-02',
        'schedule:2026-06-03',
        'schedule:2026-06-04',
      ]);
    } finally {
      await second.close(2000);
    }
  });

  it('ticks missed while every worker was down run once when one returns, for the latest period', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-07-01T05:00:00Z'), shouldAdvanceTime: true });
    const { id } = await scheduled({ time: '06:00', timezone: 'UTC' });
    await stepUntil(id, 1, 1);
    await t.stopWorkers();
    // Down for three and a half days: the ticks of 2, 3 and 4 July pass without a worker.
    vi.setSystemTime(Date.parse('2026-07-05T01:00:00Z'));
    await t.startWorkers();
    await queue().promoteJobs();
    await until(async () => (await executions(id)).length >= 2, 'the catch-up run');
    await settled(id);
    const ex = await executions(id);
    expect(ex.map((e) => e.run_key)).toEqual(['schedule:2026-07-01', 'schedule:2026-07-04']);
    expect(body(await api('GET', `/reports/${id}/schedule`)).data.next_run_at).toBe('2026-07-05T06:00:00.000Z');
    expect((await queue().getJobScheduler(schedulerId(id)))?.next).toBe(Date.parse('2026-07-05T06:00:00Z'));
  });

  it('schedulers lost with Redis data are re-asserted from the database; the sweep runs the tick that never came, once', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-08-01T05:00:00Z'), shouldAdvanceTime: true });
    const { id } = await scheduled({
      time: '07:45',
      timezone: 'Asia/Kolkata',
      frequency: 'weekly',
      day_of_week: 'saturday',
    });
    await queue().removeJobScheduler(schedulerId(id));
    await queue().drain(true);
    await t.deps.reports.schedules.upsert('rpt_gone', { frequency: 'daily', time: '01:00', timezone: 'UTC' });
    // (Follow-ups are added for occurrences within a day.)
    vi.setSystemTime(Date.parse('2026-08-07T12:00:00Z'));
    expect(await t.deps.reports.schedules.reassert()).toMatchObject({ removed: 1 });
    expect(await queue().getJobScheduler(schedulerId(id))).toMatchObject({
      pattern: '0 45 7 * * 6',
      tz: 'Asia/Kolkata',
    });
    expect(await queue().getJobScheduler(schedulerId('rpt_gone'))).toBeFalsy();
    // Re-assertion also put back the follow-up for the next occurrence.
    expect((await queue().getDelayed()).map((j) => j.id)).toContain(
      `rpttick-${id}-${Date.parse('2026-08-08T02:15:00Z')}`,
    );

    // Redis loses everything again and nothing re-asserts before the tick: the sweep claims it.
    await queue().drain(true);
    // (The other tests' schedules are overdue at this clock too; only this one is counted.)
    await t.testDb.db.query('DELETE FROM report_schedules WHERE report_id <> $1', [id]);
    await queue().removeJobScheduler(schedulerId(id));
    vi.setSystemTime(Date.parse('2026-08-08T03:00:00Z'));
    const first = await t.deps.reports.sweep();
    const second = await t.deps.reports.sweep();
    expect([first.ticks, second.ticks]).toEqual([1, 0]);
    await settled(id);
    expect((await executions(id)).map((e) => [e.run_key, iso(e.scheduled_for)])).toEqual([
      ['schedule:2026-08-08', '2026-08-08T02:15:00.000Z'],
    ]);
  });
});
