// Starts a real PgBouncer in transaction mode on a free loopback port in front of the test
// PostgreSQL, so tests can prove docpipe keeps no session state between transactions. Its pool
// of server connections is deliberately smaller than docpipe's pool of clients: consecutive
// transactions of one docpipe connection land on different server connections.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './net.js';

const CANDIDATES = ['pgbouncer', '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

function binary(): string | null {
  for (const bin of CANDIDATES) if (spawnSync(bin, ['--version']).status === 0) return bin;
  return null;
}

/** Why PgBouncer cannot be started here, or null. */
export function pgbouncerMissing(): string | null {
  return binary() ? null : 'pgbouncer not found (Debian package pgbouncer)';
}

/** PgBouncer's version as [major, minor]. */
export function pgbouncerVersion(): [number, number] {
  const out = spawnSync(binary() ?? 'pgbouncer', ['--version'], { encoding: 'utf8' }).stdout ?? '';
  const m = /PgBouncer (\d+)\.(\d+)/.exec(out);
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

/** 1.21 added prepared statements in transaction mode (`max_prepared_statements`). */
export function pgbouncerKeepsPreparedStatements(): boolean {
  const [major, minor] = pgbouncerVersion();
  return major > 1 || (major === 1 && minor >= 21);
}

export interface PgBouncerHandle {
  port: number;
  /** `postgres://postgres@127.0.0.1:PORT/<database>` through the pooler. */
  url(database: string): string;
  stop(): Promise<void>;
}

/**
 * `target` is host and port of PostgreSQL; every database name is passed through as the same
 * name there, logging in as `user` (trust on both sides).
 */
export async function startPgBouncer(opts: {
  host: string;
  port: number;
  user: string;
  serverPoolSize: number;
  preparedStatements: number;
}): Promise<PgBouncerHandle> {
  const bin = binary();
  if (!bin) throw new Error('pgbouncer not found');
  const dir = mkdtempSync(join(tmpdir(), 'docpipe-pgbouncer-'));
  // PgBouncer refuses to run as root; it then switches to `nobody`, who must read the files.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const ini = [
    '[databases]',
    `* = host=${opts.host} port=${opts.port} user=${opts.user}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    "unix_socket_dir = ''",
    'auth_type = any',
    'pool_mode = transaction',
    `default_pool_size = ${opts.serverPoolSize}`,
    'max_client_conn = 200',
    // node-postgres sends these at connect; a transaction pooler cannot keep them per client.
    'ignore_startup_parameters = extra_float_digits,options',
    ...(opts.preparedStatements > 0 ? [`max_prepared_statements = ${opts.preparedStatements}`] : []),
    'logfile =',
    'syslog = 0',
  ].join('\n');
  const iniPath = join(dir, 'pgbouncer.ini');
  writeFileSync(iniPath, `${ini}\n`, { mode: 0o644 });
  const args = process.getuid?.() === 0 ? ['-u', 'nobody', iniPath] : [iniPath];
  let stderr = '';
  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, 10_000);
  } catch (err) {
    await stop();
    throw new Error(`pgbouncer did not start: ${(err as Error).message}\n${stderr}`, { cause: err });
  }
  return { port, url: (db) => `postgres://${opts.user}@127.0.0.1:${port}/${db}`, stop };
}
