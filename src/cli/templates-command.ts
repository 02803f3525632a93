import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { createApiClient, errorText } from './http-client.js';
import { parseCommand, usageLines } from './usage.js';

const TEMPLATE_FILE = /\.(ya?ml|json)$/i;

async function templateFiles(dir: string): Promise<string[]> {
  const s = await stat(dir);
  if (s.isFile()) return [dir];
  const out: string[] = [];
  for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await templateFiles(p)));
    else if (e.isFile() && TEMPLATE_FILE.test(e.name)) out.push(p);
  }
  return out;
}

/**
 * `docpipe templates import-dir PATH [--dry-run]`: imports every YAML/JSON template file under
 * PATH, one request per file (a file's templates are stored all or nothing), then prints what
 * was imported and, for each refused file, why. Exit status 1 when any file was refused.
 */
async function importDir(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('templates import-dir', args);
  const root = positionals[0];
  if (!root || positionals.length > 1) throw new Error('Give one folder: docpipe templates import-dir PATH');
  const key = values.key ?? process.env.DOCPIPE_API_KEY;
  if (!key) throw new Error('An API key is needed: --key svc_… or DOCPIPE_API_KEY');
  const api = createApiClient(values.url ?? process.env.DOCPIPE_URL ?? 'http://localhost:8000', key);
  const files = await templateFiles(root);
  if (files.length === 0) throw new Error(`No .yml, .yaml or .json files under ${root}`);
  let templates = 0;
  let warnings = 0;
  const refused: Array<{ file: string; reasons: string[] }> = [];
  for (const file of files) {
    const rel = relative(root, file) || basename(file);
    const content = await readFile(file, 'utf8');
    const res = await api.call('POST', '/templates/import', {
      body: { yaml: content, name: basename(file).replace(TEMPLATE_FILE, ''), dry_run: values['dry-run'] ?? false },
    });
    if (res.status === 200 || res.status === 201) {
      const items = res.body.data;
      templates += items.length;
      const w = items[0]?.warnings ?? [];
      warnings += w.length;
      if (values.verbose) for (const x of w) console.log(`  warning: ${rel}: ${x.path} ${x.message}`);
    } else {
      const details = (res.body as { error?: { details?: Array<{ field: string; message: string }> } }).error?.details;
      refused.push({
        file: rel,
        reasons:
          Array.isArray(details) && details.length ? details.map((d) => `${d.field} ${d.message}`) : [errorText(res)],
      });
    }
  }
  const verb = values['dry-run'] ? 'would import' : 'imported';
  console.log(
    `${verb} ${templates} template(s) from ${files.length - refused.length} of ${files.length} file(s); ${refused.length} refused; ${warnings} warning(s)${values.verbose ? '' : ' (--verbose lists them)'}`,
  );
  for (const r of refused)
    console.log(
      `  refused: ${r.file}: ${r.reasons.slice(0, 5).join('; ')}${r.reasons.length > 5 ? `; and ${r.reasons.length - 5} more` : ''}`,
    );
  return refused.length > 0 ? 1 : 0;
}

export async function runTemplatesCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (sub === 'import-dir') return await importDir(rest);
    console.error(`Usage:\n${usageLines('templates')}`);
    return 2;
  } catch (err) {
    const usage = ((err as { code?: string }).code ?? '').startsWith('ERR_PARSE_ARGS')
      ? `\n\nUsage:\n${usageLines('templates import-dir')}`
      : '';
    console.error((err as Error).message + usage);
    return 2;
  }
}
