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
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => { lines.push(a.join(' ')); });
  const err = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => { lines.push(a.join(' ')); });
  const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await runClientCommand(cmd, args);
    return { code, out: lines.join('\n') };
  } finally {
    log.mockRestore(); err.mockRestore(); write.mockRestore();
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
  afterAll(async () => { await t?.close(); });

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

    const re = await run('reprocess', ['--project', projectId, '--stage', 'classify,extract', '--all', '--url', url, '--key', key]);
    expect(re.out).toMatch(/batch bat_\w+: 2 documents \(all\)/);
    expect(re.out).toContain('completed 2, skipped 0, failed 0');
    expect(re.code).toBe(0);

    const missing = await run('reprocess', ['--project', projectId, '--stage', 'classify', '--missing', '--url', url, '--key', key]);
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
    t = await createPipelineApp('pglite', { EMBEDDING_MODEL: 'docpipe-test/absent-model', ALLOW_MODEL_DOWNLOAD: 'false' });
    url = await listen(t);
  });
  afterAll(async () => { await t?.close(); });

  it('reports documents whose embedding was skipped as skipped, with the reason once, and exits 1', async () => {
    const actor = await createActor(t);
    const projectId = await createProject(t, actor);
    const ownKey = (await createKey(t, actor)).key;
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-skip-'));
    writeFileSync(join(dir, 'a.txt'), 'Invoice No: S-1\nTotal: 12.00 EUR');
    writeFileSync(join(dir, 'b.txt'), 'Meeting notes\nShip on Monday.');
    const ingest = await run('ingest', [dir, '--project', projectId, '--url', url, '--key', ownKey, '--wait']);
    expect(ingest.out).toMatch(/processed: completed 2/);

    const r = await run('reprocess', ['--project', projectId, '--stage', 'embed', '--missing', '--url', url, '--key', ownKey]);
    expect(r.out).toMatch(/batch bat_\w+: 2 documents \(missing\)/);
    expect(r.out).toContain('completed 0, skipped 2, failed 0');
    const reasons = r.out.split('\n').filter((l) => l.includes('skipped 2: embed: EMBEDDING_UNAVAILABLE'));
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain('docpipe-test/absent-model');
    expect(r.code).toBe(1);
  });
});
