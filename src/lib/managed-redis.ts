import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';

export class RedisNotFoundError extends Error {
  override readonly name = 'RedisNotFoundError';
  constructor() {
    super(
      'docpipe needs Redis 7 and REDIS_URL is not set, so it tried to start a private redis-server, ' +
        'but none was found on PATH. Install one (Debian/Ubuntu: `apt-get install redis-server`; macOS: ' +
        '`brew install redis`), or start one with `docker compose up -d redis`, or point REDIS_URL at ' +
        'an existing server (redis://host:6379).',
    );
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

async function waitFor(port: number, child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    const up = await new Promise<boolean>((r) => {
      const s = connect({ port, host: '127.0.0.1' });
      s.once('connect', () => {
        s.destroy();
        r(true);
      });
      s.once('error', () => r(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not start within 10 s');
}

/**
 * Runs a private redis-server for the all-in-one process: data in DATA_DIR/redis, AOF on,
 * noeviction (any eviction policy can drop BullMQ locks). It dies with the parent.
 */
export async function startManagedRedis(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  if (found.error || found.status !== 0) throw new RedisNotFoundError();
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      '--protected-mode',
      'yes',
    ],
    { stdio: 'ignore' },
  );
  const kill = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('exit', kill);
  await waitFor(port, child);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      process.off('exit', kill);
      if (child.exitCode !== null) return;
      await new Promise<void>((r) => {
        child.once('exit', () => r());
        child.kill('SIGTERM');
      });
    },
  };
}
