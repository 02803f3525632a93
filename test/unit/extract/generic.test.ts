import { describe, expect, it } from 'vitest';
import { extractGeneric, normaliseType } from '../../../src/pipeline/extract/generic.js';
import type { ExtractedFields } from '../../../src/pipeline/extract/types.js';
import * as F from './fixtures.js';

function values(fields: ExtractedFields): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.value]));
}

describe('generic invoice extraction', () => {
  it('reads an English invoice with a tab-separated item table', () => {
    const f = extractGeneric(F.INVOICE_EN, 'invoice');
    expect(values(f)).toMatchObject({
      invoice_number: 'INV-2024-0042',
      issue_date: '2024-03-05',
      due_date: '2024-04-04',
      po_number: 'PO-7781',
      subtotal: 166.5,
      tax: 33.3,
      tax_rate: 20,
      total: 199.8,
      currency: 'GBP',
      vendor: 'ACME Widgets Ltd',
      customer: 'Globex Corporation',
      iban: 'GB82WEST12345698765432',
      email: 'billing@acme-widgets.example',
      phone: '+44 20 7946 0958',
    });
    expect(f.line_items.value).toEqual([
      { description: 'Widget A', quantity: 2, unit_price: 10, amount: 20 },
      { description: 'Widget B (blue)', quantity: 3, unit_price: 15.5, amount: 46.5 },
      { description: 'Installation service', quantity: 1, unit_price: 100, amount: 100 },
    ]);
    expect(f.invoice_number.method).toBe('label');
    expect(f.vendor.method).toBe('heuristic');
    // The VAT registration number is not a tax amount.
    expect(f.tax.value).not.toBe(123);
  });

  it('reads a German invoice (decimal comma, € after the amount, two-column layout)', () => {
    const f = extractGeneric(F.INVOICE_DE, 'invoice');
    expect(values(f)).toMatchObject({
      invoice_number: 'RE-2024-1187',
      issue_date: '2024-03-12',
      due_date: '2024-03-26',
      subtotal: 337.3,
      tax: 64.09,
      tax_rate: 19,
      total: 401.39,
      currency: 'EUR',
      vendor: 'Muster Elektro GmbH',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      phone: '030 1234567',
    });
    expect(f.line_items.value).toEqual([
      { description: 'Kabel NYM-J 3x1,5 (50 m)', quantity: 2, unit_price: 45.9, amount: 91.8 },
      { description: 'Steckdose Unterputz', quantity: 10, unit_price: 4.25, amount: 42.5 },
      { description: 'Montage (Stunden)', quantity: 3.5, unit_price: 58, amount: 203 },
    ]);
  });

  it('reads a French invoice (month names, TTC/HT, "Facturé à")', () => {
    const f = extractGeneric(F.INVOICE_FR, 'invoice');
    expect(values(f)).toMatchObject({
      invoice_number: 'F-2024-0315',
      issue_date: '2024-03-15',
      due_date: '2024-04-14',
      subtotal: 700,
      tax: 140,
      total: 840,
      currency: 'EUR',
      vendor: 'Studio Lumière SARL',
      customer: 'Boulangerie Martin',
      iban: 'FR1420041010050500013M02606',
      email: 'contact@studio-lumiere.example',
    });
    expect(f.line_items.value).toHaveLength(2);
  });

  it('raises confidence when subtotal + tax = total and lowers it when they disagree', () => {
    const good = extractGeneric(F.INVOICE_EN, 'invoice');
    const bad = extractGeneric(F.INVOICE_EN.replace('Total\t\t\t£199.80', 'Total\t\t\t£299.80'), 'invoice');
    expect(bad.total.value).toBe(299.8);
    expect(good.total.confidence).toBeGreaterThan(bad.total.confidence);
    expect(good.subtotal.confidence).toBeGreaterThan(bad.subtotal.confidence);
    expect(good.subtotal.confidence).toBeGreaterThan(0.9);
  });

  it('reads PDF-style rows separated by single spaces and labels laid out as a header row', () => {
    const text = `Blue Harbor Consulting Inc.
500 Market St, Suite 12, Boston, MA 02110
INVOICE
Invoice No.      Date          Due Date
INV-88           02/01/2024    03/02/2024
Bill To: Wayne Enterprises
Description Qty Unit Price Amount
Consulting hours 10 95.00 950.00
Travel expenses 1 120.50 120.50
Subtotal 1,070.50
Tax 0.00
Total USD 1,070.50`;
    const f = extractGeneric(text, 'invoice');
    // USD and no date above 12: month-first.
    expect(values(f)).toMatchObject({
      invoice_number: 'INV-88',
      issue_date: '2024-02-01',
      due_date: '2024-03-02',
      total: 1070.5,
      subtotal: 1070.5,
      tax: 0,
      currency: 'USD',
      customer: 'Wayne Enterprises',
    });
    expect(f.line_items.value).toEqual([
      { description: 'Consulting hours', quantity: 10, unit_price: 95, amount: 950 },
      { description: 'Travel expenses', quantity: 1, unit_price: 120.5, amount: 120.5 },
    ]);
    // Ambiguous day/month order costs confidence.
    expect(f.due_date.confidence).toBeLessThan(0.8);
  });

  it('maps item columns by the header, including a VAT column and missing leading cells', () => {
    const f = extractGeneric(
      'Description\tQty\tPrice\tVAT\tAmount\nBolts\t10\t1.00\t19\t10.00\nNuts\t5\t2.00\t7%\t10.00\nShipping\t\t\t\t4.50\nSubtotal\t24.50',
      'invoice',
    );
    expect(f.line_items.value).toEqual([
      { description: 'Bolts', quantity: 10, unit_price: 1, amount: 10, tax_rate: 19 },
      { description: 'Nuts', quantity: 5, unit_price: 2, amount: 10, tax_rate: 7 },
      { description: 'Shipping', quantity: null, unit_price: null, amount: 4.5 },
    ]);
    // Items add up to the subtotal.
    expect(f.line_items.confidence).toBeGreaterThan(0.8);
  });

  it('derives the due date from payment terms and does not read "Net 30" as a net amount', () => {
    const f = extractGeneric(
      'Foo Ltd\nInvoice # 1001\nDate: 2024-01-15\nPayment terms: Net 30\nAmount due: 500.00 EUR',
      'invoice',
    );
    expect(values(f)).toMatchObject({
      invoice_number: '1001',
      issue_date: '2024-01-15',
      due_date: '2024-02-14',
      total: 500,
    });
    expect(f.due_date.method).toBe('heuristic');
    expect(f.subtotal).toBeUndefined();
  });

  it('sums several VAT rates', () => {
    const f = extractGeneric(
      'Feinkost Weber e.K.\nRechnung Nr. 2024/77\nDatum: 01.02.2024\nSumme netto 150,00 €\nMwSt 19 % 19,00 €\nMwSt 7 % 3,50 €\nGesamtbetrag 172,50 €',
      'invoice',
    );
    expect(values(f)).toMatchObject({
      invoice_number: '2024/77',
      subtotal: 150,
      tax: 22.5,
      total: 172.5,
      vendor: 'Feinkost Weber e.K.',
    });
    expect(f.tax_rate).toBeUndefined();
    expect(f.due_date).toBeUndefined();
  });

  it('derives a missing total and flags an IBAN with a bad checksum', () => {
    const f = extractGeneric(
      'Invoice number: A-17\nNet amount: 100.00\nVAT 19%: 19.00\nIBAN: DE89 3704 0044 0532 0130 01',
      'invoice',
    );
    // Worked out as subtotal + tax, not printed: marked so it gets no position.
    expect(f.total).toEqual({ value: 119, confidence: 0.55, method: 'heuristic', computed: true });
    expect(f.iban.value).toBe('DE89370400440532013001');
    expect(f.iban.confidence).toBeLessThan(0.5);
  });

  it('uses the decimal hint for ambiguous amounts', () => {
    expect(extractGeneric('Total: 1.250', 'invoice').total.value).toBe(1250);
    expect(extractGeneric('Total: 1.250', 'invoice', { decimalSeparator: '.' }).total.value).toBe(1.25);
  });

  it('reports nothing rather than guesses on text without fields', () => {
    const f = extractGeneric('some text without any fields, 12 apples\nand more words', 'invoice');
    expect(f).toEqual({});
  });
});

describe('generic receipts, statements and other types', () => {
  it('reads a German receipt with headerless items and a quantity line', () => {
    const f = extractGeneric(F.RECEIPT_DE, 'receipt');
    expect(values(f)).toMatchObject({
      merchant: 'REWE Markt GmbH',
      date: '2024-03-05',
      total: 7.41,
      currency: 'EUR',
      receipt_number: '4711',
      payment_method: 'girocard',
    });
    expect(f.line_items.value).toEqual([
      { description: 'BANANEN', quantity: null, unit_price: null, amount: 1.99 },
      { description: 'MILCH 3,5%', quantity: null, unit_price: null, amount: 1.15 },
      { description: 'BROT', quantity: 2, unit_price: 0.89, amount: 1.78 },
      { description: 'SPUELMITTEL', quantity: null, unit_price: null, amount: 2.49 },
    ]);
    expect(f.line_items.method).toBe('heuristic');
  });

  it('reads a US receipt with inline quantities and a month-first date', () => {
    const f = extractGeneric(F.RECEIPT_EN, 'receipt');
    expect(values(f)).toMatchObject({
      merchant: 'THE CORNER CAFE',
      date: '2024-03-14',
      subtotal: 17,
      tax: 1.45,
      tax_rate: 8.5,
      total: 18.45,
      payment_method: 'visa',
    });
    expect(f.line_items.value).toEqual([
      { description: 'Cappuccino', quantity: 2, unit_price: 4.5, amount: 9 },
      { description: 'Blueberry Muffin', quantity: null, unit_price: null, amount: 3.75 },
      { description: 'Orange Juice', quantity: null, unit_price: null, amount: 4.25 },
    ]);
  });

  it.each([
    [
      'English',
      F.BANK_EN,
      {
        iban: 'GB33BUKB20201555555555',
        bank: 'Northwind Bank plc',
        statement_period: '2024-03-01/2024-03-31',
        period_start: '2024-03-01',
        period_end: '2024-03-31',
        opening_balance: 1250,
        closing_balance: 2650,
      },
    ],
    [
      'German',
      F.BANK_DE,
      {
        iban: 'DE89370400440532013000',
        bank: 'Sparkasse Musterstadt',
        statement_period: '2024-02-01/2024-02-29',
        opening_balance: 1024.17,
        closing_balance: 3250.72,
      },
    ],
    [
      'French',
      F.BANK_FR,
      {
        iban: 'FR1420041010050500013M02606',
        bank: 'Banque Exemple',
        statement_period: '2024-01-01/2024-01-31',
        opening_balance: 5120,
        closing_balance: 4870.35,
      },
    ],
  ])('reads a %s bank statement', (_lang, text, expected) => {
    expect(values(extractGeneric(text, 'bank_statement'))).toMatchObject(expected);
  });

  it('reads a debit balance as negative', () => {
    const f = extractGeneric(
      'Kontoauszug vom 01.02.2024 bis 29.02.2024\nAlter Kontostand 120,00 S\nNeuer Kontostand 80,00 H',
      'bank_statement',
    );
    expect(values(f)).toMatchObject({ opening_balance: -120, closing_balance: 80 });
  });

  it('reads a purchase order', () => {
    expect(values(extractGeneric(F.PURCHASE_ORDER, 'purchase_order'))).toMatchObject({
      po_number: 'PO-2024-118',
      issue_date: '2024-03-08',
      delivery_date: '2024-03-22',
      vendor: 'Contoso Supplies LLC',
      customer: 'Initech Warehouse 3',
      total: 427.9,
      currency: 'USD',
      line_items: [
        { description: 'Paper A4 box', quantity: 10, unit_price: 24.99, amount: 249.9 },
        { description: 'Toner black', quantity: 2, unit_price: 89, amount: 178 },
      ],
    });
  });

  it('reads contract parties and the effective date in English and German', () => {
    expect(values(extractGeneric(F.CONTRACT_EN, 'contract'))).toEqual({
      parties: [
        { name: 'Hooli Technologies Ltd', role: 'Client' },
        { name: 'Pied Piper Consulting LLC', role: 'Contractor' },
      ],
      effective_date: '2024-04-15',
    });
    expect(values(extractGeneric(F.CONTRACT_DE, 'contract'))).toEqual({
      parties: [
        { name: 'Beispiel AG', role: 'Auftraggeber' },
        { name: 'Nordlicht IT GmbH', role: 'Auftragnehmer' },
      ],
      effective_date: '2024-05-01',
    });
  });

  it('reads contract parties from role labels', () => {
    const f = extractGeneric(
      'TENANCY AGREEMENT\nLandlord: Alice Property Ltd\nTenant: Bob Smith\nStart date: 1 June 2024',
      'contract',
    );
    expect(values(f)).toMatchObject({
      parties: [
        { name: 'Alice Property Ltd', role: 'Landlord' },
        { name: 'Bob Smith', role: 'Tenant' },
      ],
      effective_date: '2024-06-01',
    });
  });

  it('reads a résumé and a letter', () => {
    expect(values(extractGeneric(F.RESUME, 'resume'))).toEqual({
      name: 'Maria Gonzalez',
      email: 'maria.gonzalez@example.org',
      phone: '+49 151 23456789',
    });
    expect(values(extractGeneric(F.LETTER, 'letter'))).toMatchObject({
      sender: 'Stadtwerke Beispielstadt GmbH',
      date: '2024-03-04',
      subject: 'Ihre Zählerablesung',
    });
  });

  it('treats unknown types as other and keeps only safe fields', () => {
    const f = extractGeneric('Memo\nDate: March 3, 2024\nContact: jane@example.com\n42 apples', 'Memo-Thing');
    expect(values(f)).toEqual({ date: '2024-03-03', email: 'jane@example.com' });
    expect(normaliseType('Purchase Order')).toBe('purchase_order');
    expect(normaliseType('CV')).toBe('resume');
    expect(normaliseType('unknown')).toBe('other');
  });

  it('keeps every confidence within [0, 1] and label matches above fallbacks', () => {
    for (const [text, type] of [
      [F.INVOICE_EN, 'invoice'],
      [F.RECEIPT_DE, 'receipt'],
      [F.BANK_FR, 'bank_statement'],
      [F.CONTRACT_DE, 'contract'],
    ] as const) {
      for (const f of Object.values(extractGeneric(text, type))) {
        expect(f.confidence).toBeGreaterThanOrEqual(0);
        expect(f.confidence).toBeLessThanOrEqual(1);
      }
    }
    const labelled = extractGeneric('Invoice No: X-1001\nInvoice Date: 2024-01-02', 'invoice');
    const fallback = extractGeneric('Reference INV-1001\nSomething on 2024-01-02', 'invoice');
    expect(fallback.invoice_number.value).toBe('INV-1001');
    expect(labelled.invoice_number.confidence).toBeGreaterThan(fallback.invoice_number.confidence);
    expect(labelled.issue_date.confidence).toBeGreaterThan(fallback.issue_date.confidence);
  });

  it('finds nothing in hostile noise, and still reads the real fields that follow it', () => {
    const long = `${'Total '.repeat(20_000)}\n${'1'.repeat(50_000)}\n${'between a and '.repeat(5000)}`;
    expect(extractGeneric(long, 'invoice')).toEqual({});
    expect(extractGeneric(long, 'contract')).toEqual({});
    expect(extractGeneric('', 'receipt')).toEqual({});
    const real = extractGeneric(`${long}\nInvoice number: INV-2041\nTotal due: 1,234.50 EUR\n`, 'invoice');
    expect(values(real)).toEqual({ invoice_number: 'INV-2041', total: 1234.5, currency: 'EUR' });
  });
});
