import { describe, expect, it } from 'vitest';
import {
  applyTemplate,
  matchTemplate,
  matchTemplates,
  missingRequiredFields,
  prepareText,
  runTemplate,
} from '../../../src/pipeline/extract/template.js';
import type { TemplateDef } from '../../../src/pipeline/extract/template-schema.js';
import { parseTemplateYaml } from '../../../src/pipeline/extract/template-yaml.js';

function tpl(partial: Partial<TemplateDef> & Pick<TemplateDef, 'issuer'>): TemplateDef {
  return { name: partial.issuer, keywords: [partial.issuer], fields: {}, ...partial };
}

function fromYaml(yaml: string): TemplateDef {
  const r = parseTemplateYaml(yaml);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.templates[0];
}

const values = (fields: Record<string, { value: unknown }>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.value]));

describe('matchTemplate', () => {
  const text = 'Acme Corp\nINVOICE 42\nTotal 10.00';

  it('requires every keyword and no exclude keyword', () => {
    const all = tpl({ issuer: 'all', keywords: ['Acme Corp', 'INVOICE'] });
    const missing = tpl({ issuer: 'missing', keywords: ['Acme Corp', 'RECEIPT'] });
    const excluded = tpl({ issuer: 'excluded', keywords: ['Acme Corp'], exclude_keywords: ['CREDIT', 'INVOICE'] });
    expect(matchTemplates([missing, excluded, all], text).map((t) => t.name)).toEqual(['all']);
    expect(matchTemplate([missing, excluded], text)).toBeNull();
    expect(matchTemplate([], text)).toBeNull();
  });

  it('treats keywords as regexes, case-sensitively (like Python re)', () => {
    expect(matchTemplate([tpl({ issuer: 'r', keywords: ['INVOICE \\d+'] })], text)?.name).toBe('r');
    expect(matchTemplate([tpl({ issuer: 'c', keywords: ['acme corp'] })], text)).toBeNull();
  });

  it('picks the highest priority (default 5), then the more specific, then list order', () => {
    const low = tpl({ issuer: 'low', keywords: ['Acme'], priority: 1 });
    const dflt = tpl({ issuer: 'default', keywords: ['Acme'] });
    const specific = tpl({ issuer: 'specific', keywords: ['Acme', 'Total'] });
    const high = tpl({ issuer: 'high', keywords: ['Acme'], priority: 9 });
    const first = tpl({ issuer: 'first', keywords: ['Acme'] });
    expect(matchTemplate([low, dflt, specific, high], text)?.name).toBe('high');
    expect(matchTemplate([low, dflt, specific], text)?.name).toBe('specific');
    expect(matchTemplate([first, dflt, low], text)?.name).toBe('first');
  });

  it('matches keywords against the text prepared by the template options', () => {
    const t = tpl({
      issuer: 'prep',
      keywords: ['acmecorp', 'facture'],
      options: { lowercase: true, remove_whitespace: true },
    });
    expect(matchTemplate([t], 'ACME Corp\nFACTURE')?.name).toBe('prep');
    const accents = tpl({ issuer: 'acc', keywords: ['Societe Generale'], options: { remove_accents: true } });
    expect(matchTemplate([accents], 'Société Générale')?.name).toBe('acc');
    const replaced = tpl({
      issuer: 'rep',
      keywords: ['ACME Ltd'],
      options: { replace: [['ACME\\s+Limited', 'ACME Ltd']] },
    });
    expect(matchTemplate([replaced], 'ACME   Limited')?.name).toBe('rep');
  });

  it('ignores malformed templates instead of throwing', () => {
    const broken = { name: 'broken', issuer: 'x', keywords: ['('], fields: {} } as TemplateDef;
    expect(matchTemplate([broken, null as unknown as TemplateDef], text)).toBeNull();
  });
});

describe('applyTemplate: parsers, types and groups', () => {
  const text = [
    'Invoice number: 2024-0042',
    'Invoice date: 05.03.2024',
    'Item one      10.00',
    'Item two      25.50',
    'Item three     4.50',
    'Qty: 3',
    'Qty: 4.5',
    'Ref AB1  Ref CD2',
  ].join('\n');

  it('reads regex fields as strings by default and adds issuer and currency', () => {
    const t = tpl({
      issuer: 'Acme',
      fields: { invoice_number: { parser: 'regex', regex: 'Invoice number:\\s*(\\S+)' } },
      options: { currency: 'eur' },
    });
    expect(applyTemplate(t, text)).toEqual({
      // Values the template states (not reads) are marked computed: they get no position.
      issuer: { value: 'Acme', confidence: 1, method: 'template', computed: true },
      currency: { value: 'EUR', confidence: 1, method: 'template', computed: true },
      invoice_number: { value: '2024-0042', confidence: 0.95, method: 'template' },
      desc: { value: 'Invoice from Acme', confidence: 1, method: 'template', computed: true },
    });
  });

  it('converts int, float and date types', () => {
    const t = tpl({
      issuer: 'Acme',
      fields: {
        date: { parser: 'regex', regex: 'Invoice date:\\s*(\\S+)', type: 'date' },
        prices: { parser: 'regex', regex: '(?m)(\\d+\\.\\d{2})$', type: 'float' },
        qty: { parser: 'regex', regex: 'Qty: (\\S+)', type: 'int' },
        bad: { parser: 'regex', regex: 'Ref (\\w+)', type: 'float' },
      },
    });
    const r = runTemplate(t, text);
    // Without a group, several different matches are a list (invoice2data); int truncates 4.5.
    expect(values(r.fields)).toMatchObject({ date: '2024-03-05', prices: [10, 25.5, 4.5], qty: [3, 4] });
    expect(r.fields.bad).toBeUndefined();
    expect(r.warnings).toEqual([
      'fields.bad: "AB1" is not a number with decimal separator "."',
      'fields.bad: "CD2" is not a number with decimal separator "."',
    ]);
  });

  it.each([
    ['sum', 40],
    ['min', 4.5],
    ['max', 25.5],
    ['first', 10],
    ['last', 4.5],
  ] as const)('groups several matches with %s', (group, expected) => {
    const t = tpl({
      issuer: 'Acme',
      fields: { x: { parser: 'regex', regex: '(?m)(\\d+\\.\\d{2})$', type: 'float', group } },
    });
    expect(applyTemplate(t, text).x.value).toBe(expected);
  });

  it('joins string matches, takes min/max of dates, and lowers confidence for ambiguous first matches', () => {
    const t = tpl({
      issuer: 'Acme',
      fields: {
        refs: { parser: 'regex', regex: 'Ref (\\w+)', group: 'join' },
        first_ref: { parser: 'regex', regex: 'Ref (\\w+)' },
        earliest: {
          parser: 'regex',
          regex: ['(\\d{2}\\.\\d{2}\\.\\d{4})', 'on (\\d{4}-\\d{2}-\\d{2})'],
          type: 'date',
          group: 'min',
        },
      },
    });
    const f = applyTemplate(t, `${text}\nshipped on 2024-01-31`);
    expect(values(f)).toMatchObject({ refs: 'AB1 CD2', first_ref: ['AB1', 'CD2'], earliest: '2024-01-31' });
    expect(f.first_ref.confidence).toBeLessThan(f.refs.confidence);
  });

  it('uses the whole match when a regex has no group, and a list of regexes in order', () => {
    const t = tpl({ issuer: 'Acme', fields: { code: { parser: 'regex', regex: ['NOPE\\d', 'AB\\d'] } } });
    expect(applyTemplate(t, text).code.value).toBe('AB1');
  });

  it('supports static values and the legacy name conventions', () => {
    const t = tpl({
      issuer: 'Acme',
      fields: {
        vat_id: { parser: 'static', value: 'DE999' },
        static_country: 'DE',
        date: 'Invoice date:\\s*(\\S+)',
        amount: '(?m)(\\d+\\.\\d{2})$',
        sum_amount_items: ['(?m)(\\d+\\.\\d{2})$'],
      },
    });
    expect(values(applyTemplate(t, text))).toMatchObject({
      vat_id: 'DE999',
      country: 'DE',
      date: '2024-03-05',
      amount: [10, 25.5, 4.5],
      amount_items: 40,
    });
  });

  it('leaves out fields that do not match and reports required ones', () => {
    const t = tpl({
      issuer: 'Acme',
      fields: { amount: 'Grand total (\\d+)', invoice_number: 'Invoice number:\\s*(\\S+)' },
    });
    const r = runTemplate(t, text);
    expect(r.fields.amount).toBeUndefined();
    expect(r.missingRequired).toEqual(['date', 'amount']);
    const custom = tpl({ issuer: 'Acme', fields: {}, required_fields: ['iban', 'issuer'] });
    expect(runTemplate(custom, text).missingRequired).toEqual(['iban']);
    expect(missingRequiredFields(custom, { iban: { value: null, confidence: 0, method: 'template' } })).toEqual([
      'iban',
      'issuer',
    ]);
  });
});

describe('applyTemplate: options', () => {
  it('applies replace (Python group syntax) before the regexes', () => {
    const t = tpl({
      issuer: 'Acme',
      fields: { amount: { parser: 'regex', regex: 'TOTAL=(\\S+)', type: 'float' } },
      options: {
        replace: [
          ['Gesamt:\\s*(\\S+) EUR', 'TOTAL=\\1'],
          ['\\$', 'USD'],
        ],
      },
    });
    expect(applyTemplate(t, 'Gesamt: 12.50 EUR').amount.value).toBe(12.5);
    expect(prepareText('cost $5', t.options)).toBe('cost USD5');
    expect(prepareText('a-b', { replace: [['(?P<x>a)-', '\\g<x>+$']] })).toBe('a+$b');
  });

  it('removes whitespace but keeps line breaks', () => {
    const t = tpl({
      issuer: 'Acme',
      fields: {
        number: { parser: 'regex', regex: 'InvoiceNo:(\\d+)' },
        lines: { parser: 'regex', regex: '(?m)^(\\w+)$', group: 'join' },
      },
      options: { remove_whitespace: true },
    });
    expect(values(applyTemplate(t, 'Invoice No: 12 34\nfoo bar\nbaz'))).toMatchObject({
      number: '1234',
      lines: 'foobar baz',
    });
  });

  it('reads amounts with the decimal separator option', () => {
    const yaml = (sep: string): TemplateDef =>
      fromYaml(
        `issuer: A\nkeywords: [A]\nfields:\n  amount:\n    parser: regex\n    regex: 'Total (\\S+)'\n    type: float\noptions:\n  decimal_separator: '${sep}'\n`,
      );
    expect(applyTemplate(yaml(','), 'Total 1,234').amount.value).toBe(1.234);
    expect(applyTemplate(yaml('.'), 'Total 1,234').amount.value).toBe(1234);
    expect(applyTemplate(yaml(','), 'Total 1.234,50').amount.value).toBe(1234.5);
  });

  it('reads dates with date_formats first, then the generic parser', () => {
    const t = tpl({
      issuer: 'Acme',
      fields: {
        date: { parser: 'regex', regex: 'Date: (\\S+)', type: 'date' },
        other: { parser: 'regex', regex: 'Other: (.+)', type: 'date' },
      },
      options: { date_formats: ['%m/%d/%Y'] },
    });
    expect(values(applyTemplate(t, 'Date: 03/04/2024\nOther: 5 mars 2024'))).toMatchObject({
      date: '2024-03-04',
      other: '2024-03-05',
    });
    // Without a matching format: month first (invoice2data's fallback), unless the template's language is not English.
    const plain = tpl({ issuer: 'Acme', fields: { date: { parser: 'regex', regex: 'Date: (\\S+)', type: 'date' } } });
    expect(applyTemplate(plain, 'Date: 03/04/2024').date.value).toBe('2024-03-04');
    expect(applyTemplate({ ...plain, options: { languages: ['de'] } }, 'Date: 03/04/2024').date.value).toBe(
      '2024-04-03',
    );
    expect(applyTemplate(plain, 'Date: 13/04/2024').date.value).toBe('2024-04-13');
  });

  it('lower-cases and strips accents before matching', () => {
    const t = tpl({
      issuer: 'Acme',
      fields: { due: { parser: 'regex', regex: 'echeance : (.+)', type: 'date' } },
      options: { lowercase: true, remove_accents: true },
    });
    expect(applyTemplate(t, 'ÉCHÉANCE : 14 Février 2024').due.value).toBe('2024-02-14');
  });
});

describe('applyTemplate: lines', () => {
  const text = [
    'Order 1',
    'ITEMS',
    'Pos  Description        Qty   Price',
    '1    Bolt M6            100   0,05',
    '2    Nut M6             100   0,03',
    '     -- page break --',
    '3    Washer             200   0,01',
    'END ITEMS',
    'Order 2',
    'ITEMS',
    '4    Spring             10    1,50',
    'END ITEMS',
    'Total 11,00',
  ].join('\n');

  it('reads every start/end section with types and skip_line', () => {
    const t = tpl({
      issuer: 'Acme',
      lines: {
        start: '(?m)^ITEMS$',
        end: '(?m)^END ITEMS$',
        line: '^(?P<pos>\\d+)\\s+(?P<description>.+?)\\s{2,}(?P<qty>\\d+)\\s+(?P<price>[\\d,]+)$',
        skip_line: ['page break', '^Pos'],
        types: { qty: 'int', price: 'float' },
      },
      options: { decimal_separator: ',' },
    });
    const f = applyTemplate(t, text);
    expect(f.lines.value).toEqual([
      { pos: '1', description: 'Bolt M6', qty: 100, price: 0.05 },
      { pos: '2', description: 'Nut M6', qty: 100, price: 0.03 },
      { pos: '3', description: 'Washer', qty: 200, price: 0.01 },
      { pos: '4', description: 'Spring', qty: 10, price: 1.5 },
    ]);
    expect(f.lines.method).toBe('template');
  });

  it('joins multi-line rows between first_line and last_line', () => {
    const t = tpl({
      issuer: 'Acme',
      fields: {
        rows: {
          parser: 'lines',
          start: 'Services',
          end: 'Subtotal',
          first_line: '^(?P<code>[A-Z]\\d{3})\\s+(?P<description>.+)$',
          line: '^\\s+(?P<description>[^\\d].*)$',
          last_line: '^\\s+Amount:\\s+(?P<amount>\\d+\\.\\d{2})$',
          types: { amount: 'float' },
        },
      },
    });
    const f = applyTemplate(
      t,
      'Services\nA100 Design work\n  homepage and\n  two landing pages\n  Amount: 900.00\nB200 Hosting\n  Amount: 120.00\nSubtotal 1020.00',
    );
    expect(f.rows.value).toEqual([
      { code: 'A100', description: 'Design work\nhomepage and\ntwo landing pages', amount: 900 },
      { code: 'B200', description: 'Hosting', amount: 120 },
    ]);
  });

  it('supports several rule blocks in one lines field and yields nothing without an end', () => {
    const t = fromYaml(`
issuer: A
keywords: [A]
fields:
  items:
    parser: lines
    rules:
      - start: Goods
        end: Services
        line: '^(?P<description>\\w+) (?P<amount>\\d+)$'
      - start: Services
        end: Total
        line: '^(?P<description>\\w+): (?P<amount>\\d+)$'
        types: {amount: int}
`);
    expect(applyTemplate(t, 'Goods\napple 3\nServices\nrepair: 40\nTotal').items.value).toEqual([
      { description: 'apple', amount: '3' },
      { description: 'repair', amount: 40 },
    ]);
    expect(applyTemplate(t, 'Goods\napple 3\n').items).toBeUndefined();
  });
});

describe('applyTemplate: time budget', () => {
  it('stops starting new regex work once the budget is spent', () => {
    let clock = 0;
    const t = tpl({ issuer: 'Acme', fields: { a: 'A(\\d)', b: 'B(\\d)', c: 'C(\\d)' }, required_fields: [] });
    const r = runTemplate(t, 'A1 B2 C3', { budgetMs: 10, now: () => (clock += 2) });
    expect(Object.keys(r.fields)).toContain('a');
    expect(r.fields.c).toBeUndefined();
    expect(r.warnings).toEqual(['time budget of 10 ms spent; remaining fields skipped']);
  });
});
