// The README's "Quick start" and the guides that follow it run as written: the `sh` blocks of the
// Quick start, then of docs/api.md and the guides that continue it (WALK, in this order) — all but
// those marked `no-run` in their info string: `npm install`/`npm start`, which this test stands in
// for by starting the server itself, and the alternatives to setup — are run in one bash, in a
// folder holding the repository's `samples/`, against a started `docpipe start` with no user
// yet. A `sh` block anywhere else in the README or docs/ must say `no-run`, so no command goes
// unchecked by accident. The only changes made to them are the server's address (and its SMTP
// receiver's, `smtp://localhost:2525`) and `npx docpipe`, which runs the CLI from the sources with
// the server's DATA_DIR; every curl fails on an HTTP error (--fail-with-body) and bash stops at
// the first failure. The server receives mail for INBOUND_DOMAIN and watches WATCH_DIR (which the
// shell has too), as docs/email.md and docs/intake.md set it up.
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from '../../helpers/fake-google.js';
import { freePort } from '../../helpers/net.js';
import { tinyModelDir } from '../../helpers/pipeline.js';
import { serviceAccountKey } from '../../helpers/sheets-harness.js';
import { pgliteDataDirAt } from '../../helpers/webhooks-harness.js';

const ENTRY = fileURLToPath(new URL('../../helpers/run-ts.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('./fixtures/cli-main.ts', import.meta.url));
const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const SAMPLES = fileURLToPath(new URL('../../../samples', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));
/** The guides whose blocks continue the Quick start's and one another, in the order they are run. */
/** The spreadsheet id docs/sheets.md uses. */
const SPREADSHEET = '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const WALK = ['api', 'documents', 'webhooks', 'email', 'intake', 'sheets', 'workflows', 'reports', 'cli'].map(
  (n) => `${n}.md`,
);

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

const runnable = (b: Block) =>
  ['sh', 'bash', 'shell'].includes(b.info.split(/\s+/)[0]) && !b.info.split(/\s+/).includes('no-run');

type Located = Block & { file: string };
const readme = () => readFileSync(README, 'utf8');

/** The walk-through's blocks in order, each labelled with its file. */
function walkBlocks(): Located[] {
  return [
    ...sectionBlocks(readme(), '## Quick start')
      .filter(runnable)
      .map((b) => ({ ...b, file: 'README.md' })),
    ...WALK.flatMap((file) =>
      sectionBlocks(readFileSync(join(DOCS, file), 'utf8'))
        .filter(runnable)
        .map((b) => ({ ...b, file: `docs/${file}` })),
    ),
  ];
}

describe('walk-through (README Quick start, docs/api.md and the guides that continue it) against a started server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'docpipe-readme-'));
  const work = mkdtempSync(join(tmpdir(), 'docpipe-readme-work-'));
  let port: number;
  let smtpPort: number;
  let google: FakeGoogle | undefined;
  let server: ChildProcess | undefined;
  let serverErr = '';
  let serverEnv: Record<string, string> = {};

  beforeAll(async () => {
    await pgliteDataDirAt(join(dataDir, 'db'));
    mkdirSync(join(dataDir, 'secrets'), { recursive: true });
    port = await freePort();
    smtpPort = await freePort();
    // docs/sheets.md's commands: Google is the test suite's stand-in, with the guide's spreadsheet
    // and the service account's key file where the guide downloads it.
    google = await startFakeGoogle();
    google.spreadsheets.create(SPREADSHEET, ['Invoices', 'Archive']);
    const key = serviceAccountKey(google, 'docpipe-export@acme-books.iam.gserviceaccount.com');
    writeFileSync(join(work, 'acme-books-1a2b3c4d5e6f.json'), JSON.stringify(key, null, 2));
    const env: Record<string, string> = {
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
      SMTP_PORT: String(smtpPort),
      INBOUND_DOMAIN: 'in.example.com',
      WATCH_DIR: join(dataDir, 'watch'),
      WATCH_STABLE_MS: '300',
      WATCH_POLL_MS: '200',
      GOOGLE_API_ROOT_URL: google.rootUrl,
      GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
    };
    // No bootstrap user: the quick start creates the owner through setup.
    for (const k of ['BOOTSTRAP_ADMIN_EMAIL', 'BOOTSTRAP_ADMIN_PASSWORD', 'BOOTSTRAP_ORG_NAME']) delete env[k];
    serverEnv = env;
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
    // The walk-through uploads `samples/*.pdf` from the clone's folder.
    symlinkSync(SAMPLES, join(work, 'samples'));
  }, 180_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    await google?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it('finds the walk-through: setup, the samples, login, key, project and upload steps are in blocks it runs', () => {
    const quick = sectionBlocks(readme(), '## Quick start');
    // The blocks it does not run are the ones it stands in for or that would make a second owner.
    expect(quick.find((b) => !runnable(b))?.code).toContain('npm start');
    const blocks = walkBlocks();
    const all = blocks.map((b) => b.code).join('\n');
    for (const step of [
      '/setup',
      'npx docpipe ingest samples/invoice.pdf samples/receipt-scan.pdf samples/contract.pdf',
      'npx docpipe admin',
      '/auth/login',
      '/api-keys',
      '/projects',
      '-F file=@samples/invoice.pdf',
      '/documents/reprocess',
      'smtp://localhost:2525',
      '/inbound-address/rotate',
      '$WATCH_DIR/$SCANS',
      '/integrations/sheets/exports',
    ])
      expect(all).toContain(step);
    // Every command runs from a clone: the CLI through npx, not a global `docpipe`.
    for (const b of blocks) expect(b.code, `${b.file} line ${b.line}`).not.toMatch(/^(?!npx )\s*docpipe /m);
    // A placeholder (`prj_…`) cannot run: blocks that need one must capture the value instead.
    // (A comment may show what a value looks like.)
    for (const b of blocks) expect(b.code.replace(/#.*$/gm, ''), `${b.file} line ${b.line}`).not.toMatch(/\w_…/);
  });

  it('every other shell block of the README and docs/ says no-run', () => {
    const others = readdirSync(DOCS).filter((f) => f.endsWith('.md') && !WALK.includes(f));
    expect(others).toContain('operations.md');
    const unchecked = others.flatMap((f) =>
      sectionBlocks(readFileSync(join(DOCS, f), 'utf8'))
        .filter(runnable)
        .map((b) => `docs/${f} line ${b.line}`),
    );
    const quickStart = new Set(sectionBlocks(readme(), '## Quick start').map((b) => b.line));
    unchecked.push(
      ...sectionBlocks(readme())
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
      // `npx docpipe ARGS` as in a clone, from the sources: the test's CLI entry takes its argv as JSON.
      `npx() { [ "$1" = docpipe ] || { echo "unexpected npx $1" >&2; return 127; }; shift;` +
        ` node ${JSON.stringify(ENTRY)} ${JSON.stringify(CLI)}` +
        ` "$(node -e 'process.stdout.write(JSON.stringify({argv: process.argv.slice(1)}))' -- "$@")"; }`,
      ...blocks.map(
        (b) =>
          `echo "--- ${b.file} line ${b.line}" >&2\n${b.code
            .replaceAll('http://localhost:8000', `http://127.0.0.1:${port}`)
            .replaceAll('smtp://localhost:2525', `smtp://127.0.0.1:${smtpPort}`)}`,
      ),
    ].join('\n');
    const res = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const bash = spawn('bash', ['-c', script], {
        cwd: work,
        env: { ...serverEnv, DOCPIPE_URL: `http://127.0.0.1:${port}` },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
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
    // The quick start's three samples, the scanned receipt read by OCR.
    const first = projects.data.find((p) => p.name === 'First steps');
    expect(first).toBeDefined();
    const samples = (await fetch(`http://127.0.0.1:${port}/api/v1/projects/${first!.id}/documents`, {
      headers: auth,
    }).then((r) => r.json())) as { data: { id: string; filename: string; status: string }[] };
    expect(samples.data.map((d) => d.filename).sort()).toEqual(['contract.pdf', 'invoice.pdf', 'receipt-scan.pdf']);
    for (const d of samples.data) expect(['completed', 'needs_review'], d.filename).toContain(d.status);
    const receipt = samples.data.find((d) => d.filename === 'receipt-scan.pdf')!;
    const text = await fetch(`http://127.0.0.1:${port}/api/v1/documents/${receipt.id}/text`, { headers: auth }).then(
      (r) => r.text(),
    );
    expect(text).toMatch(/CORNER CAFE/i);
    expect(text).toContain('18.30');

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
    // The e-mailed invoice (docs/email.md) and the scan dropped into the watched folder (docs/intake.md).
    const docsOf = async (name: string) => {
      const p = projects.data.find((x) => x.name === name);
      expect(p, name).toBeDefined();
      return (
        (await fetch(`http://127.0.0.1:${port}/api/v1/projects/${p!.id}/documents`, { headers: auth }).then((r) =>
          r.json(),
        )) as { data: { filename: string; source: string; source_metadata: Record<string, any> }[] }
      ).data;
    };
    const mailed = await docsOf('Supplier mail');
    expect(mailed.map((d) => [d.filename, d.source])).toEqual([['invoice.pdf', 'email']]);
    expect(mailed[0].source_metadata.smtp.header_from).toContain('billing@vendor.example');
    expect((await docsOf('Scans')).map((d) => d.filename)).toEqual(['receipt-scan.pdf']);
    // The invoice went to the spreadsheet (docs/sheets.md), under the guide's headers.
    const rows = google!.spreadsheets.getValues(SPREADSHEET, 'Invoices');
    expect(rows[0]).toEqual(['File', 'Invoice number', 'Total', 'docpipe_row_key']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['invoice.pdf']);
    const keys = (await fetch(`http://127.0.0.1:${port}/api/v1/api-keys`, { headers: auth }).then((r) => r.json())) as {
      data: { name: string; allowed_ips: string[] }[];
    };
    expect(keys.data.map((k) => k.name).sort()).toEqual(['ci', 'first steps', 'reporting', 'scripts']);
  }, 300_000);
});
