// Starts a real three-master Redis Cluster on free loopback ports in a temporary directory (no
// persistence), for tests that must run against a cluster. Skips (returns null) when redis-server
// or redis-cli is missing, with the reason.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisClusterHandle {
  /** `redis+cluster://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3` */
  url: string;
  ports: number[];
  stop(): Promise<void>;
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

function cli(port: number, ...args: string[]): string {
  const r = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`redis cluster: timed out waiting for ${what}`);
    await sleep(100);
  }
}

export function clusterToolsMissing(): string | null {
  for (const bin of ['redis-server', 'redis-cli'])
    if (spawnSync(bin, ['--version']).status !== 0) return `${bin} not found on PATH`;
  return null;
}

export async function startRedisCluster(): Promise<RedisClusterHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'docpipe-redis-cluster-'));
  const ports: number[] = [];
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode !== null ? undefined : new Promise((r) => c.once('exit', r)))));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i++) {
      // The cluster bus listens on port + 10000: pick ports whose bus port is free as well.
      let p = await freePort();
      while (p > 55_000) p = await freePort();
      ports.push(p);
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(p),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${p}.conf`,
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          dir,
        ],
        { stdio: 'ignore' },
      );
      children.push(child);
    }
    for (const p of ports) await until(`node ${p}`, () => cli(p, 'ping').includes('PONG'));
    const created = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
      { encoding: 'utf8' },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    for (const p of ports)
      await until(`cluster_state:ok on ${p}`, () => cli(p, 'cluster', 'info').includes('cluster_state:ok'));
    return { url: `redis+cluster://${ports.map((p) => `127.0.0.1:${p}`).join(',')}`, ports, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
