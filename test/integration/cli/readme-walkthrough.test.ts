// The guides run as written: the `sh` blocks of the API guide and the guides that continue it
// (WALK, in this order; all but those marked `no-run` in their info string) are run in one bash
// against a started `docpipe start` whose first user is the quick start's bootstrap user. The
// only change made to them is the server's address; every curl fails on an HTTP error
// (--fail-with-body) and bash stops at the first failure. A `sh` block anywhere else in the docs
// must say `no-run`, so no command in them goes unchecked by accident.
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../helpers/net.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { tinyModelDir } from '../../helpers/pipeline.js';
import { pgliteDataDirAt } from '../../helpers/webhooks-harness.js';

const ENTRY = fileURLToPath(new URL('../../helpers/run-ts.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('./fixtures/cli-main.ts', import.meta.url));
const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));
/** The guides whose blocks continue one another, in the order they are run. */
const WALK = ['api', 'documents', 'webhooks', 'intake', 'sheets', 'workflows', 'reports', 'cli'].map((n) => `${n}.md`);

interface Block {
  line: number;
  info: string;
  code: string;
}

/**
 * The fenced blocks of the section that starts with `heading`, up to the next `## `; without a
 * heading, every block of the file.
 */
export function sectionBlocks(markdown: string, heading?: string): Block[] {
  const lines = markdown.split('\n');
  const start = heading === undefined ? -1 : lines.findIndex((l) => l.trim() === heading);
  if (heading !== undefined && start < 0) throw new Error(`no "${heading}" section`);
  const blocks: Block[] = [];
  let open: { line: number; info: string; body: string[] } | undefined;
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i];
    if (heading !== undefined && !open && /^## /.test(l)) break;
    const fence = /^```(.*)$/.exec(l);
    if (!fence) {
      open?.body.push(l);
      continue;
    }
    if (open) {
      blocks.push({ line: open.line, info: open.info, code: open.body.join('\n') });
      open = undefined;
    } else open = { line: i + 1, info: fence[1].trim(), body: [] };
  }
  return blocks;
}

const shell = (b: Block) => ['sh', 'bash', 'shell'].includes(b.info.split(/\s+/)[0]);
const runnable = (b: Block) => shell(b) && !b.info.split(/\s+/).includes('no-run');

/** The walk-through's blocks, each labelled with its file. */
function walkBlocks(): (Block & { file: string })[] {
  return WALK.flatMap((file) =>
    sectionBlocks(readFileSync(join(DOCS, file), 'utf8'))
      .filter(runnable)
      .map((b) => ({ ...b, file: `docs/${file}` })),
  );
}

describe("the guides' walk-through (docs/api.md and those that continue it) against a started server", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'docpipe-readme-'));
  const work = mkdtempSync(join(tmpdir(), 'docpipe-readme-work-'));
  let port: number;
  let server: ChildProcess | undefined;
  let serverErr = '';

  beforeAll(async () => {
    await pgliteDataDirAt(join(dataDir, 'db'));
    mkdirSync(join(dataDir, 'secrets'), { recursive: true });
    port = await freePort();
    const env = {
      ...(process.env as Record<string, string>),
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: `t${randomBytes(5).toString('hex')}`,
      ALLOW_MODEL_DOWNLOAD: 'false',
      EMBEDDING_MODEL: 'docpipe-test/tiny-bert',
      CLASSIFY_KNN: 'false',
      EMBEDDING_MODEL_DIR: await tinyModelDir(),
      CLASSIFIER_CACHE_DIR: join(tmpdir(), 'docpipe-test-classifier'),
      // The quick start's first user, as the README sets it.
      BOOTSTRAP_ADMIN_EMAIL: 'you@example.com',
      BOOTSTRAP_ADMIN_PASSWORD: 'a long password',
      BOOTSTRAP_ORG_NAME: 'Acme',
    };
    server = fork(ENTRY, [CLI, JSON.stringify({ argv: ['start'] })], {
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    server.stderr!.on('data', (c: Buffer) => {
      serverErr = (serverErr + c.toString()).slice(-20_000);
    });
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited: ${serverErr}`);
      if (
        await fetch(`http://127.0.0.1:${port}/api/v1/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (Date.now() > deadline) throw new Error(`server did not start: ${serverErr}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // The walk-through uploads `invoice.pdf` from the current folder.
    writeFileSync(
      join(work, 'invoice.pdf'),
      await makeTextPdf({ pages: [['ACME GmbH', 'Invoice No: 1042', 'Date: 2026-05-04', 'Total: 1,190.00 EUR']] }),
    );
  }, 180_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it('finds the walk-through: the login, key, project and upload steps are in a block it runs', () => {
    const blocks = walkBlocks();
    const all = blocks.map((b) => b.code).join('\n');
    for (const step of ['/auth/login', '/api-keys', '/projects', '-F file=@invoice.pdf', '/documents/reprocess'])
      expect(all).toContain(step);
    // A placeholder (`prj_…`) cannot run: blocks that need one must capture the value instead.
    for (const b of blocks) expect(b.code, `${b.file} line ${b.line}`).not.toMatch(/\w_…/);
  });

  it('every other shell block of the docs says no-run (the Quick start aside)', () => {
    const others = readdirSync(DOCS).filter((f) => f.endsWith('.md') && !WALK.includes(f));
    expect(others).toContain('operations.md');
    const unchecked = others.flatMap((f) =>
      sectionBlocks(readFileSync(join(DOCS, f), 'utf8'))
        .filter(runnable)
        .map((b) => `docs/${f} line ${b.line}`),
    );
    const readme = readFileSync(README, 'utf8');
    const quickStart = new Set(sectionBlocks(readme, '## Quick start').map((b) => b.line));
    unchecked.push(
      ...sectionBlocks(readme)
        .filter((b) => runnable(b) && !quickStart.has(b.line))
        .map((b) => `README.md line ${b.line}`),
    );
    expect(unchecked).toEqual([]);
  });

  it('runs every block in order, each request succeeding', async () => {
    const blocks = walkBlocks();
    const script = [
      'set -euo pipefail',
      // Every HTTP error fails the step (and shows the answer).
      'curl() { command curl --fail-with-body --show-error "$@"; }',
      ...blocks.map(
        (b) =>
          `echo "--- ${b.file} line ${b.line}" >&2\n${b.code.replaceAll('http://localhost:8000', `http://127.0.0.1:${port}`)}`,
      ),
    ].join('\n');
    const res = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const bash = spawn('bash', ['-c', script], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      bash.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      bash.stderr.on('data', (c: Buffer) => {
        err += c.toString();
      });
      const timer = setTimeout(() => bash.kill('SIGKILL'), 240_000);
      bash.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out, err });
      });
    });
    expect(
      res.code,
      `walk-through failed:\n${res.err.slice(-3000)}\n--- stdout:\n${res.out.slice(-3000)}\n--- server:\n${serverErr.slice(-2000)}`,
    ).toBe(0);

    // What it did is there: the project with the uploaded, corrected and processed document.
    const login = (await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'you@example.com', password: 'a long password' }),
    }).then((r) => r.json())) as { data: { accessToken: string } };
    const auth = { authorization: `Bearer ${login.data.accessToken}` };
    const projects = (await fetch(`http://127.0.0.1:${port}/api/v1/projects`, { headers: auth }).then((r) =>
      r.json(),
    )) as { data: { id: string; name: string }[] };
    const invoices = projects.data.find((p) => p.name === 'Invoices');
    expect(invoices).toBeDefined();
    const docs = (await fetch(`http://127.0.0.1:${port}/api/v1/projects/${invoices!.id}/documents`, {
      headers: auth,
    }).then((r) => r.json())) as {
      data: {
        filename: string;
        metadata: Record<string, unknown>;
        classification: { type: string; confirmed: boolean } | null;
      }[];
    };
    expect(docs.data).toHaveLength(1);
    expect(docs.data[0]).toMatchObject({
      filename: 'invoice.pdf',
      metadata: { source: 'scanner-3' },
      classification: { type: 'receipt', confirmed: true },
    });
    const keys = (await fetch(`http://127.0.0.1:${port}/api/v1/api-keys`, { headers: auth }).then((r) => r.json())) as {
      data: { name: string; allowed_ips: string[] }[];
    };
    expect(keys.data.map((k) => k.name).sort()).toEqual(['reporting', 'scripts']);
  }, 300_000);
});
