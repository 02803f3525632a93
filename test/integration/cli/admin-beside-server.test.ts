// The README's admin commands while `docpipe start` runs on the embedded database. PGlite is one
// process's database: a CLI that opened it beside the server used to print "Created user …" into
// a copy the server never saw and later overwrote. Now every command either takes effect in the
// running server (through its admin socket) or is refused, and nothing reported as done is lost —
// not when the server stops, and not when it is killed.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../src/db/client.js';
import { LOCK_FILE } from '../../../src/db/data-dir-lock.js';
import { freePort } from '../../helpers/net.js';
import { tinyModelDir } from '../../helpers/pipeline.js';
import { pgliteDataDirAt } from '../../helpers/webhooks-harness.js';

const ENTRY = fileURLToPath(new URL('../../helpers/run-ts.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('./fixtures/cli-main.ts', import.meta.url));

describe('docpipe admin beside a running server (embedded database)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'docpipe-cli-'));
  let env: Record<string, string>;
  let port: number;
  let server: ChildProcess | undefined;
  const email = `owner-${randomBytes(3).toString('hex')}@example.test`;
  const password = 'correct horse battery';

  beforeAll(async () => {
    await pgliteDataDirAt(join(dataDir, 'db')); // migrated already: skips initdb in every child
    mkdirSync(join(dataDir, 'secrets'), { recursive: true });
    port = await freePort();
    env = {
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
    };
  });
  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs one CLI command to completion. */
  function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    return new Promise((resolve) => {
      const child = fork(ENTRY, [CLI, JSON.stringify({ argv })], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
      let out = '';
      let err = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
      });
      child.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
      });
      child.on('exit', (code) => resolve({ code: code ?? -1, out, err }));
    });
  }

  async function startServer(): Promise<ChildProcess> {
    const child = fork(ENTRY, [CLI, JSON.stringify({ argv: ['start'] })], {
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
      const up = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return child;
      if (Date.now() > deadline) throw new Error(`server did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const stop = async (child: ChildProcess, signal: NodeJS.Signals) => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  };
  const api = (path: string, init: RequestInit = {}) => fetch(`http://127.0.0.1:${port}/api/v1${path}`, init);
  const login = () =>
    api('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
  const counts = (out: string) =>
    Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .map(([k, v]) => [k, Number(v)]),
    );

  it(
    'create-user, create-api-key and status take effect in the running server; migrate is refused',
    { timeout: 240_000 },
    async () => {
      server = await startServer();
      const socket = join(dataDir, 'run', 'admin.sock');
      expect(statSync(socket).mode & 0o777).toBe(0o600);
      expect(statSync(join(dataDir, 'run')).mode & 0o777).toBe(0o700);

      const user = await cli('admin', 'create-user', '--email', email, '--password', password, '--org', 'Acme');
      expect(user.code, user.err).toBe(0);
      expect(user.out).toContain(`Created user ${email}`);
      expect((await login()).status).toBe(200); // the server sees the user at once

      const key = await cli('admin', 'create-api-key', '--email', email, '--name', 'cli key');
      expect(key.code, key.err).toBe(0);
      const secret = key.out.trim().split('\n').pop()!;
      expect(secret).toMatch(/^svc_live_/);
      expect((await api('/projects', { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);

      const status = await cli('admin', 'status');
      expect(status.code, status.err).toBe(0);
      expect(counts(status.out)).toMatchObject({ organizations: 1, users: 1 });

      // Errors come back from the server as errors, and nothing half-done.
      const dup = await cli('admin', 'create-user', '--email', email, '--password', password, '--org', 'Other');
      expect(dup.code).toBe(1);
      expect(dup.err).toContain('already exists');

      const migrate = await cli('migrate');
      expect(migrate.code).toBe(1);
      expect(migrate.err).toMatch(/in use by another process \(pid \d+: docpipe start/);

      // A clean stop keeps everything, and frees the directory for the CLI.
      await stop(server, 'SIGTERM');
      expect(existsSync(join(dataDir, 'db', LOCK_FILE))).toBe(false);
      const after = await cli('admin', 'status');
      expect(after.code, after.err).toBe(0);
      expect(counts(after.out)).toMatchObject({ organizations: 1, users: 1 });
    },
  );

  it(
    'a killed server leaves no lock that blocks, and nothing reported as done is lost',
    { timeout: 240_000 },
    async () => {
      server = await startServer();
      const second = await cli(
        'admin',
        'create-user',
        '--email',
        `second-${email}`,
        '--password',
        password,
        '--org',
        'Beta',
      );
      expect(second.code, second.err).toBe(0);
      await stop(server, 'SIGKILL');
      expect(existsSync(join(dataDir, 'db', LOCK_FILE))).toBe(true); // left behind by the killed process

      const status = await cli('admin', 'status');
      expect(status.code, status.err).toBe(0);
      expect(counts(status.out)).toMatchObject({ organizations: 2, users: 2 });

      server = await startServer();
      expect((await login()).status).toBe(200);
      await stop(server, 'SIGTERM');
    },
  );

  it(
    'refuses, naming what to do, when the process holding the database does not answer',
    { timeout: 120_000 },
    async () => {
      // This test process holds the database without an admin socket (like a server still starting).
      const held = await createDb({ pgliteDir: join(dataDir, 'db') });
      try {
        const res = await cli(
          'admin',
          'create-user',
          '--email',
          `third-${email}`,
          '--password',
          password,
          '--org',
          'Gamma',
        );
        expect(res.code).toBe(1);
        expect(res.out).not.toContain('Created');
        expect(res.err).toContain(`in use by another process (pid ${process.pid}`);
        expect(res.err).toContain('nothing was done');
        expect(res.err).toContain('stop it and run the command again');
      } finally {
        await held.close();
      }
      const status = await cli('admin', 'status');
      expect(counts(status.out)).toMatchObject({ organizations: 2, users: 2 });
    },
  );
});
