// Starts a throwaway redis-server child process (no persistence unless asked) for tests and
// benchmarks that must not depend on a pre-started Redis.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './net.js';

export interface PrivateRedis {
  url: string;
  port: number;
  dir: string;
  /** The server's process id (for CPU accounting in benchmarks). */
  pid(): number | undefined;
  /** Stops the server (SIGKILL when `hard`, simulating a crash). */
  stop(hard?: boolean): Promise<void>;
  /** Starts it again on the same port and data dir (AOF keeps data when `appendonly`). */
  restart(): Promise<void>;
}

export async function startPrivateRedis(opts: { appendonly?: boolean } = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'docpipe-redis-'));
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        opts.appendonly ? 'yes' : 'no',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    child.on('error', () => undefined);
    await waitForPort(port);
  };
  await launch();
  const stop = async (hard = false): Promise<void> => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill(hard ? 'SIGKILL' : 'SIGTERM');
    });
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    pid: () => child?.pid,
    stop: async (hard?: boolean) => {
      await stop(hard);
      if (!hard) rmSync(dir, { recursive: true, force: true });
    },
    restart: async () => {
      await stop(true);
      await launch();
    },
  };
}
