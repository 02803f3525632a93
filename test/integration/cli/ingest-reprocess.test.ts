import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runClientCommand } from '../../../src/cli/client-commands.js';
import { createActor, createKey, type Actor } from '../../helpers/app.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createPipelineApp, createProject, type PipelineApp } from '../../helpers/pipeline.js';

async function run(cmd: 'ingest' | 'reprocess', args: string[]) {
  const lines: string[] = [];
  let progress = '';
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => {
    lines.push(a.join(' '));
  });
  const err = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => {
    lines.push(a.join(' '));
  });
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    progress += String(s);
    return true;
  });
  try {
    const code = await runClientCommand(cmd, args);
    return { code, out: lines.join('\n'), progress };
  } finally {
    log.mockRestore();
    err.mockRestore();
    write.mockRestore();
  }
}

async function listen(t: PipelineApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

describe('docpipe ingest and reprocess (against a listening server)', () => {
  let t: PipelineApp;
  let actor: Actor;
  let url: string;
  let key: string;
  beforeAll(async () => {
    t = await createPipelineApp('pglite');
    actor = await createActor(t);
    key = (await createKey(t, actor)).key;
    url = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('uploads a folder, waits for processing, reports duplicates and failures, then reprocesses', async () => {
    const projectId = await createProject(t, actor, { allowed_file_types: ['pdf', 'txt'] });
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-ingest-'));
    writeFileSync(join(dir, 'a.pdf'), await makeTextPdf({ pages: [['Invoice No: A-1', 'Total: 10.00 EUR']] }));
    writeFileSync(join(dir, 'b.txt'), 'Meeting notes\nWe agreed to ship on Friday.');
    writeFileSync(join(dir, 'c.bin'), Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x00, 0x13, 0x37]));
    const first = await run('ingest', [dir, '--project', projectId, '--url', url, '--key', key, '--wait']);
    expect(first.out).toContain('uploaded 2, duplicates 0, failed 1');
    expect(first.out).toMatch(/c\.bin: 415 UNSUPPORTED_MEDIA_TYPE/);
    expect(first.out).toMatch(/processed: completed 2/);
    expect(first.code).toBe(1);

    const again = await run('ingest', [join(dir, 'a.pdf'), '--project', projectId, '--url', url, '--key', key]);
    expect(again.out).toContain('uploaded 0, duplicates 1, failed 0');
    expect(again.code).toBe(0);

    const re = await run('reprocess', [
      '--project',
      projectId,
      '--stage',
      'classify,extract',
      '--all',
      '--url',
      url,
      '--key',
      key,
    ]);
    expect(re.out).toMatch(/batch bat_\w+: 2 documents \(all\)/);
    expect(re.out).toContain('completed 2, skipped 0, failed 0');
    expect(re.code).toBe(0);

    const missing = await run('reprocess', [
      '--project',
      projectId,
      '--stage',
      'classify',
      '--missing',
      '--url',
      url,
      '--key',
      key,
    ]);
    expect(missing.out).toMatch(/: 0 documents \(missing\)/);
  });

  it('explains a missing key or project', async () => {
    const r = await run('ingest', ['/tmp', '--url', url, '--key', key]);
    expect(r.code).toBe(2);
    expect(r.out).toContain('--project ID is required');
  });
});

describe('docpipe reprocess without an embedding model', () => {
  let t: PipelineApp;
  let url: string;
  beforeAll(async () => {
    t = await createPipelineApp('pglite', {
      EMBEDDING_MODEL: 'docpipe-test/absent-model',
      ALLOW_MODEL_DOWNLOAD: 'false',
    });
    url = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports documents whose embedding was skipped as skipped, with the reason once, and exits 1', async () => {
    const actor = await createActor(t);
    const projectId = await createProject(t, actor);
    const ownKey = (await createKey(t, actor)).key;
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-skip-'));
    writeFileSync(join(dir, 'a.txt'), 'Invoice No: S-1\nTotal: 12.00 EUR');
    writeFileSync(join(dir, 'b.txt'), 'Meeting notes\nShip on Monday.');
    const ingest = await run('ingest', [dir, '--project', projectId, '--url', url, '--key', ownKey, '--wait']);
    expect(ingest.out).toMatch(/processed: completed 2/);
    expect(ingest.out).toMatch(/^ {2}2 without embeddings \(embedding skipped: .*absent-model/m);

    const r = await run('reprocess', [
      '--project',
      projectId,
      '--stage',
      'embed',
      '--missing',
      '--url',
      url,
      '--key',
      ownKey,
    ]);
    expect(r.out).toMatch(/batch bat_\w+: 2 documents \(missing\)/);
    expect(r.out).toContain('completed 0, skipped 2, failed 0');
    const reasons = r.out.split('\n').filter((l) => l.includes('skipped 2: embed: EMBEDDING_UNAVAILABLE'));
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain('docpipe-test/absent-model');
    expect(r.code).toBe(1);
  });
});

describe('docpipe ingest --wait on the free plan (30 requests a minute)', () => {
  let t: PipelineApp;
  let url: string;
  let actor: Actor;
  let key: string;
  let projectId: string;
  const requests: { method: string; url: string; status: number }[] = [];
  const realFetch = globalThis.fetch;
  beforeAll(async () => {
    t = await createPipelineApp('pglite');
    url = await listen(t);
    actor = await createActor(t, { plan: 'free' });
    key = (await createKey(t, actor)).key;
    projectId = await createProject(t, actor);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const res = await realFetch(input, init);
      requests.push({ method: init?.method ?? 'GET', url: String(input), status: res.status });
      return res;
    });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  const folder = (names: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-free-'));
    for (const n of names) writeFileSync(join(dir, n), `Meeting notes ${n}\nWe agreed on ${n}.`);
    return dir;
  };

  it('follows all documents with one list request per interval, never one request per document', async () => {
    requests.length = 0;
    const r = await run('ingest', [
      folder(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'f.txt']),
      '--project',
      projectId,
      '--url',
      url,
      '--key',
      key,
      '--wait',
    ]);
    expect(r.out).toContain('uploaded 6, duplicates 0, failed 0');
    expect(r.out).toMatch(/processed: completed 6/);
    expect(r.code).toBe(0);
    const uploads = requests.filter((q) => q.method === 'POST');
    const polls = requests.filter((q) => q.method === 'GET');
    expect(uploads).toHaveLength(6);
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(polls.every((q) => /\/api\/v1\/documents\?ids=/.test(q.url))).toBe(true);
    // The first poll asks for every uploaded document at once; later ones for those still pending.
    const asked = polls.map((q) => new URL(q.url).searchParams.get('ids')!.split(','));
    expect(asked[0]).toHaveLength(6);
    for (let i = 1; i < asked.length; i++) expect(asked[i].every((id) => asked[i - 1].includes(id))).toBe(true);
  });

  it('waits out a 429 as long as Retry-After says, shows it in the progress line, and finishes', async () => {
    // Use up the organization's minute (the key and the session share it), as other clients would.
    let limited = false;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/auth/me',
        headers: { authorization: `Bearer ${key}` },
      });
      limited = res.statusCode === 429;
    }
    expect(limited).toBe(true);
    requests.length = 0;
    const r = await run('ingest', [
      folder(['g.txt', 'h.txt']),
      '--project',
      projectId,
      '--url',
      url,
      '--key',
      key,
      '--wait',
    ]);
    expect(r.out).toContain('uploaded 2, duplicates 0, failed 0');
    expect(r.out).toMatch(/processed: completed 2/);
    expect(r.code).toBe(0);
    expect(requests.some((q) => q.status === 429)).toBe(true);
    expect(r.progress).toMatch(/uploading: 0\/2 \(0%\) — waiting for rate limit \(\d+ s\)/);
  }, 150_000);
});
