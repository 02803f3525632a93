// GET /documents/activity (the overview's numbers) and the confidence filters of GET /documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import {
  call,
  dataOf,
  expectError,
  foundationApp,
  insertDocument,
  makeProject,
  quickActor,
  type QuickActor,
} from '../foundation/support.js';

describe.each(dbKinds())('documents activity (%s)', (kind) => {
  let t: TestApp;
  let owner: QuickActor;
  let stranger: QuickActor;
  let projectId: string;
  let otherProjectId: string;
  let strangerProject: string;
  const today = new Date();
  const day = (offset: number, hourUtc: number) => {
    const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - offset, hourUtc, 30));
    return d;
  };
  const iso = (d: Date, tz: string) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);

  const add = async (o: {
    project?: string;
    org?: string;
    env?: 'live' | 'test';
    status?: string;
    type?: string;
    source?: string;
    at: Date;
    confidence?: number;
    error?: object;
    current?: string;
  }) => {
    const id = await insertDocument(t, {
      orgId: o.org ?? owner.orgId,
      projectId: o.project ?? projectId,
      environment: o.env,
      status: o.status ?? 'completed',
      classification: o.type,
    });
    await t.testDb.db.query(
      `UPDATE documents SET created_at = $2, source = $3, error = $4, pipeline = $5,
         classification = CASE WHEN classification IS NULL THEN NULL ELSE jsonb_set(classification, '{confidence}', to_jsonb($6::float8)) END WHERE id = $1`,
      [
        id,
        o.at,
        o.source ?? 'upload',
        o.error ? JSON.stringify(o.error) : null,
        JSON.stringify(o.current ? { current: o.current, stages: ['parse', 'embed', 'classify', 'extract'] } : {}),
        o.confidence ?? 0.9,
      ],
    );
    return id;
  };

  beforeAll(async () => {
    t = await foundationApp(kind);
    owner = await quickActor(t);
    stranger = await quickActor(t);
    projectId = (await makeProject(t.app, owner.auth, { name: 'A' })).id;
    otherProjectId = (await makeProject(t.app, owner.auth, { name: 'B' })).id;
    strangerProject = (await makeProject(t.app, stranger.auth, { name: 'S' })).id;
    await add({ at: day(0, 10), type: 'invoice', confidence: 0.95 });
    await add({ at: day(0, 11), type: 'receipt', source: 'email', status: 'needs_review', confidence: 0.4 });
    await add({ at: day(2, 9), type: 'invoice', project: otherProjectId, confidence: 0.7 });
    // 23:30 UTC is already the next day in Europe/Berlin.
    await add({ at: day(3, 23), status: 'failed', error: { stage: 'parse', code: 'CORRUPT', message: 'x' } });
    await add({ at: day(1, 8), status: 'processing', current: 'embed' });
    await add({ at: day(40, 8), type: 'invoice' });
    await add({ at: day(0, 9), env: 'test', type: 'contract' });
    await add({ at: day(0, 9), org: stranger.orgId, project: strangerProject, type: 'letter' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts per day by status, type and source, only in the window and only the caller's own live documents", async () => {
    const a = dataOf(await call(t.app, { url: '/documents/activity?days=7', headers: owner.auth }));
    expect(a.series).toHaveLength(7);
    expect(a.series[6].date).toBe(iso(today, 'UTC'));
    expect(a.totals.total).toBe(5);
    expect(a.totals.by_type).toEqual({ invoice: 2, receipt: 1, unclassified: 2 });
    expect(a.totals.by_source).toEqual({ upload: 4, email: 1 });
    expect(a.totals.by_status).toEqual({ completed: 2, needs_review: 1, failed: 1, processing: 1 });
    const todays = a.series[6];
    expect(todays.total).toBe(2);
    expect(todays.by_status).toEqual({ completed: 1, needs_review: 1 });
    expect(a.series.find((d: { date: string }) => d.date === iso(day(3, 23), 'UTC')).by_status).toEqual({ failed: 1 });
    expect(a.stages.parse).toEqual({ in_progress: 0, failed: 1 });
    expect(a.stages.embed).toEqual({ in_progress: 1, failed: 0 });
  });

  it('cuts days in the given time zone', async () => {
    const a = dataOf(await call(t.app, { url: '/documents/activity?days=7&tz=Europe/Berlin', headers: owner.auth }));
    const failedDay = iso(day(3, 23), 'Europe/Berlin');
    expect(failedDay).not.toBe(iso(day(3, 23), 'UTC'));
    expect(a.series.find((d: { date: string }) => d.date === failedDay).by_status.failed).toBe(1);
    const err = expectError(
      await call(t.app, { url: '/documents/activity?tz=Mars/Olympus', headers: owner.auth }),
      400,
      'VALIDATION_ERROR',
    );
    expect(err.details?.[0].field).toBe('tz');
  });

  it("test mode and projects narrow it; another organization's project is a 404", async () => {
    const testMode = dataOf(
      await call(t.app, { url: '/documents/activity?days=3', headers: { ...owner.auth, 'x-environment': 'test' } }),
    );
    expect(testMode.totals).toMatchObject({ total: 1, by_type: { contract: 1 } });
    const b = dataOf(
      await call(t.app, { url: `/documents/activity?days=7&project_id=${otherProjectId}`, headers: owner.auth }),
    );
    expect(b.totals.total).toBe(1);
    expect(b.stages.parse.failed).toBe(0);
    expectError(
      await call(t.app, { url: `/documents/activity?project_id=${strangerProject}`, headers: owner.auth }),
      404,
      'NOT_FOUND',
    );
    expect(dataOf(await call(t.app, { url: '/documents/activity', headers: stranger.auth })).totals.by_type).toEqual({
      letter: 1,
    });
  });

  it('GET /documents filters by classification confidence', async () => {
    const names = async (q: string) =>
      (
        dataOf(await call(t.app, { url: `/documents?${q}`, headers: owner.auth })) as {
          classification: { confidence: number };
        }[]
      )
        .map((d) => d.classification.confidence)
        .sort();
    expect(await names('max_confidence=0.6')).toEqual([0.4]);
    expect(await names('min_confidence=0.6&max_confidence=0.85')).toEqual([0.7]);
    expect(await names('min_confidence=0.85')).toEqual([0.9, 0.95]);
    expectError(
      await call(t.app, { url: '/documents?min_confidence=2', headers: owner.auth }),
      400,
      'VALIDATION_ERROR',
    );
  });
});
