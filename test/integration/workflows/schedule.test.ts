// Schedule triggers on the real BullMQ job scheduler, with the clock faked (Date only: Redis and
// the workers run for real): one run per tick at the local time of the trigger's IANA zone
// across both DST changes of a year, a tick handled twice still making one run, and schedulers
// re-asserted from the database after Redis lost them.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { createWorkflowTestApp, type WorkflowStack } from '../../helpers/workflows-harness.js';
import { schedulerId } from '../../../src/modules/workflows/jobs.js';

describe('schedule triggers', () => {
  let t: WorkflowStack;
  let owner: Actor;
  const api = (method: 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const queue = () => t.deps.queues.get('workflows');
  const runs = async (id: string) =>
    (
      await t.deps.db.query<{ trigger: { scheduled_for: string }; status: string }>(
        'SELECT trigger, status, error FROM workflow_runs WHERE workflow_id = $1 ORDER BY created_at, id',
        [id],
      )
    ).rows;
  const until = async <T>(fn: () => Promise<T | false>, what: string): Promise<T> => {
    // Counted passes, not a clock deadline: the clock is fake here.
    for (let i = 0; i < 600; i++) {
      const v = await fn();
      if (v) return v;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const scheduled = async (cron: string, timezone: string) => {
    const res = await api('POST', '/workflows', {
      name: `Every day ${cron} ${timezone}`,
      status: 'active',
      nodes: [
        { id: 'tick', type: 'trigger.schedule', config: { cron, timezone } },
        { id: 'mark', type: 'condition', config: { expression: 'true' } },
      ],
      edges: [{ source: 'tick', target: 'mark' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    return body(res).data.id as string;
  };
  /** Lets `n` ticks happen: jump the clock to each next tick and wake the worker. */
  const tick = async (id: string, n: number) => {
    const seen: number[] = [];
    for (let i = 0; i < n; i++) {
      const s = await queue().getJobScheduler(schedulerId(id));
      expect(s?.next).toBeTypeOf('number');
      seen.push(s!.next!);
      vi.setSystemTime(s!.next! + 1000);
      // A delayed job waits for the worker's next look; promoting it wakes the worker now.
      await queue().promoteJobs();
      await until(
        async () => (await runs(id)).filter((r) => r.status === 'completed').length === i + 1,
        `tick ${i + 1}`,
      );
    }
    return seen.map((ms) => new Date(ms).toISOString());
  };

  beforeAll(async () => {
    t = await createWorkflowTestApp({ workers: false });
    owner = await createActor(t as unknown as TestApp);
    await t.startWorkers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('spring forward: 02:30 Berlin does not exist on the change day; one run there, local 02:30 again after', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-03-27T12:00:00Z'), shouldAdvanceTime: true });
    const id = await scheduled('30 2 * * *', 'Europe/Berlin');
    const ticks = await tick(id, 3);
    // 02:30 CET = 01:30Z; on 29 March 02:30 is skipped and the tick comes an hour later local
    // time (03:30 CEST = 01:30Z); from the 30th, 02:30 CEST = 00:30Z.
    expect(ticks).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect((await runs(id)).map((r) => r.trigger.scheduled_for)).toEqual(ticks);
    await api('PUT', `/workflows/${id}`, { status: 'inactive' });
    expect(await queue().getJobScheduler(schedulerId(id))).toBeFalsy();
  });

  it('fall back: 02:30 Berlin happens twice on the change day; still one run that day', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-10-23T12:00:00Z'), shouldAdvanceTime: true });
    const id = await scheduled('30 2 * * *', 'Europe/Berlin');
    const ticks = await tick(id, 3);
    expect(ticks[0]).toBe('2026-10-24T00:30:00.000Z');
    // 25 October: one of the two 02:30s (CEST 00:30Z or CET 01:30Z), never both.
    expect(['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z']).toContain(ticks[1]);
    expect(ticks[2]).toBe('2026-10-26T01:30:00.000Z');
    expect(await runs(id)).toHaveLength(3);
    await api('PUT', `/workflows/${id}`, { status: 'inactive' });
  });

  it('a tick handled twice makes one run; schedulers lost with Redis data come back from the database', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-06-01T08:00:00Z'), shouldAdvanceTime: true });
    const id = await scheduled('0 9 * * 1-5', 'America/New_York');
    const s = await queue().getJobScheduler(schedulerId(id));
    expect(new Date(s!.next!).toISOString()).toBe('2026-06-01T13:00:00.000Z');
    const job = {
      id: `repeat:${schedulerId(id)}:${s!.next}`,
      timestamp: Date.now(),
      delay: 0,
      data: { kind: 'tick' as const, workflowId: id },
    };
    const [a, b] = await Promise.all([t.deps.workflows.schedules.tick(job), t.deps.workflows.schedules.tick(job)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    await until(async () => (await runs(id)).length === 1, 'one run');

    // Redis loses the scheduler (a restart without persistence): re-assertion puts it back, and
    // removes the scheduler of a workflow that is no longer active.
    await queue().removeJobScheduler(schedulerId(id));
    const stale = 'wf_gone';
    await t.deps.workflows.schedules.upsert(stale, { cron: '0 * * * *' });
    expect(await t.deps.workflows.schedules.reassert()).toMatchObject({ removed: 1 });
    const back = await queue().getJobScheduler(schedulerId(id));
    expect(back).toMatchObject({ pattern: '0 0 9 * * 1-5', tz: 'America/New_York' });
    expect(await queue().getJobScheduler(schedulerId(stale))).toBeFalsy();
  });
});
