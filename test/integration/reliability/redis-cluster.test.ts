// docpipe on a real three-master Redis Cluster started by this file (redis-server --cluster-enabled
// ×3, redis-cli --cluster create): the pipeline (upload → completed), a workflow run whose step
// sends a webhook event delivered to a local sink, and the API's rate limits (the Lua script that
// reads stamps and counters together) all work, because every docpipe key carries the install's
// hash tag and so lives in one slot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, createKey, type Actor, type TestApp } from '../../helpers/app.js';
import { createProject, PIPELINE_QUEUES, tinyModelDir, upload, waitForDocument } from '../../helpers/pipeline.js';
import { clusterToolsMissing, startRedisCluster, type RedisClusterHandle } from '../../helpers/redis-cluster.js';
import { eventually } from '../../helpers/sheets-harness.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { createWorkflowStack, type WorkflowStack } from '../../helpers/workflows-harness.js';
import { openRedis } from '../../../src/lib/redis.js';
import { startWorkers, type WorkerHandle } from '../../../workers/index.js';

const missing = clusterToolsMissing();
if (missing) console.warn(`redis-cluster test skipped: ${missing}`);

describe.skipIf(missing !== null)('Redis Cluster', () => {
  let cluster: RedisClusterHandle;
  let t: WorkflowStack;
  let pipelineWorkers: WorkerHandle;
  let sink: WebhookSink;
  let owner: Actor;
  let projectId: string;
  let docId = '';
  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    cluster = await startRedisCluster();
    t = await createWorkflowStack({ redisUrl: cluster.url, env: { EMBEDDING_MODEL_DIR: await tinyModelDir() } });
    pipelineWorkers = await startWorkers(t.deps, { queues: PIPELINE_QUEUES, concurrency: 2, schedulers: false });
    sink = await startWebhookSink();
    owner = await createActor(t as unknown as TestApp); // login: the login throttle script runs on the cluster
    projectId = await createProject(t as unknown as TestApp, owner);
  }, 60_000);

  afterAll(async () => {
    await pipelineWorkers?.close(2_000);
    await t?.close();
    await sink?.close();
    await cluster?.stop();
  });

  it('uses a hash-tagged prefix, so the queue keys land in one slot of a cluster with three masters', async () => {
    expect(t.deps.queues.prefix).toBe(`{${t.config.REDIS_PREFIX}}`);
    const probe = openRedis(cluster.url);
    try {
      const nodes = String(await probe.cluster('NODES'))
        .trim()
        .split('\n')
        .filter((l) => l.includes('master'));
      expect(nodes).toHaveLength(3);
      const slots = await Promise.all(
        [t.deps.queues.get('parse').toKey('x'), t.deps.keys.rate('a'), t.deps.keys.stamp('org', 'b')].map((k) =>
          probe.cluster('KEYSLOT', k),
        ),
      );
      expect(new Set(slots).size).toBe(1);
    } finally {
      probe.disconnect();
    }
  });

  it('runs the pipeline: an upload reaches completed', async () => {
    const res = await upload(
      t as unknown as TestApp,
      owner,
      projectId,
      'note.txt',
      Buffer.from('Invoice 42\nTotal: 17.50 EUR\n'),
    );
    expect(res.statusCode).toBe(201);
    const doc = await waitForDocument(t as unknown as TestApp, body(res).data.id, 60_000);
    expect(doc.status).toBe('completed');
    docId = doc.id;
  });

  it('runs a workflow whose webhook event is delivered to a local sink', async () => {
    const created = await api('POST', '/workflows', {
      name: 'cluster notify',
      nodes: [
        { id: 'start', type: 'trigger.manual', config: {} },
        {
          id: 'notify',
          type: 'send_webhook_event',
          config: {
            url: `${new URL(sink.url).origin}/events`,
            event: 'cluster.checked',
            payload: '{"doc": document.id}',
          },
        },
      ],
      edges: [{ source: 'start', target: 'notify' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const run = await api('POST', `/workflows/${body(created).data.id}/run`, {
      mode: 'execute',
      input: { document_id: docId },
    });
    expect(run.statusCode, run.body).toBe(202);
    const runId = body(run).data.id;
    const done = await eventually(
      async () => {
        const r = body(await api('GET', `/workflows/runs/${runId}`)).data;
        return ['completed', 'failed', 'cancelled'].includes(r.status) && r;
      },
      `run ${runId} to finish`,
      30_000,
    );
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    await eventually(async () => sink.requests.length > 0, 'the webhook at the sink', 30_000);
    expect(sink.requests[0]!.body).toContain('cluster.checked');
    expect(sink.requests[0]!.body).toContain(docId);
  });

  it('enforces an API key rate limit (the multi-key Lua script) on the cluster', async () => {
    const key = await createKey(t as unknown as TestApp, owner, { rate_limit_per_minute: 3 });
    const get = () =>
      t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key.key}` } });
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await get();
      statuses.push(r.statusCode);
      remaining.push(String(r.headers['x-ratelimit-remaining']));
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(remaining.slice(0, 3)).toEqual(['2', '1', '0']);
  });
});
