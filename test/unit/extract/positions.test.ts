// Field positions: values found in the text they were read from, mapped to word boxes (PDF
// layout words, OCR words) or to offsets into the text.
import { describe, expect, it } from 'vitest';
import {
  attachPositions,
  extractFields,
  findValue,
  locateValue,
  parsePosition,
} from '../../../src/pipeline/extract/index.js';
import { packLayout, positionIndex, type LayoutWord } from '../../../src/pipeline/parse/index.js';
import { parseTemplateYaml } from '../../../src/pipeline/extract/template-yaml.js';

const word = (text: string, x0: number, base: number, size = 10): LayoutWord => ({
  text,
  x0,
  x1: x0 + text.length * size * 0.5,
  base,
  size,
});

describe('locateValue', () => {
  const text = 'Subtotal 1.190,00\nVAT 19% 226,10\nDate: 05.03.2024\nTotal due 1.416,10\nPaid 1.416,10 on 2024-03-09';

  it('finds amounts in any notation, the labelled total before a later repeat', () => {
    const s = locateValue(text, 'total', 1416.1)!;
    expect(text.slice(s.start, s.end)).toBe('1.416,10');
    expect(text.slice(0, s.start)).toMatch(/Total due $/);
    expect(findValue(text, 1416.1)).toHaveLength(2);
  });

  it('finds dates by the day they name, the one on a date line first', () => {
    const s = locateValue(text, 'date', '2024-03-05')!;
    expect(text.slice(s.start, s.end)).toBe('05.03.2024');
    const paid = locateValue(text, 'paid_on', '2024-03-09')!;
    expect(text.slice(paid.start, paid.end)).toBe('2024-03-09');
  });

  it('finds text case and spacing aside, and nothing for what is not there', () => {
    const t = 'ACME   Tools  GmbH\nInvoice';
    const s = locateValue(t, 'vendor', 'Acme Tools GmbH')!;
    expect(t.slice(s.start, s.end)).toBe('ACME   Tools  GmbH');
    expect(locateValue(t, 'vendor', 'Other Ltd')).toBeNull();
    expect(locateValue(t, 'total', 99.5)).toBeNull();
  });
});

describe('positionIndex', () => {
  it('maps a value on a PDF page to the union of its word boxes, in points', () => {
    const layout = packLayout([
      {
        words: [word('Invoice', 50, 100), word('Total', 50, 200), word('EUR', 300, 200), word('165.00', 330, 200)],
        other: [],
      },
      { words: [word('Page', 50, 100), word('two', 80, 100)], other: [] },
    ]);
    const idx = positionIndex('Invoice\nTotal EUR 165.00\n\f\nPage two', layout);
    const s = locateValue(idx.text, 'total', 165)!;
    expect(idx.at(s.start, s.end)).toEqual({ page: 1, bbox: [330, 192, 360, 202], unit: 'pt' });
    const both = idx.text.indexOf('EUR');
    expect(idx.at(both, both + 'EUR 165.00'.length)).toEqual({ page: 1, bbox: [300, 192, 360, 202], unit: 'pt' });
    const two = locateValue(idx.text, 'x', 'Page two')!;
    expect(idx.at(two.start, two.end)).toMatchObject({ page: 2, bbox: [50, 92, 95, 102] });
  });

  it('uses OCR word boxes, in pixels, for pages read by OCR and for images', () => {
    const layout = packLayout(
      [],
      [
        [
          { text: 'CORNER', x0: 10, y0: 10, x1: 80, y1: 30, nl: 1 },
          { text: 'SHOP', x0: 90, y0: 10, x1: 140, y1: 30 },
          { text: 'TOTAL', x0: 10, y0: 60, x1: 70, y1: 80, nl: 1 },
          { text: '12.50', x0: 200, y0: 61, x1: 260, y1: 82 },
        ],
      ],
    );
    const idx = positionIndex('CORNER SHOP\nTOTAL 12.50', layout);
    expect(idx.text).toBe('CORNER SHOP\nTOTAL 12.50');
    const fields = attachPositions(
      {
        total: { value: 12.5, confidence: 0.9, method: 'label' },
        merchant: { value: 'Corner Shop', confidence: 0.8, method: 'heuristic' },
      },
      idx,
    );
    expect(fields.total.position).toEqual({ page: 1, bbox: [200, 61, 260, 82], unit: 'px' });
    expect(fields.merchant.position).toEqual({ page: 1, bbox: [10, 10, 140, 30], unit: 'px' });
  });

  it('answers text offsets for documents without a layout', () => {
    const text = 'Receipt\nTOTAL 7.20\n';
    const idx = positionIndex(text, null);
    const f = attachPositions({ total: { value: 7.2, confidence: 0.9, method: 'label' } }, idx);
    expect(f.total.position).toEqual({ start: 14, end: 18 });
    expect(text.slice(14, 18)).toBe('7.20');
  });
});

describe('attachPositions', () => {
  it('places a currency read from its symbol, an IBAN printed in groups and a value its template stripped of accents; sums get none', () => {
    const r = parseTemplateYaml(
      [
        'issuer: Stadtwerke Süd',
        'keywords: [Stadtwerke]',
        'fields:',
        '  greeting:',
        '    parser: regex',
        '    regex: Gruss:\\s+(\\S+)',
        '  fees:',
        '    parser: regex',
        '    regex: Gebuhr\\s+([\\d.]+)',
        '    type: float',
        '    group: sum',
        'options:',
        '  remove_accents: true',
      ].join('\n'),
    );
    if (!r.ok) throw new Error('template');
    const text =
      'Stadtwerke Süd\nGruß: Tschüss\nGebühr 2.50\nGebühr 1.25\nIBAN DE89 3704 0044 0532 0130 00\nTotal € 3.75';
    const x = extractFields({ text, type: 'invoice', templates: r.templates });
    expect(x.fields.greeting.value).toBe('Tschuss');
    const f = attachPositions(
      {
        ...x.fields,
        iban: { value: 'DE89370400440532013000', confidence: 0.9, method: 'regex' },
        currency: { value: 'EUR', confidence: 0.9, method: 'regex' },
      },
      positionIndex(text, null),
    );
    const at = (p: unknown) => {
      const { start, end } = p as { start: number; end: number };
      return text.slice(start, end);
    };
    expect(at(f.greeting.position)).toBe('Tschüss');
    expect(at(f.iban.position)).toBe('DE89 3704 0044 0532 0130 00');
    expect(at(f.currency.position)).toBe('€');
    // 2.50 + 1.25 is printed nowhere as such.
    expect(f.fees).toMatchObject({ value: 3.75, computed: true });
    expect(f.fees.position).toBeUndefined();
  });

  it('gives no position to static and computed template values, and positions table cells row by row', () => {
    const r = parseTemplateYaml(
      [
        'issuer: Cell Supplies',
        'keywords: [Cell Supplies]',
        'fields:',
        '  static_vat: 19',
        '  amount: Total\\s+([\\d.]+)',
        '  invoice_number: No\\s+(\\d+)',
        '  date: Date\\s+(\\S+)',
        'lines:',
        '  start: Item',
        '  end: Total',
        '  line: (?P<item>\\w+)\\s+(?P<qty>\\d+)\\s+(?P<price>[\\d.]+)',
        '  types: {qty: int, price: float}',
        'options:',
        '  currency: EUR',
      ].join('\n'),
    );
    if (!r.ok) throw new Error('template');
    const text = 'Cell Supplies\nNo 12\nDate 2024-01-05\nItem Qty Price\nBolts 2 4.00\nNuts 4 2.00\nTotal 16.00';
    const x = extractFields({ text, type: 'invoice', templates: r.templates });
    const f = attachPositions(x.fields, positionIndex(text, null));
    expect(f.vat.position).toBeUndefined();
    expect(f.currency.position).toBeUndefined();
    expect(f.desc.position).toBeUndefined();
    expect(f.issuer.position).toBeUndefined();
    const at = (p: unknown) => {
      const { start, end } = p as { start: number; end: number };
      return text.slice(start, end);
    };
    expect(at(f.amount.position)).toBe('16.00');
    expect(at(f.invoice_number.position)).toBe('12');
    expect(f.lines.cells?.map((c) => [at(c.item), at(c.qty), at(c.price)])).toEqual([
      ['Bolts', '2', '4.00'],
      ['Nuts', '4', '2.00'],
    ]);
    // The second row's "2.00" is its own, not the first row's "2".
    expect(f.lines.cells?.[1].price).toEqual({ start: text.indexOf('2.00'), end: text.indexOf('2.00') + 4 });
  });
});

describe('parsePosition', () => {
  it('accepts the two shapes and refuses anything else', () => {
    expect(parsePosition({ start: 1, end: 4 })).toEqual({ start: 1, end: 4 });
    expect(parsePosition({ page: 2, bbox: [1, 2, 3, 4], unit: 'pt' })).toEqual({
      page: 2,
      bbox: [1, 2, 3, 4],
      unit: 'pt',
    });
    for (const bad of [
      { start: 4, end: 1 },
      { page: 0, bbox: [1, 2, 3, 4], unit: 'pt' },
      { page: 1, bbox: [1, 2, 3], unit: 'pt' },
      { page: 1, bbox: [1, 2, 3, 4], unit: 'cm' },
      { page: 1, bbox: [1, 2, 3, 4], unit: 'pt', extra: 1 },
      'x',
      null,
    ])
      expect(parsePosition(bad)).toBeNull();
  });
});
