// Template choice with the literal prefilter and shared prepared texts must choose exactly what
// testing every keyword regex on every fully prepared text chooses.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileUserRegex } from '../../../src/lib/user-regex/index.js';
import {
  evaluateTemplates,
  matchTemplate,
  parseTemplateYaml,
  prepareText,
  rankMatches,
  type TemplateDef,
} from '../../../src/pipeline/extract/index.js';
import {
  PreparedTexts,
  ruleCannotCreate,
  ruledOut,
  templatePlan,
} from '../../../src/pipeline/extract/template-select.js';
import { bundledTemplateFiles, corporaDir, loadGolden } from '../../helpers/invoice2data-golden.js';
import { loadSroie } from '../../helpers/extraction-dev.js';
import { pick, randomPattern, randomText, rng } from '../../helpers/random-patterns.js';

/** The choice without any shortcut: every keyword of every template on its fully prepared text. */
const reference = (templates: TemplateDef[], text: string): TemplateDef | null =>
  rankMatches(evaluateTemplates(templates, text, { full: true }))[0] ?? null;

const REPLACEMENTS = ['', 'a', 'b', ' ', 'A.', '\\1', '\\g<0>', '\\1b', 'a\\1', '\\2\\1', '\\1 \\2', '€', ','];
const RULE_SHAPES: Array<[string, string]> = [
  ['B.W', 'BTW'],
  [', ', ','],
  ['é', '€'],
  ['\\n', ' '],
  ['0x2B', ''],
  ['(\\s)(\\d+)\\.(\\d)', '\\1\\2,\\3'],
  ['(a)(b)', '\\2\\1'],
  ['(a)x?(b)', '\\1\\2'],
  ['(?P<n>\\d)[.]', '\\g<n>L)'],
  ['a+', '[\\g<0>]'],
  ['\\s-\\s', '1'],
  ['(?i)k', 's'],
  ['b', 'ab'],
];

function randomTemplate(r: () => number, i: number): TemplateDef {
  const replace: Array<[string, string]> = [];
  const rules = Math.floor(r() * 4);
  for (let k = 0; k < rules; k++)
    replace.push(r() < 0.5 ? pick(r, RULE_SHAPES) : [randomPattern(r, 1 + Math.floor(r() * 3)), pick(r, REPLACEMENTS)]);
  const keywords = Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomPattern(r, 1 + Math.floor(r() * 3)));
  return {
    issuer: `t${i}`,
    name: `t${i}`,
    keywords,
    fields: {},
    priority: Math.floor(r() * 3),
    ...(r() < 0.2 ? { exclude_keywords: [randomPattern(r, 1)] } : {}),
    options: { replace, ...(r() < 0.15 ? { remove_whitespace: true } : {}), ...(r() < 0.1 ? { lowercase: true } : {}) },
  } as TemplateDef;
}

describe('template choice with the literal prefilter', () => {
  it('only rules out templates whose keyword really is missing after preparation (random templates and texts)', () => {
    const r = rng(3);
    let ruled = 0;
    for (let n = 0; n < 1500; n++) {
      const t = randomTemplate(r, n);
      for (let k = 0; k < 4; k++) {
        const text = randomText(r, 10 + Math.floor(r() * 40));
        const texts = new PreparedTexts(text);
        const prepared = prepareText(text, t.options);
        const absent = ruledOut(t, texts);
        if (absent !== null) {
          ruled++;
          const kw = compileUserRegex(t.keywords[absent]);
          expect(
            kw.ok && kw.regex.test(prepared),
            `${JSON.stringify(t.keywords[absent])} after ${JSON.stringify(t.options?.replace)} on ${JSON.stringify(text)}`,
          ).toBe(false);
        }
        expect(texts.text(t)).toBe(prepared);
      }
    }
    expect(ruled).toBeGreaterThan(1000);
  });

  it('chooses what testing every keyword chooses (random template sets)', () => {
    const r = rng(17);
    for (let n = 0; n < 150; n++) {
      const templates = Array.from({ length: 12 }, (_, i) => randomTemplate(r, i));
      for (let k = 0; k < 8; k++) {
        const text = randomText(r, 20 + Math.floor(r() * 60));
        expect(matchTemplate(templates, text)?.name ?? null).toBe(reference(templates, text)?.name ?? null);
      }
    }
  });

  it('knows which replace rules cannot create a literal', () => {
    expect(ruleCannotCreate(['B.W', 'BTW'], 'BP', false)).toBe(true);
    expect(ruleCannotCreate(['B.W', 'BTW'], 'TW', false)).toBe(false);
    expect(ruleCannotCreate(['B.W', 'BTW'], 'WA', false)).toBe(false); // "BTW" + "A…"
    expect(ruleCannotCreate(['0x2B', ''], 'Shell', false)).toBe(false); // a deletion joins text
    expect(ruleCannotCreate(['(\\s)([0-9]+)\\.([0-9]{2})(\\s)', '\\1\\2,\\3\\4'], 'NL8010', false)).toBe(true); // groups copied in place
    expect(ruleCannotCreate(['(\\s)([0-9]+)\\.([0-9]{2})(\\s)', '\\1\\2,\\3\\4'], '1,5', false)).toBe(false);
    expect(ruleCannotCreate(['(a)x(b)', '\\1\\2'], 'ab', false)).toBe(false); // a dropped middle joins the groups
    // Reordered groups: the text before the match now touches group 2, so only characters a
    // match cannot hold are safe.
    expect(ruleCannotCreate(['(a)(b)', '\\2-\\1'], 'xb', false)).toBe(false);
    expect(ruleCannotCreate(['(a)(b)', '\\2-\\1'], 'xy', false)).toBe(true);
    expect(ruleCannotCreate(['é', '€'], '€', false)).toBe(false);
    expect(ruleCannotCreate(['Contant', 'CONTANT'], 'tango', true)).toBe(false); // folded, "contant" overlaps "tango"
    expect(ruleCannotCreate(['Contant', 'CONTANT'], 'shell', true)).toBe(true);
  });

  it('tests a rule against the text only when a check depends on it', () => {
    const t = {
      issuer: 'x',
      name: 'x',
      keywords: ['BTW', 'Acme'],
      fields: {},
      options: { replace: [['B.W', 'BTW']] },
    } as unknown as TemplateDef;
    expect(templatePlan(t).checks.map((c) => [c.literal, c.unsafeUpTo])).toEqual([
      ['Acme', -1],
      ['BTW', 0],
    ]);
    // "B W" becomes "BTW": the BTW check cannot be used, so the regexes decide.
    expect(ruledOut(t, new PreparedTexts('Acme B W 21%'))).toBeNull();
    expect(ruledOut(t, new PreparedTexts('Acme, no tax'))).toBe(0);
    expect(ruledOut(t, new PreparedTexts('B W'))).toBe(1);
  });
});

const CORPUS = resolve(corporaDir(), 'dev');
const present = existsSync(resolve(CORPUS, 'invoice2data'));
if (!present) console.warn(`extract/template-select: corpus part skipped, ${CORPUS} is not present`);

describe.skipIf(!present)('template choice on the development corpus', () => {
  it("chooses what testing every keyword chooses, for every document and invoice2data's bundled templates", () => {
    const templates = bundledTemplateFiles(CORPUS).flatMap((f) => {
      const r = parseTemplateYaml(f.content, { name: f.name });
      return r.ok ? r.templates : [];
    });
    const golden = loadGolden(CORPUS);
    const goldenTemplates = [...golden.custom, ...golden.extra].flatMap((c) =>
      c.templates.flatMap((t) => {
        const r = parseTemplateYaml(t.content, { name: t.name });
        return r.ok ? r.templates : [];
      }),
    );
    const all = [...templates, ...goldenTemplates];
    const texts = [...loadSroie(CORPUS).map((d) => d.text), ...[...golden.custom, ...golden.extra].map((c) => c.text)];
    let matched = 0;
    for (const text of texts) {
      const chosen = matchTemplate(all, text);
      expect(chosen?.name ?? null).toBe(reference(all, text)?.name ?? null);
      if (chosen) matched++;
    }
    expect(matched).toBeGreaterThan(0);
  });
});
