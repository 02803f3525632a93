// invoice2data compatibility on its own test cases (shared development corpus, read in place):
// every template imports, and every field of the expected output comes out of the engine.
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractFields, parseTemplateYaml, type TemplateDef } from '../../../src/pipeline/extract/index.js';
import { bundledTemplateFiles, compareGolden, corporaDir, loadGolden } from '../../helpers/invoice2data-golden.js';

const CORPUS = resolve(corporaDir(), 'dev');
const present = existsSync(resolve(CORPUS, 'invoice2data'));
if (!present) console.warn(`extract/invoice2data-golden: skipped, ${CORPUS} is not present`);

function load(templates: Array<{ name: string; content: string }>): TemplateDef[] {
  return templates.flatMap((t) => {
    const r = parseTemplateYaml(t.content, { name: t.name });
    if (!r.ok) throw new Error(`${t.name}: ${JSON.stringify(r.errors)}`);
    return r.templates;
  });
}

function values(fields: Record<string, { value: unknown }>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.value]));
}

describe.skipIf(!present)('invoice2data golden cases', () => {
  const golden = present ? loadGolden(CORPUS) : { custom: [], extra: [] };

  it.each(golden.custom.map((c) => [c.name, c] as const))('%s: every expected field', (_name, c) => {
    const r = extractFields({ text: c.text, type: 'invoice', templates: load(c.templates) });
    expect(r.method).toBe('template');
    const diff = compareGolden(c.expected, values(r.fields)).filter((d) => !d.ok);
    expect(diff).toEqual([]);
  });

  it.each(golden.extra.map((c) => [c.name, c] as const))(
    '%s (unmerged pull request): every expected field',
    (_name, c) => {
      const r = extractFields({ text: c.text, type: 'invoice', templates: load(c.templates) });
      const diff = compareGolden(c.expected, values(r.fields)).filter((d) => !d.ok);
      expect(diff).toEqual([]);
    },
  );

  it('imports every bundled template or refuses it with a reason', () => {
    const files = bundledTemplateFiles(CORPUS);
    expect(files.length).toBe(215);
    const refused = files.flatMap((f) => {
      const r = parseTemplateYaml(f.content, { name: f.name });
      return r.ok ? [] : [{ path: f.path, errors: r.errors }];
    });
    for (const r of refused) for (const e of r.errors) expect(e.message.length).toBeGreaterThan(10);
    console.log(
      `bundled templates: ${files.length - refused.length} imported, ${refused.length} refused:\n${refused.map((r) => `  ${r.path}: ${r.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`).join('\n')}`,
    );
  });
});
