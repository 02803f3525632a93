// A stage worker goes on with a document's next stages in the same job when this process serves
// them and has a free slot. Each stage still commits once, with its own event. A paused stage
// queue holds its documents anyway. A stage this process does not serve is queued as before. A
// continued stage that fails transiently is handed to its own queue, which retries it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor } from '../../helpers/app.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createPipelineApp, createProject, upload, waitForDocument, type PipelineApp } from '../../helpers/pipeline.js';
import { startWorkers, type WorkerHandle } from '../../../workers/index.js';
import { STAGES, type Stage } from '../../../src/pipeline/stages.js';
import type { StageCompute } from '../../../src/modules/documents/stage-runner.js';

describe('stages continued in the same job', () => {
  let t: PipelineApp;
  let actor: Actor;
  let projectId: string;
  let workers: WorkerHandle | null = null;
  const originals = new Map<Stage, StageCompute>();

  const completedJobs = async () =>
    Object.fromEntries(
      await Promise.all(
        STAGES.map(async (s) => [s, (await t.deps.queues.get(s).getJobCounts('completed')).completed] as const),
      ),
    ) as Record<Stage, number>;
  const stageRuns = async (id: string) =>
    (
      await t.deps.db.query<{ stage: string; n: number }>(
        'SELECT stage, count(*)::int AS n FROM stage_runs WHERE document_id = $1 GROUP BY stage ORDER BY stage',
        [id],
      )
    ).rows;
  const events = async (id: string) =>
    (
      body(await t.app.inject({ method: 'GET', url: `/api/v1/events?document_id=${id}`, headers: actor.auth }))
        .data as {
        type: string;
      }[]
    )
      .map((e) => e.type)
      .sort();
  const uploaded = async (name: string) => {
    const pdf = await makeTextPdf({ pages: [['Invoice', `Invoice No: ${name}`, 'Total: 12.00 EUR']] });
    const res = await upload(t, actor, projectId, `${name}.pdf`, pdf);
    expect(res.statusCode, res.body).toBe(201);
    return body(res).data.id as string;
  };
  const start = async (queues: readonly string[], pipeline: { continueStages?: boolean } = {}) => {
    workers = await startWorkers(t.deps, { queues, concurrency: 1, schedulers: false, pipeline });
  };

  beforeAll(async () => {
    t = await createPipelineApp('pglite', {}, { workers: false });
    actor = await createActor(t);
    projectId = await createProject(t, actor);
    for (const s of STAGES) originals.set(s, t.deps.documents.computes[s]);
  });
  afterEach(async () => {
    await workers?.close(2_000);
    workers = null;
    for (const s of STAGES) {
      t.deps.documents.computes[s] = originals.get(s)!;
      await t.deps.queues.get(s).resume();
      await t.deps.queues.get(s).obliterate({ force: true });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('with PIPELINE_CONTINUE=false runs every stage as a queued job of its own', async () => {
    await start(STAGES, { continueStages: false });
    const id = await uploaded('OWN-1');
    expect((await waitForDocument(t, id)).status).toBe('completed');
    expect(await completedJobs()).toEqual({ parse: 1, embed: 1, classify: 1, extract: 1 });
    expect(await stageRuns(id)).toEqual([...STAGES].sort().map((stage) => ({ stage, n: 1 })));
  });

  it('runs every stage in the parse job when this process serves them all: one commit and one event each', async () => {
    await start(STAGES);
    const id = await uploaded('ALL-1');
    expect((await waitForDocument(t, id)).status).toBe('completed');
    expect(await completedJobs()).toEqual({ parse: 1, embed: 0, classify: 0, extract: 0 });
    expect(await stageRuns(id)).toEqual([...STAGES].sort().map((stage) => ({ stage, n: 1 })));
    expect(await events(id)).toEqual([
      'document.classified',
      'document.extracted',
      'document.processed',
      'document.uploaded',
    ]);
  });

  it("gives a continued stage the read its previous stage's commit returned: the row as written, no read of its own", async () => {
    // A template of this organization, so that the read's templates are known to be the org's own.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/templates',
      headers: actor.auth,
      payload: {
        name: 'continued',
        issuer: 'Nobody Ltd',
        keywords: ['zz-no-such-word'],
        fields: { ref: 'Ref:\\s*(\\S+)' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const templateId = body(created).data.id as string;
    const reads: string[] = [];
    const getForStage = t.deps.documents.stages.getForStage;
    t.deps.documents.stages.getForStage = (id, stage, opts) => {
      reads.push(stage);
      return getForStage(id, stage, opts);
    };
    type Seen = {
      status: string;
      current: string | null;
      text: string | null;
      emb: number;
      project?: string;
      templates?: string[];
    };
    const seen: Partial<Record<Stage, Seen>> = {};
    for (const s of ['embed', 'classify', 'extract'] as const) {
      const original = originals.get(s)!;
      t.deps.documents.computes[s] = async (doc, project, context) => {
        seen[s] = {
          status: doc.status,
          current: doc.pipeline.current ?? null,
          text: doc.text_content,
          emb: doc.embedding?.length ?? 0,
          project: project?.id,
          templates: context.templates?.map((x) => x.id),
        };
        return original(doc, project, context);
      };
    }
    try {
      await start(STAGES);
      const id = await uploaded('READ-1');
      expect((await waitForDocument(t, id)).status).toBe('completed');
      expect(reads).toEqual(['parse']);
      expect(seen.embed).toMatchObject({ status: 'processing', current: 'embed', emb: 0, project: projectId });
      expect(seen.embed?.text).toContain('Invoice No: READ-1');
      expect(seen.classify).toMatchObject({ status: 'processed', current: 'classify', project: projectId });
      expect(seen.classify?.templates).toEqual([templateId]);
      expect(seen.classify?.text).toContain('Invoice No: READ-1');
      expect(seen.classify?.emb).toBeGreaterThan(0);
      expect(seen.extract).toMatchObject({ status: 'classified', current: 'extract', project: projectId });
      expect(seen.extract?.templates).toEqual([templateId]);
    } finally {
      t.deps.documents.stages.getForStage = getForStage;
      await t.app.inject({ method: 'DELETE', url: `/api/v1/templates/${templateId}`, headers: actor.auth });
    }
  });

  it('queues the next stage when this process does not serve it', async () => {
    await start(['parse']);
    const id = await uploaded('PARSE-ONLY');
    await waitForDocument(t, id, 30_000, new Set(['processing']));
    const embed = t.deps.queues.get('embed');
    await expect.poll(async () => (await embed.getJobCounts('waiting')).waiting, { timeout: 10_000 }).toBe(1);
    await workers!.close(2_000);
    await start(STAGES);
    expect((await waitForDocument(t, id)).status).toBe('completed');
    // The embed job ran; it then continued with classify and extract itself.
    expect(await completedJobs()).toEqual({ parse: 1, embed: 1, classify: 0, extract: 0 });
  });

  it('does not continue into a paused stage: the document waits in its queue until it is resumed', async () => {
    await t.deps.queues.get('classify').pause();
    await start(STAGES);
    const id = await uploaded('PAUSED');
    const classify = t.deps.queues.get('classify');
    await expect.poll(async () => (await classify.getJobCounts('waiting')).waiting, { timeout: 30_000 }).toBe(1);
    const row = (await t.deps.db.query<{ status: string }>('SELECT status FROM documents WHERE id = $1', [id])).rows[0];
    expect(row.status).toBe('processed');
    await classify.resume();
    expect((await waitForDocument(t, id)).status).toBe('completed');
    expect(await completedJobs()).toEqual({ parse: 1, embed: 0, classify: 1, extract: 0 });
  });

  it('hands a continued stage that failed transiently to its own queue, which retries it', async () => {
    let failures = 0;
    const extract = originals.get('extract')!;
    t.deps.documents.computes.extract = async (...args) => {
      if (failures++ === 0) throw new Error('a passing hiccup');
      return extract(...args);
    };
    await start(STAGES);
    const id = await uploaded('RETRY');
    expect((await waitForDocument(t, id)).status).toBe('completed');
    expect(failures).toBe(2);
    expect(await completedJobs()).toEqual({ parse: 1, embed: 0, classify: 0, extract: 1 });
    expect((await stageRuns(id)).find((r) => r.stage === 'extract')?.n).toBe(1);
  });
});
