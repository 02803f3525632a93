// Document triggers: which events start which active workflows (event types, project, source,
// classification type and confidence filters), one run per (event, workflow) however often and
// by however many relays an event is relayed, and no loops when a step changes the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { dbKinds, type DbKind } from '../../helpers/db.js';
import { createProject } from '../../helpers/pipeline.js';
import { eventually, insertExtractedDocuments } from '../../helpers/sheets-harness.js';
import { createWorkflowTestApp, type WorkflowStack } from '../../helpers/workflows-harness.js';
import { documentEventData } from '../../../src/modules/documents/document-event.js';
import type { DocumentRow } from '../../../src/modules/documents/documents.types.js';
import { insertEvent } from '../../../src/modules/events/events.repository.js';
import { relayBatch } from '../../../src/modules/events/relay.js';
import { matchesFilters } from '../../../src/modules/workflows/fanout.js';

describe.each(dbKinds())('document triggers (%s)', (kind: DbKind) => {
  let t: WorkflowStack;
  let owner: Actor;
  let projectA: string;
  let projectB: string;
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const docRow = async (id: string) =>
    (await t.deps.db.query<DocumentRow>('SELECT * FROM documents WHERE id = $1', [id])).rows[0];
  const emit = async (
    type: 'document.extracted' | 'document.classified' | 'document.uploaded',
    id: string,
    extra: Record<string, unknown> = {},
  ) => {
    const d = await docRow(id);
    return t.deps.db.tx((q) =>
      insertEvent(q, { orgId: d.org_id, environment: d.environment, type, data: documentEventData(d, extra) }),
    );
  };
  const runsOf = async (workflowId: string) =>
    (
      await t.deps.db.query<{ id: string; document_id: string; trigger: any; chain: string[]; status: string }>(
        'SELECT id, document_id, trigger, chain, status FROM workflow_runs WHERE workflow_id = $1 ORDER BY created_at, id',
        [workflowId],
      )
    ).rows;
  const workflow = async (
    name: string,
    trigger: Record<string, unknown>,
    status = 'active',
    then: Record<string, unknown>[] = [],
  ) => {
    const nodes = [
      { id: 'on', type: 'trigger.document', config: trigger },
      ...then.map((n, i) => ({ id: `n${i}`, ...n })),
    ];
    const edges = then.map((_, i) => ({ source: i === 0 ? 'on' : `n${i - 1}`, target: `n${i}` }));
    const res = await api('POST', '/workflows', { name, nodes, edges, status });
    expect(res.statusCode, res.body).toBe(201);
    return body(res).data.id as string;
  };

  beforeAll(async () => {
    // Workers off: the tests relay by hand, so they know exactly when fan-out happens.
    t = await createWorkflowTestApp({ kind, workers: false });
    owner = await createActor(t as unknown as TestApp);
    projectA = await createProject(t as unknown as TestApp, owner);
    projectB = await createProject(t as unknown as TestApp, owner);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('filters by event type, project, source, classification type and confidence; only active workflows fire', async () => {
    const filters = {
      project_ids: [projectA],
      sources: ['upload'],
      classification_types: ['invoice'],
      min_confidence: 0.8,
      max_confidence: 0.99,
    };
    const w = await workflow('Invoices of A', { events: ['document.extracted'], filters });
    const draft = await workflow('Draft twin', { events: ['document.extracted'], filters }, 'draft');
    const any = await workflow('Every upload', { events: ['document.uploaded'] });
    const [good, lowConf] = await insertExtractedDocuments(
      t.deps.db,
      { orgId: owner.orgId, projectId: projectA },
      2,
      (i) => ({
        classification: { type: 'invoice', confidence: i === 0 ? 0.93 : 0.5, method: 'model' },
      }),
    );
    const [receipt] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: projectA }, 1, () => ({
      classification: { type: 'receipt', confidence: 0.95, method: 'model' },
    }));
    const [elsewhere] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: projectB }, 1);
    const [mailed] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: projectA }, 1);
    await t.deps.db.query(`UPDATE documents SET source = 'email' WHERE id = $1`, [mailed.id]);
    const hit = await emit('document.extracted', good.id);
    for (const d of [lowConf, receipt, elsewhere, mailed]) await emit('document.extracted', d.id);
    await emit('document.classified', good.id);
    await emit('document.uploaded', receipt.id);
    while ((await t.deps.events.relay.runOnce()) > 0) {
      /* drain */
    }
    const runs = await runsOf(w);
    expect(runs.map((r) => r.document_id)).toEqual([good.id]);
    expect(runs[0].trigger).toEqual({ type: 'document', event_id: hit, event_type: 'document.extracted' });
    expect(await runsOf(draft)).toEqual([]);
    expect((await runsOf(any)).map((r) => r.document_id)).toEqual([receipt.id]);
    // The run's job was queued after the relay committed.
    expect(await t.deps.queues.get('workflows').getJob(`wfrun-${runs[0].id}`)).toBeTruthy();
  });

  it('one run per (event, workflow), with concurrent relays and events relayed again', async () => {
    const w1 = await workflow('Fan 1', { events: ['document.uploaded'], filters: { project_ids: [projectB] } });
    const w2 = await workflow('Fan 2', { events: ['document.uploaded'], filters: { project_ids: [projectB] } });
    const docs = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: projectB }, 30);
    const eventIds: string[] = [];
    for (const d of docs) eventIds.push(await emit('document.uploaded', d.id));
    // Three relays at once, small batches (on PostgreSQL they really interleave; PGlite serialises them).
    const relay = async () => {
      while ((await relayBatch(t.deps.db, [t.deps.workflows.fanOut], { batchSize: 7 })) > 0) {
        /* drain */
      }
    };
    await Promise.all([relay(), relay(), relay()]);
    // A relay that crashed after its commit is re-run: the events come round again.
    await t.deps.db.query(`UPDATE events SET relayed_at = NULL WHERE id = ANY($1::text[])`, [eventIds]);
    await relay();
    for (const w of [w1, w2]) {
      const runs = await runsOf(w);
      expect(runs).toHaveLength(30);
      expect(new Set(runs.map((r) => r.document_id)).size).toBe(30);
    }
  });

  it('a step that changes the document does not start its own workflow again', async () => {
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: projectA }, 1);
    await t.deps.db.query(`UPDATE documents SET text_content = $2 WHERE id = $1`, [
      doc.id,
      'ACME Ltd Invoice No 42 Total 100.00 EUR VAT 19% due 2024-04-01',
    ]);
    const filters = { project_ids: [projectA] };
    const w1 = await workflow('Reclassify 1', { events: ['document.classified'], filters }, 'active', [
      { type: 'classify', config: {} },
    ]);
    const w2 = await workflow('Reclassify 2', { events: ['document.classified'], filters }, 'active', [
      { type: 'classify', config: {} },
    ]);
    await emit('document.classified', doc.id);
    await t.startWorkers();
    try {
      // Each classify step emits document.classified carrying its chain: W1's event starts W2 (not
      // W1), W2's starts W1; the events of those runs carry both ids and start nothing.
      await eventually(
        async () => {
          const all = [...(await runsOf(w1)), ...(await runsOf(w2))];
          return all.length === 4 && all.every((r) => r.status === 'completed') && all;
        },
        'four completed runs',
        30_000,
      );
      await new Promise((r) => setTimeout(r, 1500));
      const r1 = await runsOf(w1);
      const r2 = await runsOf(w2);
      expect(r1.map((r) => r.chain)).toEqual([[], [w2]]);
      expect(r2.map((r) => r.chain)).toEqual([[], [w1]]);
      const { rows } = await t.deps.db.query<{ data: any }>(
        `SELECT data FROM events WHERE type = 'document.classified' AND data->>'documentId' = $1 ORDER BY created_at, id`,
        [doc.id],
      );
      expect(rows.map((e) => e.data.workflowChain ?? [])).toEqual(
        expect.arrayContaining([[w1], [w2], [w1, w2], [w2, w1]]),
      );
      expect(rows).toHaveLength(5);
    } finally {
      await t.stopWorkers();
    }
  });

  it('matches filters as documented', () => {
    const data = { projectId: 'p', source: 'email', classification: { type: 'invoice', confidence: 0.7 } };
    expect(matchesFilters(undefined, data)).toBe(true);
    expect(matchesFilters({ min_confidence: 0.7, max_confidence: 0.7 }, data)).toBe(true);
    expect(matchesFilters({ min_confidence: 0.71 }, data)).toBe(false);
    expect(matchesFilters({ classification_types: ['invoice'] }, { ...data, classification: null })).toBe(false);
    expect(matchesFilters({ sources: ['email', 'api'], project_ids: ['p'] }, data)).toBe(true);
  });
});
