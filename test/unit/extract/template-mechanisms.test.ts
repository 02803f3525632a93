// Template mechanisms of issue 24: keywords under remove_whitespace, dates with stray spaces under
// a template's date_formats, multilingual invoice numbers, and a matching template classifying.
import { describe, expect, it } from 'vitest';
import { extractFields, matchTemplate, parseDate } from '../../../src/pipeline/extract/index.js';
import { parseTemplateYaml } from '../../../src/pipeline/extract/template-yaml.js';
import { templateClassification } from '../../../src/modules/documents/stages/template-defs.js';
import { ruleEvidence } from '../../../src/pipeline/classify/index.js';

function fromText(src: string) {
  const r = parseTemplateYaml(src);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.templates[0];
}

describe('remove_whitespace', () => {
  const json = JSON.stringify({
    issuer: 'Northwind Trading',
    keywords: ['Northwind Trading', 'Order  Ref'],
    exclude_keywords: ['Credit Note'],
    fields: { amount: 'Total:(\\d+\\.\\d+)', invoice_number: 'Ref:(\\d+)', date: 'Date:(\\d{4}-\\d{2}-\\d{2})' },
    options: { remove_whitespace: true },
  });

  it('strips spaces from keywords as from the text, so a JSON template with spaced keywords matches', () => {
    const t = fromText(json);
    expect(t.keywords).toEqual(['NorthwindTrading', 'OrderRef']);
    expect(t.exclude_keywords).toEqual(['CreditNote']);
    expect(t.issuer).toBe('Northwind Trading');
    const text = 'Northwind   Trading Ltd\nOrder Ref: 5512\nDate: 2024-03-09\nTotal: 12.50';
    expect(matchTemplate([t], text)?.issuer).toBe('Northwind Trading');
    const r = extractFields({ text, type: 'invoice', templates: [t] });
    expect(r.method).toBe('template');
    expect(r.fields.amount.value).toBe(12.5);
    expect(r.fields.invoice_number.value).toBe('5512');
    // The exclude keyword is squeezed too: "Credit  Note" rules the template out.
    expect(matchTemplate([t], `${text}\nCredit  Note`)).toBeNull();
  });

  it('leaves keywords alone without the option', () => {
    const t = fromText(JSON.stringify({ issuer: 'A B', keywords: ['A B'], fields: {} }));
    expect(t.keywords).toEqual(['A B']);
  });
});

describe('dates with stray spaces', () => {
  it('reads "Aug 3 , 2014" under the format %b %d, %Y and without a format', () => {
    expect(parseDate('Aug 3 , 2014', { formats: ['%b %d, %Y'] })).toBe('2014-08-03');
    expect(parseDate('Aug 3 , 2014')).toBe('2014-08-03');
    expect(parseDate('03 . 08 . 2014', { formats: ['%d.%m.%Y'] })).toBe('2014-08-03');
  });

  it('reads them inside a template field', () => {
    const t = fromText(
      [
        'issuer: Harbor Supplies',
        'keywords: [Harbor Supplies]',
        'fields:',
        '  date: Issued\\s+(\\w+ \\d+ , \\d{4})',
        '  amount: Total\\s+(\\d+\\.\\d\\d)',
        '  invoice_number: No\\.\\s+(\\d+)',
        'options:',
        '  date_formats: ["%b %d, %Y"]',
      ].join('\n'),
    );
    const r = extractFields({
      text: 'Harbor Supplies\nNo. 77\nIssued Aug 3 , 2014\nTotal 9.99',
      type: 'invoice',
      templates: [t],
    });
    expect(r.fields.date.value).toBe('2014-08-03');
  });
});

describe('template-free invoice numbers', () => {
  const num = (text: string) => extractFields({ text, type: 'invoice' }).fields.invoice_number?.value;

  it('keeps a short capital prefix written apart from the digits', () => {
    expect(num('Invoice No: F 1234K\nDate: 2024-01-02\nTotal 10.00')).toBe('F 1234K');
  });

  it('keeps a hash written onto the number', () => {
    expect(num('Invoice Number: #88412\nTotal 10.00')).toBe('#88412');
  });

  it('does not take "No" or a date for the number', () => {
    expect(num('Invoice No 4471\nTotal 10.00')).toBe('4471');
  });

  it('reads numbers under Polish, Dutch and Swedish labels', () => {
    expect(num('Numer faktury: FV/2024/118\nRazem do zapłaty 100,00')).toBe('FV/2024/118');
    expect(num('Factuurnr. 2024-0093\nTotaal 12,00')).toBe('2024-0093');
    expect(num('Fakturanummer 55120\nAtt betala 99,00')).toBe('55120');
  });
});

describe('classification vocabulary', () => {
  const types = ['invoice', 'receipt', 'letter', 'other'];
  const invoiceWeight = (text: string) => ruleEvidence(text, types).offsets[0];

  it('fires invoice rules on Polish, Dutch, Italian and Australian invoice wording', () => {
    expect(invoiceWeight('FAKTURA VAT nr 12/2024\nNIP 123-456-78-90\nNależność ogółem 123,00 zł')).toBeGreaterThan(1);
    expect(invoiceWeight('Factuur\nFactuurnummer 2024-01\nBTW-nr NL001\nTotaal te betalen € 10,00')).toBeGreaterThan(1);
    expect(invoiceWeight('Fattura n. 42\nPartita IVA 01234567890\nTotale documento 10,00')).toBeGreaterThan(1);
    expect(invoiceWeight('TAX INVOICE\nABN 12 345 678 901\nTotal incl GST $11.00')).toBeGreaterThan(1);
  });

  it('does not fire them on a plain letter', () => {
    expect(invoiceWeight('Dear Anna,\nthank you for the lovely afternoon.\nKind regards, Tom')).toBe(0);
  });
});

describe('templateClassification', () => {
  const t = fromText('issuer: Faktura Co\nkeywords: [Faktura Co, Należność]\nfields: {}');

  it('classifies a document its template matches, with confidence from the keywords', () => {
    const c = templateClassification([t], 'Faktura Co sp. z o.o.\nNależność ogółem 10,00');
    expect(c?.type).toBe('invoice');
    expect(c?.confidence).toBe(0.95);
  });

  it('uses the template document_type and answers null without a match', () => {
    const r = fromText('issuer: Corner Shop\nkeywords: [Corner Shop]\ndocument_type: receipt\nfields: {}');
    expect(templateClassification([r], 'Corner Shop\nTOTAL 3.00')?.type).toBe('receipt');
    expect(templateClassification([r, t], 'nothing here')).toBeNull();
  });
});
