// The built CLI, as `docpipe` and `npx docpipe` run it: help, per-command help, and unknown
// flags refused with the command's usage. Builds dist/ first when it is missing or stale.
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/usage.js';
import { packageRoot } from '../../../src/lib/package-root.js';

const run = promisify(execFile);
const root = packageRoot();
const bin = join(root, 'dist/src/cli.js');

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, REDIS_URL: '' } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('docpipe --help (built CLI)', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: 'pipe' });
  }, 180_000);

  it('prints every usage line', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const spec of Object.values(COMMANDS)) expect(r.stdout).toContain(`docpipe ${spec.usage}`);
  });

  it('npx docpipe --help runs the project bin', async () => {
    const r = await run('npx', ['--no-install', 'docpipe', '--help'], { cwd: root });
    expect(r.stdout).toContain(`docpipe ${COMMANDS.ingest.usage}`);
  });

  it('COMMAND --help prints that command only; an unknown flag is refused with the usage', async () => {
    const h = await cli(['admin', 'create-api-key', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain(COMMANDS['admin create-api-key'].usage);
    expect(h.stdout).not.toContain('create-user');

    const bad = await cli(['api', '--queues', 'parse']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown option '--queues'/);
    expect(bad.stderr).toContain('docpipe api');

    const client = await cli(['ingest', '.', '--project', 'prj_x', '--wiat']);
    expect(client.code).toBe(2);
    expect(client.stderr).toMatch(/Unknown option '--wiat'/);
    expect(client.stderr).toContain(COMMANDS.ingest.usage);

    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
  });
});
