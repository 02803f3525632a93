// The outbox relay is the `events` worker role of its own: a process started with only the
// `workflows` and `events` roles starts the workflows a document event triggers, the webhooks
// role delivers what the relay fans out, and a document that fails in the pipeline is announced
// as document.failed to the subscriptions and workflow triggers that ask for it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { dbKinds, type DbKind } from '../../helpers/db.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { eventually } from '../../helpers/sheets-harness.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { createWorkflowTestApp, type WorkflowStack } from '../../helpers/workflows-harness.js';
import { startWorkers, WORKER_ROLES, type WorkerHandle } from '../../../workers/index.js';

describe.each(dbKinds())('the events worker role (%s)', (kind: DbKind) => {
  let t: WorkflowStack;
  let owner: Actor;
  let projectId: string;
  let workers: WorkerHandle | null = null;
  const sinks: WebhookSink[] = [];
  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const roles = async (queues: string[]) => {
    workers = await startWorkers(t.deps, { queues, concurrency: 1, schedulers: false, webhooks: { concurrency: 4 } });
  };
  const workflow = async (events: string[]) => {
    const res = await api('POST', '/workflows', {
      name: `on ${events.join(', ')}`,
      nodes: [{ id: 'on', type: 'trigger.document', config: { events, filters: { project_ids: [projectId] } } }],
      edges: [],
      status: 'active',
    });
    expect(res.statusCode, res.body).toBe(201);
    return body(res).data.id as string;
  };
  const runsOf = async (workflowId: string) =>
    (
      await t.deps.db.query<{ document_id: string; status: string; trigger: { event_type: string } }>(
        'SELECT document_id, status, trigger FROM workflow_runs WHERE workflow_id = $1 ORDER BY created_at, id',
        [workflowId],
      )
    ).rows;
  const subscribe = async (events: string[]) => {
    const sink = await startWebhookSink();
    sinks.push(sink);
    const res = await api('POST', '/webhooks', { url: sink.url, events });
    expect(res.statusCode, res.body).toBe(201);
    return sink;
  };
  const uploaded = async (name: string, data: Buffer) => {
    const res = await upload(t as unknown as TestApp, owner, projectId, name, data);
    expect(res.statusCode, res.body).toBe(201);
    return body(res).data.id as string;
  };

  beforeAll(async () => {
    t = await createWorkflowTestApp({ kind, workers: false });
    owner = await createActor(t as unknown as TestApp);
    projectId = await createProject(t as unknown as TestApp, owner);
  });
  afterEach(async () => {
    await workers?.close(2000);
    workers = null;
    for (const s of sinks.splice(0)) await s.close();
  });
  afterAll(async () => {
    for (const q of ['parse', 'embed', 'classify', 'extract'] as const)
      await t?.deps.queues
        .get(q)
        .obliterate({ force: true })
        .catch(() => undefined);
    await t?.close();
  });

  it('is a worker role of the default set', () => {
    expect(WORKER_ROLES).toContain('events');
  });

  it('a process with only the workflows and events roles starts the workflow a document event triggers', async () => {
    const w = await workflow(['document.uploaded']);
    await roles(['workflows', 'events']);
    const id = await uploaded('note.txt', Buffer.from('Invoice 7 Total 12.00 EUR\n'));
    const runs = await eventually(async () => {
      const r = await runsOf(w);
      return r.length === 1 && r[0].status === 'completed' && r;
    }, 'the triggered run completed');
    expect(runs[0]).toMatchObject({ document_id: id, trigger: { event_type: 'document.uploaded' } });
  });

  it('with the webhooks and events roles, a subscription receives the event', async () => {
    const sink = await subscribe(['document.uploaded']);
    await roles(['webhooks', 'events']);
    const id = await uploaded('hello.txt', Buffer.from('Receipt 9 Total 3.00 EUR\n'));
    await sink.waitFor(1, 10_000);
    const payload = JSON.parse(sink.requests[0].body);
    expect(payload).toMatchObject({ type: 'document.uploaded', data: { documentId: id, projectId } });
  });

  it('a document whose parse fails permanently is announced as document.failed to webhooks and workflows', async () => {
    const sink = await subscribe(['document.failed']);
    const w = await workflow(['document.failed']);
    await roles(['parse', 'webhooks', 'workflows', 'events']);
    // A PDF header over bytes that are no PDF: the parser refuses it as corrupt (no retry helps).
    const id = await uploaded('broken.pdf', Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog\ntruncated here'));
    const doc = await waitForDocument(t as unknown as TestApp, id, 30_000);
    expect(doc.status).toBe('failed');
    await sink.waitFor(1, 10_000);
    const payload = JSON.parse(sink.requests[0].body);
    expect(payload.type).toBe('document.failed');
    expect(payload.data).toMatchObject({
      documentId: id,
      projectId,
      status: 'failed',
      version: 1,
      filename: 'broken.pdf',
      error: { stage: 'parse', code: doc.error.code },
    });
    expect(payload.data.error.code).toBe('CORRUPT');
    expect(typeof payload.data.error.message).toBe('string');
    expect(payload.data.error.message.length).toBeGreaterThan(0);
    // The subscription asked for document.failed only: the upload itself was not delivered.
    expect(sink.requests.map((r) => JSON.parse(r.body).type)).toEqual(['document.failed']);
    const runs = await eventually(async () => {
      const r = await runsOf(w);
      return r.length === 1 && r[0].status === 'completed' && r;
    }, 'the run triggered by document.failed');
    expect(runs[0]).toMatchObject({ document_id: id, trigger: { event_type: 'document.failed' } });
    // GET /events lists it with the same payload.
    const listed = await api('GET', `/events?type=document.failed&document_id=${id}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(body(listed).data).toHaveLength(1);
    expect(body(listed).data[0].data.error).toEqual(payload.data.error);
  });
});
