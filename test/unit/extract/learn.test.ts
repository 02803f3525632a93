// Learning a template from one corrected document and applying it to the issuer's next ones.
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../../src/pipeline/extract/index.js';
import { learnTemplate } from '../../../src/pipeline/extract/learn.js';
import { runTemplate } from '../../../src/pipeline/extract/template.js';
import { validateTemplate } from '../../../src/pipeline/extract/template-validate.js';

const receipt = (date: string, total: string, cash: string) =>
  [
    'CORNER HARDWARE SDN BHD',
    '(123456-X)',
    'GST ID: 000123456789',
    'NO 5, JALAN MAJU, 43000 KAJANG',
    `Date: ${date}   Time: 10:41`,
    'Item        Qty   Amount',
    'NAIL 2"     2     4.00',
    `TOTAL:      RM ${total}`,
    `CASH        ${cash}`,
    'THANK YOU',
  ].join('\n');

const confirmed = (value: unknown) => ({ value, confirmed: true, method: 'manual' });

describe('learnTemplate', () => {
  it('learns keywords from the issuer, one anchored regex per field, and reads the next document', () => {
    const r = learnTemplate({
      text: receipt('12/03/2018', '15.90', '20.00'),
      fields: {
        merchant: confirmed('Corner Hardware Sdn Bhd'),
        date: confirmed('2018-03-12'),
        total: confirmed(15.9),
      },
      documentType: 'receipt',
    });
    if (!r.ok) throw new Error(JSON.stringify(r.missing));
    const t = r.template;
    // The name line and the issuer's longest registration or tax number.
    expect(t.keywords).toEqual(['CORNER\\s+HARDWARE\\s+SDN\\s+BHD', '\\b000123456789\\b']);
    // No keyword is a date or an amount.
    for (const k of t.keywords) expect(k).not.toMatch(/2018|15\\.90/);
    expect(t.options?.date_formats).toEqual(['%d/%m/%Y']);
    expect(t.fields.total).toMatchObject({ type: 'float', regex: expect.stringMatching(/^TOTAL/) });
    expect(t.fields.date).toMatchObject({ type: 'date', regex: expect.stringMatching(/^Date/) });
    expect(t.document_type).toBe('receipt');
    // What it produces is a template like any imported one.
    expect(validateTemplate(t, { strict: true }).ok).toBe(true);

    const next = extractFields({ text: receipt('02/11/2019', '103.45', '110.00'), type: 'receipt', templates: [t] });
    expect(next.method).toBe('template');
    expect(next.fields.total.value).toBe(103.45);
    expect(next.fields.date.value).toBe('2019-11-02');
    expect(next.fields.merchant.value).toBe('CORNER HARDWARE SDN BHD');
    // Another issuer's receipt is not matched.
    const other = receipt('02/11/2019', '1.00', '1.00').replace('CORNER HARDWARE', 'RIVER BAKERY');
    expect(extractFields({ text: other, type: 'receipt', templates: [t] }).method).toBe('generic');
  });

  it('reads dates written with month names and amounts with decimal commas', () => {
    const text = 'Bäckerei Lind GmbH\nUSt-IdNr: DE123456789\nRechnung vom 3. März 2024\nGesamtbetrag: 1.234,50 EUR';
    const r = learnTemplate({
      text: text.replace('März', 'Mar'),
      fields: { vendor: confirmed('Bäckerei Lind GmbH'), date: confirmed('2024-03-03'), total: confirmed(1234.5) },
    });
    if (!r.ok) throw new Error(JSON.stringify(r.missing));
    expect(r.template.options?.decimal_separator).toBe(',');
    expect(r.template.options?.date_formats).toEqual(['%d. %b %Y']);
    const next = extractFields({
      text: 'Bäckerei Lind GmbH\nUSt-IdNr: DE123456789\nRechnung vom 14. Jun 2024\nGesamtbetrag: 99,90 EUR',
      type: 'invoice',
      templates: [r.template],
    });
    expect(next.fields.total.value).toBe(99.9);
    expect(next.fields.date.value).toBe('2024-06-14');
  });

  it('names each corrected field whose value is not in the text, and leaves out machine values it cannot find', () => {
    const r = learnTemplate({
      text: receipt('12/03/2018', '15.90', '20.00'),
      fields: {
        merchant: confirmed('Corner Hardware Sdn Bhd'),
        total: confirmed(17.5),
        date: confirmed('2019-01-01'),
        tax: { value: 0.9, method: 'label' },
      },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.missing.map((m) => m.field).sort()).toEqual(['date', 'total']);
    expect(r.missing[0].reason).toMatch(/not in the document's text/);

    const machine = learnTemplate({
      text: receipt('12/03/2018', '15.90', '20.00'),
      fields: {
        merchant: confirmed('Corner Hardware Sdn Bhd'),
        total: confirmed(15.9),
        tax: { value: 0.9, method: 'label' },
      },
    });
    if (!machine.ok) throw new Error(JSON.stringify(machine.missing));
    expect(machine.template.fields.tax).toBeUndefined();
    expect(machine.skipped.map((s) => s.field)).toEqual(['tax']);
  });

  it("reads the issuer's receipts that OCR put in another order: the id's punctuation, the tax rate, a date on its own", () => {
    // Learned from a receipt whose total sits under its label; net 50.00 + 8% tax 4.00 = 54.00.
    const first = [
      'LANTERN TOOLS SDN BHD',
      'CO-REG : 998877-K',
      'SST ID : 001122334455',
      '--------------------',
      '05-06-19 09:12 T01',
      'HAMMER 50.00',
      'SUB TOTAL :',
      '50.00',
      'SST 8% :',
      '4.00',
      'TOTAL PAYABLE :',
      '54.00',
      'CASH :',
      '60.00',
      'CHANGE :',
      '6.00',
    ].join('\n');
    const r = learnTemplate({
      text: first,
      fields: {
        merchant: confirmed('LANTERN TOOLS SDN BHD'),
        date: confirmed('2019-06-05'),
        total: confirmed(54),
      },
    });
    if (!r.ok) throw new Error(JSON.stringify(r.missing));
    expect(r.template.fields.total).toMatchObject({ type: 'float', tax_rate: 0.08 });
    // The date has no label: it is matched as a date standing on its own.
    expect(r.template.fields.date).toMatchObject({ regex: expect.stringMatching(/^\\b\(/) });
    expect(validateTemplate(r.template, { strict: true }).ok).toBe(true);

    // The next receipt: the registration typed differently, a code that looks like a date, and
    // the labels in one block with the figures in another, so no label pattern finds the total.
    const next = [
      'LANTERN TOOLS SDN BHD',
      '(CO. REG :998877-K)',
      '(SST ID NO :001122334455)',
      'SKU AB11-12-13',
      '--------------------',
      '21-09-19 17:40 T02',
      'SUB TOTAL :',
      'SST 8% :',
      'TOTAL PAYABLE :',
      'CASH :',
      'CHANGE :',
      'SAW 100.00',
      '100.00',
      '8.00',
      '108.00',
      '200.00',
      '92.00',
    ].join('\n');
    const out = runTemplate(r.template, next);
    expect(out.fields.merchant.value).toBe('LANTERN TOOLS SDN BHD');
    expect(out.fields.date.value).toBe('2019-09-21');
    // 200.00 is 108.00 + 92.00 too, but 92.00 is not 8% of 108.00: the rate decides.
    expect(out.fields.total).toMatchObject({ value: 108, confidence: 0.85 });
    expect(out.trace.find((t) => t.field === 'total')?.reason).toMatch(/net amount plus 8% tax/);
    // Through extraction, the template is chosen by its keywords despite the other punctuation.
    const chosen = extractFields({ text: next, type: 'receipt', templates: [{ ...r.template, id: 'tpl_learned' }] });
    expect(chosen.templateId).toBe('tpl_learned');
    expect(chosen.fields.total.value).toBe(108);
    // Without a rate-consistent pair the field stays unread (the generic extractors may fill it).
    expect(runTemplate(r.template, next.replace('8.00\n', '7.00\n')).fields.total).toBeUndefined();
  });

  it('refuses a tax_rate that is not a fraction or sits on a field that is not a float', () => {
    const tpl = (field: Record<string, unknown>) =>
      validateTemplate(
        { issuer: 'X', keywords: ['X'], fields: { total: { parser: 'regex', regex: 'T (\\d+)', ...field } } },
        { strict: true },
      );
    expect(tpl({ type: 'float', tax_rate: 0.2 }).ok).toBe(true);
    for (const bad of [
      { type: 'float', tax_rate: 0 },
      { type: 'float', tax_rate: 6 },
      { type: 'float', tax_rate: '6%' },
      { tax_rate: 0.06 },
    ]) {
      const r = tpl(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors.map((e) => e.path)).toContain('fields.total.tax_rate');
    }
  });
});
