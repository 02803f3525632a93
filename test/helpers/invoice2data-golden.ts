// invoice2data's own test cases from the shared development corpus (never copied into the
// repository): the text of an invoice, the template that reads it and the output invoice2data
// produces. Used by the engine test and by `npm run bench -- quality`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/**
 * The shared evaluation corpora: `../shared/corpora` beside the repository, or DOCPIPE_CORPORA
 * (for a checkout elsewhere, such as a git worktree).
 */
export function corporaDir(): string {
  return process.env.DOCPIPE_CORPORA ?? resolve(import.meta.dirname, '../../../shared/corpora');
}

export interface GoldenCase {
  /** e.g. `custom/basic` or `pr415/lines-a`. */
  name: string;
  text: string;
  expected: Record<string, unknown>;
  /** Template files (name, content) that apply to this case. */
  templates: Array<{ name: string; content: string }>;
}

function templatesIn(dir: string): Array<{ name: string; content: string }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort()
    .map((f) => ({ name: f.replace(/\.(ya?ml|json)$/, ''), content: readFileSync(join(dir, f), 'utf8') }));
}

function casesIn(dir: string, prefix: string): GoldenCase[] {
  if (!existsSync(dir)) return [];
  const templates = templatesIn(join(dir, 'templates'));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .flatMap((f) => {
      const json = join(dir, f.replace(/\.txt$/, '.json'));
      if (!existsSync(json)) return [];
      const parsed = JSON.parse(readFileSync(json, 'utf8')) as unknown;
      const expected = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown>;
      return [
        { name: `${prefix}/${basename(f, '.txt')}`, text: readFileSync(join(dir, f), 'utf8'), expected, templates },
      ];
    });
}

/** `tests/custom` cases and, separately, the extra cases from unmerged pull requests. */
export function loadGolden(corpusDir: string): { custom: GoldenCase[]; extra: GoldenCase[] } {
  const root = join(corpusDir, 'invoice2data');
  return {
    custom: casesIn(join(root, 'tests', 'custom'), 'custom'),
    extra: [...casesIn(join(root, 'extra', 'pr415'), 'pr415'), ...casesIn(join(root, 'extra', 'pr478'), 'pr478')],
  };
}

/** Every template file bundled with invoice2data, with its path relative to the templates folder. */
export function bundledTemplateFiles(corpusDir: string): Array<{ path: string; name: string; content: string }> {
  const root = join(corpusDir, 'invoice2data', 'src', 'invoice2data', 'extract', 'templates');
  const out: Array<{ path: string; name: string; content: string }> = [];
  const walk = (dir: string, rel: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) walk(join(dir, e.name), `${rel}${e.name}/`);
      else if (/\.(ya?ml|json)$/.test(e.name))
        out.push({
          path: `${rel}${e.name}`,
          name: e.name.replace(/\.(ya?ml|json)$/, ''),
          content: readFileSync(join(dir, e.name), 'utf8'),
        });
    }
  };
  walk(root, '');
  return out;
}

/** invoice2data's output compared field by field (numbers within a cent's rounding, lists deeply). */
export function compareGolden(
  expected: Record<string, unknown>,
  got: Record<string, unknown>,
): Array<{ field: string; ok: boolean; expected: unknown; got: unknown }> {
  return Object.entries(expected).map(([field, want]) => ({
    field,
    ok: same(want, got[field]),
    expected: want,
    got: got[field],
  }));
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 1e-9;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}
