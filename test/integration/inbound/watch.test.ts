// The watched folder against the real intake: files written slowly, renamed in, duplicated,
// deleted mid-copy, refused, recovered from a dead watcher's claim, and two watchers on one folder.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FolderWatcher, UploadResult } from '../../../src/modules/integrations/watch/index.js';
import { createActor, createTestApp, type Actor, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { eventually } from '../../helpers/mail-harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TIMING = { stableMs: 300, pollMs: 100, staleClaimMs: 600 };

describe.each(dbKinds())('watched folder (%s)', (kind) => {
  let t: TestApp;
  let actor: Actor;
  let root: string;
  const running: FolderWatcher[] = [];
  const settled: { filename: string; result: UploadResult | { kind: 'retry' } }[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'docpipe-watch-'));
    t = await createTestApp(kind, { WATCH_DIR: root });
    actor = await createActor(t);
  });
  afterEach(async () => {
    for (const w of running.splice(0)) await w.close();
    settled.length = 0;
  });
  afterAll(async () => {
    await t?.close();
    await rm(root, { recursive: true, force: true });
  });

  const start = async () => {
    const w = await t.deps.watch.start({ ...TIMING, onSettled: (e) => settled.push(e) });
    running.push(w);
    return w;
  };
  const project = async (name = `Scans ${randomBytes(3).toString('hex')}`) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/projects', headers: actor.auth, payload: { name } });
    return res.json().data.id as string;
  };
  const documents = async (projectId: string) =>
    (
      await t.deps.db.query<{ id: string; filename: string; sha256: string; source_metadata: any }>(
        'SELECT id, filename, sha256, source_metadata FROM documents WHERE project_id = $1 ORDER BY filename',
        [projectId],
      )
    ).rows;
  const list = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).sort();

  it('makes a folder per project, takes a slowly written file only once it is complete', async () => {
    const id = await project();
    await start();
    const dir = join(root, id);
    expect(existsSync(dir)).toBe(true);
    const file = join(dir, 'scan.txt');
    const full: Buffer[] = [];
    for (let i = 0; i < 6; i++) {
      const chunk = Buffer.from(`page ${i} of a slowly copied scan ${randomBytes(8).toString('hex')}\n`);
      full.push(chunk);
      await appendFile(file, chunk);
      await sleep(120);
    }
    await eventually(async () => (await list(join(dir, '.done'))).includes('scan.txt'), 'scan.txt in .done');
    const docs = await documents(id);
    expect(docs).toHaveLength(1);
    expect(docs[0].sha256).toBe(createHash('sha256').update(Buffer.concat(full)).digest('hex'));
    expect(docs[0].source_metadata.watch.filename).toBe('scan.txt');
    expect(await list(dir)).toEqual(['.claim', '.done']);
  });

  it('takes a file renamed in; a duplicate goes to .done with a note; deleted mid-copy leaves nothing', async () => {
    const id = await project();
    await start();
    const dir = join(root, id);
    const body = `renamed in ${randomBytes(8).toString('hex')}`;
    await writeFile(join(root, 'staging.tmp'), body);
    await rename(join(root, 'staging.tmp'), join(dir, 'a.txt'));
    await writeFile(join(dir, 'copy-of-a.txt'), body);
    await writeFile(join(dir, 'partial.txt'), 'half a fi');
    await rm(join(dir, 'partial.txt'));
    await eventually(async () => (await list(join(dir, '.done'))).length === 3, 'both files settled');
    const done = await list(join(dir, '.done'));
    const dupNote = done.find((f) => f.endsWith('.duplicate.txt'))!;
    expect(dupNote).toBeDefined();
    const docs = await documents(id);
    expect(docs).toHaveLength(1);
    expect(await readFile(join(dir, '.done', dupNote), 'utf8')).toContain(docs[0].id);
    expect(existsSync(join(dir, '.failed'))).toBe(false);
  });

  it('moves a refused file to .failed with the reason beside it', async () => {
    const id = await project();
    await start();
    const dir = join(root, id);
    await writeFile(join(dir, 'empty.pdf'), '');
    await writeFile(join(dir, 'tool.exe'), Buffer.concat([Buffer.from('MZ'), randomBytes(200)]));
    await eventually(async () => (await list(join(dir, '.failed'))).length === 4, 'two refusals');
    expect(await readFile(join(dir, '.failed', 'empty.pdf.error.txt'), 'utf8')).toMatch(/empty/);
    expect(await readFile(join(dir, '.failed', 'tool.exe.error.txt'), 'utf8')).toMatch(/cannot be processed/);
    expect(await documents(id)).toHaveLength(0);
  });

  it('puts back and uploads the files of a watcher that died holding them; unknown folders stay', async () => {
    const id = await project();
    const dir = join(root, id);
    const dead = join(dir, '.claim', 'deadhost-1-abcd');
    await mkdir(dead, { recursive: true });
    await writeFile(join(dead, '.alive'), '');
    const old = new Date(Date.now() - 60_000);
    await utimes(join(dead, '.alive'), old, old);
    await writeFile(join(dead, 'claimed.txt'), `claimed before a crash ${randomBytes(8).toString('hex')}`);
    await mkdir(join(root, 'not-a-project'), { recursive: true });
    await writeFile(join(root, 'not-a-project', 'stray.txt'), 'stray');
    await start();
    await eventually(async () => (await list(join(dir, '.done'))).includes('claimed.txt'), 'the recovered file');
    expect(existsSync(dead)).toBe(false);
    expect(await documents(id)).toHaveLength(1);
    expect(await list(join(root, 'not-a-project'))).toEqual(['stray.txt']);
  });

  it('two watchers on one folder take each file exactly once', async () => {
    const id = await project();
    await Promise.all([start(), start()]);
    const dir = join(root, id);
    const n = 24;
    for (let i = 0; i < n; i++)
      await writeFile(join(dir, `f${String(i).padStart(2, '0')}.txt`), `file ${i} ${randomBytes(8).toString('hex')}`);
    await eventually(async () => (await list(join(dir, '.done'))).length === n, `${n} files in .done`, 30_000);
    expect(await documents(id)).toHaveLength(n);
    expect(settled.filter((s) => s.result.kind === 'created')).toHaveLength(n);
    expect(new Set(settled.map((s) => s.filename)).size).toBe(settled.length);
  });
});

describe('docpipe watch DIR --project ID (against a listening server)', () => {
  let t: TestApp;
  let actor: Actor;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    actor = await createActor(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('uploads stable files through the API with an API key and settles them', async () => {
    const { createKey } = await import('../../helpers/app.js');
    const { runWatchCommand } = await import('../../../src/cli/watch-command.js');
    const key = (await createKey(t, actor)).key;
    const addr = t.app.server.address() as { port: number };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: actor.auth,
      payload: { name: 'Remote scans', allowed_file_types: ['txt'] },
    });
    const projectId = res.json().data.id as string;
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-watch-cli-'));
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const running = runWatchCommand([
        dir,
        '--project',
        projectId,
        '--url',
        `http://127.0.0.1:${addr.port}`,
        '--key',
        key,
        '--stable-ms',
        '200',
        '--poll-ms',
        '100',
      ]);
      await writeFile(join(dir, 'notes.txt'), `remote notes ${randomBytes(8).toString('hex')}`);
      await writeFile(join(dir, 'scan.pdf'), '%PDF-1.4 not allowed in this project');
      await eventually(
        async () => (await readdir(join(dir, '.done')).catch((): string[] => [])).includes('notes.txt'),
        '.done/notes.txt',
      );
      await eventually(
        async () => (await readdir(join(dir, '.failed')).catch(() => [])).length === 2,
        '.failed/scan.pdf',
      );
      expect(await readFile(join(dir, '.failed', 'scan.pdf.error.txt'), 'utf8')).toMatch(/not allowed in this project/);
      process.emit('SIGINT');
      expect(await running).toBe(0);
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
    const docs = await t.deps.db.query('SELECT filename FROM documents WHERE project_id = $1', [projectId]);
    expect(docs.rows).toEqual([{ filename: 'notes.txt' }]);
    expect(out.join('\n')).toContain('created: notes.txt');
  });
});
