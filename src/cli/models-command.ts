// `docpipe models list | install`: the embedding models in the model folder (EMBEDDING_MODEL_DIR,
// default DATA_DIR/models) and which one the configuration uses; installing copies a
// transformers.js model folder in (or, given a model id, downloads it), proves that it loads and
// embeds, and only then puts it in place: a broken copy never replaces a working model.
import { cp, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { createTransformersEmbedder } from '../pipeline/embed/index.js';
import { missingModelFiles } from '../pipeline/embed/model-files.js';
import { parseCommand } from './usage.js';

export interface InstalledModel {
  id: string;
  dir: string;
  dims: number | null;
  /** Which weight files are there: fp32 (onnx/model.onnx), q8 (onnx/model_quantized.onnx). */
  weights: string[];
  bytes: number;
}

export const modelDir = (config: Pick<Config, 'EMBEDDING_MODEL_DIR' | 'dataDir'>): string =>
  resolve(config.EMBEDDING_MODEL_DIR ?? join(config.dataDir, 'models'));

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? await folderBytes(p) : (await stat(p)).size;
  }
  return total;
}

/** A model folder's description, or null when `dir` holds no model (no config.json). */
async function describe(root: string, id: string): Promise<InstalledModel | null> {
  const dir = join(root, id);
  let config: { hidden_size?: number; dim?: number };
  try {
    config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as typeof config;
  } catch {
    return null;
  }
  const weights: string[] = [];
  if (await exists(join(dir, 'onnx', 'model.onnx'))) weights.push('fp32');
  if (await exists(join(dir, 'onnx', 'model_quantized.onnx'))) weights.push('q8');
  return { id, dir, dims: config.hidden_size ?? config.dim ?? null, weights, bytes: await folderBytes(dir) };
}

/** Models under `root`: `<root>/<name>` and `<root>/<owner>/<name>` (ids as `owner/name`). */
export async function listModels(root: string): Promise<InstalledModel[]> {
  const out: InstalledModel[] = [];
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const e of entries
    .filter((x) => x.isDirectory() && !x.name.startsWith('.'))
    .sort((a, b) => a.name.localeCompare(b.name))) {
    const direct = await describe(root, e.name);
    if (direct) {
      out.push(direct);
      continue;
    }
    for (const sub of (await readdir(join(root, e.name), { withFileTypes: true })).filter((x) => x.isDirectory()))
      out.push(...[await describe(root, `${e.name}/${sub.name}`)].filter((m): m is InstalledModel => m !== null));
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;

async function list(config: Config, print: (s: string) => void): Promise<number> {
  const root = modelDir(config);
  const models = await listModels(root);
  print(`Model folder: ${root}`);
  print(`Configured model (EMBEDDING_MODEL): ${config.EMBEDDING_MODEL}`);
  if (models.length === 0) print('No models installed.');
  for (const m of models)
    print(
      `${m.id === config.EMBEDDING_MODEL ? '* ' : '  '}${m.id}  ${m.dims ?? '?'} dims  ${m.weights.join('+') || 'no weights'}  ${mb(m.bytes)}${m.id === config.EMBEDDING_MODEL ? '  (in use)' : ''}`,
    );
  if (!models.some((m) => m.id === config.EMBEDDING_MODEL)) {
    const missing = await missingModelFiles([join(root, config.EMBEDDING_MODEL)], 'fp32');
    print(
      `The configured model is not installed (missing: ${missing.join(', ')}). ` +
        (config.ALLOW_MODEL_DOWNLOAD
          ? 'It is downloaded on first use (ALLOW_MODEL_DOWNLOAD=true), or run: docpipe models install PATH|ID'
          : 'Downloads are off: docpipe models install PATH'),
    );
  }
  return 0;
}

async function install(config: Config, args: string[], print: (s: string) => void): Promise<number> {
  const { values, positionals } = parseCommand('models install', args);
  const source = positionals[0];
  if (!source || positionals.length > 1)
    throw new Error('Give one model folder or model id: docpipe models install PATH|ID [--id ID]');
  const root = modelDir(config);
  await mkdir(root, { recursive: true });
  const isFolder = await exists(source);
  // A folder named like the configured model (all-MiniLM-L6-v2 for Xenova/all-MiniLM-L6-v2)
  // installs as that model, so it is in use without further configuration.
  const fromFolder = basename(resolve(source));
  const id =
    values.id ??
    (isFolder ? (basename(config.EMBEDDING_MODEL) === fromFolder ? config.EMBEDDING_MODEL : fromFolder) : source);
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(id) || id.split('/').some((p) => p === '.' || p === '..'))
    throw new Error(`Model id "${id}" must be NAME or OWNER/NAME (letters, digits, . _ -)`);

  const staging = join(root, `.installing-${process.pid}-${Date.now()}`);
  const target = join(root, id);
  try {
    if (isFolder) {
      const missing = await missingModelFiles([resolve(source)], 'fp32');
      const missingQ8 = await missingModelFiles([resolve(source)], 'q8');
      if (missing.length && missingQ8.length)
        throw new Error(`${source} is not a transformers.js model folder: missing ${missing.join(', ')}`);
      await cp(resolve(source), join(staging, id), { recursive: true });
    } else {
      print(`${source} is not a folder: downloading model "${id}"…`);
    }
    // Load and embed from the staging copy (or download into it): what is installed is proven.
    const started = Date.now();
    const dtype = (await exists(join(staging, id, 'onnx', 'model.onnx'))) || !isFolder ? 'fp32' : 'q8';
    const embedder = await createTransformersEmbedder({
      modelId: id,
      modelDir: staging,
      allowDownload: !isFolder,
      dtype,
      threads: 1,
    });
    let dims: number;
    try {
      const [a, b] = await embedder.embed(['docpipe model check', 'A second, longer sentence to embed.']);
      dims = a.length;
      if (!dims || b.length !== dims || ![...a, ...b].every(Number.isFinite))
        throw new Error('the model returned vectors of the wrong shape or with non-numbers');
    } finally {
      await embedder.dispose?.();
    }
    const loadMs = Date.now() - started;
    // Into place: the old copy aside first, removed only once the new one is there.
    const old = `${staging}-old`;
    const hadOld = await exists(target);
    await mkdir(join(target, '..'), { recursive: true });
    if (hadOld) await rename(target, old);
    await rename(join(staging, id), target);
    if (hadOld) await rm(old, { recursive: true, force: true });
    print(`Installed ${id} (${dims} dims, ${dtype}) in ${target}; loaded and embedded in ${loadMs} ms.`);
    if (id === config.EMBEDDING_MODEL)
      print('It is the configured model: restart docpipe (or wait a minute) to use it.');
    else print(`To use it, set EMBEDDING_MODEL=${id} and restart docpipe.`);
    print(
      'Documents keep the vectors they have until reprocessed:\n' +
        '  docpipe reprocess --project ID --stage embed --missing   (documents without vectors)\n' +
        '  docpipe reprocess --project ID --stage embed --all       (documents embedded by another model)',
    );
    return 0;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Runs `docpipe models …`; returns the exit status. */
export async function runModelsCommand(
  config: Config,
  args: string[],
  print: (s: string) => void = (s) => console.log(s),
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'list') {
    parseCommand('models list', rest);
    return list(config, print);
  }
  if (sub === 'install') return install(config, rest, print);
  throw new Error(`Unknown models command "${sub ?? ''}": use docpipe models list | install PATH`);
}
