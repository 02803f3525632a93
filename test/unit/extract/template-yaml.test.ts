import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileUserRegex } from '../../../src/lib/user-regex/index.js';
import { parseTemplateYaml } from '../../../src/pipeline/extract/template-yaml.js';
import { validateTemplate } from '../../../src/pipeline/extract/template-validate.js';

const SAMPLES = join(dirname(fileURLToPath(import.meta.url)), '../../../samples/templates');

function errorsOf(yaml: string, strict = false): Array<{ path: string; message: string }> {
  const r = parseTemplateYaml(yaml, { strict });
  if (r.ok) throw new Error('expected errors');
  return r.errors;
}

describe('parseTemplateYaml', () => {
  it('imports every sample template', () => {
    const files = readdirSync(SAMPLES).filter((f) => f.endsWith('.yml'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const r = parseTemplateYaml(readFileSync(join(SAMPLES, file), 'utf8'), { name: file.replace(/\.yml$/, '') });
      expect(r, file).toMatchObject({ ok: true, warnings: [] });
    }
  });

  it('normalises the invoice2data shorthand forms', () => {
    const r = parseTemplateYaml(
      `
issuer: Shorthand Co
keywords: Shorthand Co
exclude_keywords: CREDIT NOTE
fields:
  amount: Total\\s+(\\d+\\.\\d{2})
  date: [Date:\\s*(\\S+), Datum:\\s*(\\S+)]
  static_vat: DE123
options:
  date_formats: '%d.%m.%Y'
  currency: €
required_fields: amount
`,
      { name: 'shorthand' },
    );
    expect(r).toEqual({
      ok: true,
      warnings: [],
      templates: [
        {
          name: 'shorthand',
          issuer: 'Shorthand Co',
          keywords: ['Shorthand Co'],
          exclude_keywords: ['CREDIT NOTE'],
          fields: {
            amount: 'Total\\s+(\\d+\\.\\d{2})',
            date: ['Date:\\s*(\\S+)', 'Datum:\\s*(\\S+)'],
            static_vat: 'DE123',
          },
          options: { date_formats: ['%d.%m.%Y'], currency: 'EUR' },
          required_fields: ['amount'],
        },
      ],
    });
  });

  it('reads a list of templates and multiple YAML documents, naming each by its issuer', () => {
    const list = parseTemplateYaml(
      '- {issuer: A, keywords: [a], fields: {x: a}}\n- {issuer: B, keywords: [b], fields: {x: b}, name: bee}\n',
      { name: 'ignored' },
    );
    expect(list.ok && list.templates.map((t) => t.name)).toEqual(['A', 'bee']);
    const docs = parseTemplateYaml(
      'issuer: A\nkeywords: [a]\nfields: {x: a}\n---\nissuer: B\nkeywords: [b]\nfields: {x: b}\n',
    );
    expect(docs.ok && docs.templates.map((t) => t.issuer)).toEqual(['A', 'B']);
  });

  it('reports YAML syntax errors with their position', () => {
    const errors = errorsOf('issuer: A\nkeywords: [a\nfields: {}\n');
    expect(errors[0].path).toBe('yaml');
    expect(errors[0].message).toMatch(/line \d+, column \d+/);
    // An unquoted regex with ": " inside is a YAML mistake users make; it is reported, not swallowed.
    expect(errorsOf('issuer: A\nkeywords: [a]\nfields:\n  amount: Total: (\\d+)\n')[0].path).toBe('yaml');
    // A key given twice keeps its last value, as PyYAML does, with a warning.
    const dup = parseTemplateYaml('issuer: A\nissuer: B\nkeywords: [a]\nfields: {x: a}\n');
    expect(dup).toMatchObject({
      ok: true,
      templates: [{ issuer: 'B' }],
      warnings: [{ path: 'yaml', message: expect.stringMatching(/appears twice/) }],
    });
  });

  it('types plain scalars as PyYAML does', () => {
    const r = parseTemplateYaml(
      "issuer: A\nkeywords: [a, 04080176, 'x']\nfields:\n  static_a: 0123\n  static_b: 2023-02-18\n  static_c: y\n  static_d: 1_000\noptions:\n  remove_accents: yes\n",
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.templates[0].keywords).toEqual(['a', '04080176', 'x']);
    expect(r.templates[0].fields).toEqual({ static_a: 83, static_b: '2023-02-18', static_c: 'y', static_d: 1000 });
    expect(r.templates[0].options?.remove_accents).toBe(true);
  });

  it('reports every structural problem with a path', () => {
    const doc = `
issuer: ''
keywords: []
priority: high
colour: blue
fields:
  amount:
    parser: regex
    regex: ['Total (\\d+', 'ok (\\d+)']
    type: money
    group: average
  date:
    parser: static
  lines_field:
    parser: lines
    start: Items
    line: '(\\d+) (.*)'
  9bad: x
  weird: 12
  ahead: 'Total(?= EUR)'
lines:
  - start: A
    end: B
    line: '(?P<x>\\d+)'
    skip_line: ['[']
    types: {x: decimal}
options:
  decimal_separator: ';'
  date_formats: ['%d.%m', '%Y-%m-%d']
  replace: [['(', 'x'], 'nope']
  lowercase: 'yes'
  languages: [english]
  colour: red
required_fields: [1]
`;
    const errors = errorsOf(doc, true);
    const byPath = Object.fromEntries(errors.map((e) => [e.path, e.message]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        'issuer',
        'keywords',
        'priority',
        'colour',
        'fields.amount.regex[0]',
        'fields.amount.type',
        'fields.amount.group',
        'fields.date.value',
        'fields.lines_field.end',
        'fields.9bad',
        'fields.weird',
        'fields.ahead',
        'lines[0].skip_line[0]',
        'lines[0].types.x',
        'options.decimal_separator',
        'options.date_formats[0]',
        'options.replace[0][0]',
        'options.replace[1]',
        'options.lowercase',
        'options.languages[0]',
        'options.colour',
        'required_fields',
      ].sort(),
    );
    expect(byPath['fields.ahead']).toMatch(/lookahead .* not supported by the linear-time regex engine/);
    expect(byPath['colour']).toBe('unknown key');
    // Imported as invoice2data reads it, what invoice2data tolerates is a warning instead.
    const lenient = errorsOf(doc).map((e) => e.path);
    for (const p of ['colour', 'options.colour', 'fields.weird', 'options.lowercase', 'options.date_formats[0]'])
      expect(lenient).not.toContain(p);
    expect(lenient).toContain('fields.ahead');
  });

  it('prefixes paths with the template index in a list', () => {
    const errors = errorsOf('- {issuer: A, keywords: [a], fields: {x: a}}\n- {issuer: B, fields: {x: "("}}\n');
    expect(errors.map((e) => e.path).sort()).toEqual(['[1].fields.x', '[1].keywords']);
  });

  it('accepts invoice2data tables and input_module, and rejects non-mappings', () => {
    const r = parseTemplateYaml(
      'issuer: A\nkeywords: [a]\nfields: {x: a}\ninput_module: pdftotext\ntables:\n  - {start: S, end: E, body: "(?P<a>\\\\d)"}\n',
    );
    expect(r).toMatchObject({
      ok: true,
      templates: [{ tables: [{ start: 'S', end: 'E' }] }],
      warnings: [{ path: 'input_module', message: expect.stringMatching(/^ignored/) }],
    });
    expect(errorsOf('- just a string')).toEqual([{ path: '(root)', message: 'a template must be a mapping (object)' }]);
    expect(errorsOf('   ')).toEqual([{ path: '(root)', message: 'the template text is empty' }]);
  });

  it('refuses alias bombs and oversized input', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'issuer: [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    ].join('\n');
    expect(errorsOf(bomb)[0].path).toBe('yaml');
    expect(errorsOf(`issuer: ${'x'.repeat(300_000)}`)[0].message).toMatch(/larger than/);
  });

  it('validates JSON templates from the API the same way', () => {
    const ok = validateTemplate({
      name: 'api',
      id: 'tpl_1',
      issuer: 'X',
      keywords: ['X'],
      fields: { amount: { parser: 'regex', regex: 'T (\\d+)', type: 'float', group: 'sum' } },
    });
    expect(ok).toMatchObject({ ok: true, template: { id: 'tpl_1', name: 'api' } });
    expect(validateTemplate(null)).toEqual({
      ok: false,
      errors: [{ path: '(root)', message: 'a template must be a mapping (object)' }],
    });
  });
});

describe('template regexes run on the linear-time engine', () => {
  // What each pattern answers on 5,000 a's and a '!': the hostile input must still get the
  // right answer, not merely an answer.
  it.each([
    ['(a+)+$', false],
    ['(\\w+\\s?)*$', true],
    ['(.*)+x', false],
    ['(?:x*){2,}y', false],
    ['((ab)*)+', true],
    ['(a|b+)*c', false],
    ['(\\d+,?)+%', false],
    ['(?:a|a)+$', false],
    ['(a|aa)+$', false],
    ['(\\w|\\d)+$', false],
    ['(.|\\s)*x', false],
    ['.*a.*b.*c.*d.*e.*f.*g', false],
    ['(a|aa)+!$', true],
  ] as const)(
    'accepts %s, which a backtracking engine could not run safely, and answers %s on a hostile input',
    (p, expected) => {
      const r = compileUserRegex(p);
      expect(r.ok).toBe(true);
      expect(r.ok && r.regex.test(`${'a'.repeat(5000)}!`)).toBe(expected);
    },
  );

  it('imports a template whose patterns only a linear engine runs safely', () => {
    const r = parseTemplateYaml(
      "issuer: X\nkeywords: ['(?:a|a)+$']\nfields:\n  amount: '(a|aa)+$'\n  total: '(.|\\s)*x'\n",
    );
    expect(r.ok).toBe(true);
  });
});
