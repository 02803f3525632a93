// `docpipe models list | install` through the built CLI, offline: a generated tiny model folder
// is installed (copied, loaded, embedded, then moved into place), listed as in use, and broken
// folders are refused without touching what is installed.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync, existsSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/lib/package-root.js';
import { generateTinyModel } from '../../helpers/tiny-model.js';

const run = promisify(execFile);
const root = packageRoot();
const bin = join(root, 'dist/src/cli.js');

describe('docpipe models (built CLI)', () => {
  const work = mkdtempSync(join(tmpdir(), 'docpipe-models-'));
  const modelsDir = join(work, 'models');
  const env = {
    ...process.env,
    REDIS_URL: '',
    DATA_DIR: join(work, 'data'),
    EMBEDDING_MODEL_DIR: modelsDir,
    EMBEDDING_MODEL: 'Xenova/all-MiniLM-L6-v2',
    ALLOW_MODEL_DOWNLOAD: 'false',
    LOG_LEVEL: 'silent',
  };
  const cli = async (args: string[]) => {
    try {
      const r = await run(process.execPath, [bin, ...args], { cwd: root, env });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  let source: string;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: 'pipe' });
    // A copy of "all-MiniLM-L6-v2" as a user would have it: the generated tiny model, 48 dims.
    const gen = join(work, 'gen');
    await generateTinyModel(gen, 'all-MiniLM-L6-v2', { hidden: 48 });
    source = join(gen, 'all-MiniLM-L6-v2');
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('lists nothing installed and says what the configured model needs', async () => {
    const r = await cli(['models', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Model folder: ${modelsDir}`);
    expect(r.stdout).toContain('No models installed.');
    expect(r.stdout).toContain('The configured model is not installed (missing: config.json');
    expect(r.stdout).toContain('docpipe models install PATH');
  });

  it('installs a model folder under the configured id after loading and embedding it', async () => {
    const r = await cli(['models', 'install', source]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Installed Xenova\/all-MiniLM-L6-v2 \(48 dims, fp32\)/);
    expect(r.stdout).toContain('It is the configured model');
    expect(r.stdout).toContain('docpipe reprocess --project ID --stage embed --all');
    expect(existsSync(join(modelsDir, 'Xenova/all-MiniLM-L6-v2/onnx/model.onnx'))).toBe(true);
    // No staging folder is left behind.
    expect(readdirSync(modelsDir).filter((f) => f.startsWith('.'))).toEqual([]);
    const list = await cli(['models', 'list']);
    expect(list.stdout).toMatch(/\* Xenova\/all-MiniLM-L6-v2 {2}48 dims {2}fp32\+q8 {2}[\d.]+ MB {2}\(in use\)/);
    expect(list.stdout).not.toContain('not installed');
  });

  it('installs under --id, and lists it beside the one in use', async () => {
    const r = await cli(['models', 'install', source, '--id', 'acme/minilm-copy']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('set EMBEDDING_MODEL=acme/minilm-copy');
    const list = await cli(['models', 'list']);
    expect(list.stdout).toMatch(/ {2}acme\/minilm-copy {2}48 dims/);
    expect(list.stdout).toMatch(/\* Xenova\/all-MiniLM-L6-v2/);
  });

  it('refuses a folder that is not a model, or one that does not load, leaving the installed model alone', async () => {
    const empty = join(work, 'empty');
    cpSync(source, empty, { recursive: true });
    rmSync(join(empty, 'onnx'), { recursive: true });
    const a = await cli(['models', 'install', empty, '--id', 'Xenova/all-MiniLM-L6-v2']);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('is not a transformers.js model folder: missing onnx/model.onnx');

    const corrupt = join(work, 'corrupt');
    cpSync(source, corrupt, { recursive: true });
    writeFileSync(join(corrupt, 'onnx', 'model.onnx'), 'not an onnx graph');
    const b = await cli(['models', 'install', corrupt, '--id', 'Xenova/all-MiniLM-L6-v2']);
    expect(b.code).toBe(1);
    expect(b.stdout).not.toContain('Installed');
    // The working copy is still there and still listed; nothing half-copied remains.
    const list = await cli(['models', 'list']);
    expect(list.stdout).toMatch(/\* Xenova\/all-MiniLM-L6-v2 {2}48 dims {2}fp32\+q8/);
    expect(readdirSync(modelsDir).filter((f) => f.startsWith('.'))).toEqual([]);

    const bad = await cli(['models', 'install', source, '--id', '../escape']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('must be NAME or OWNER/NAME');
    const flag = await cli(['models', 'install', source, '--nope']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('docpipe models install PATH|ID [--id ID]');
  });
});
