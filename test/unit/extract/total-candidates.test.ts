// Template-free totals, dates and vendors on receipts and invoices laid out the ways scanned
// receipts and invoices are (labels and figures on separate lines, blocks of labels followed by
// blocks of figures, cash rounding, tax lines that mention the total). Texts written here.
import { describe, expect, it } from 'vitest';
import { extractGeneric } from '../../../src/pipeline/extract/index.js';

const total = (text: string, type = 'receipt') => extractGeneric(text, type).total;

describe('template-free total', () => {
  it('reads a figure on the line after its label', () => {
    expect(
      total(['SHOP SDN BHD', 'ITEM A', '2.50', 'TOTAL:', '9.00', 'CASH', '10.00', 'CHANGE', '1.00'].join('\n'))?.value,
    ).toBe(9);
  });

  it('pairs a block of labels with the block of figures under it', () => {
    const text = [
      'KEDAI RUNCIT',
      'Sub Total',
      'Discount',
      'Total',
      'Cash',
      'Change',
      '26.42',
      '0.00',
      '28.00',
      '50.00',
      '22.00',
    ].join('\n');
    expect(total(text)).toMatchObject({ value: 28, method: 'label' });
  });

  it('takes the rounded figure that was paid after the exact total', () => {
    const text = [
      'MINI MART',
      'TOTAL AMOUNT: RM7.72',
      'GST @0%: RM0.00',
      'ROUNDING: -RM0.02',
      'NETT TOTAL: RM7.70',
      'CASH',
      'RM7.70',
      'CHANGE',
      'RM0.00',
    ].join('\n');
    expect(total(text)?.value).toBe(7.7);
    const plain = [
      'HARDWARE S/B',
      'TOTAL SALES (INCLUSIVE GST) RM',
      '22.91',
      'ROUNDING ADJUSTMENT RM',
      '-.01',
      'ROUNDING RM',
      '22.90',
      'CASH RM',
      '50.00',
      'CHANGE RM',
      '27.10',
    ].join('\n');
    expect(total(plain)?.value).toBe(22.9);
  });

  it('does not take the tax inside the total, the subtotal, the cash handed over or the change', () => {
    const text = [
      'BAKERY',
      'SCONE',
      '7.50',
      'QTY',
      '1',
      'ROUNDING ADJ',
      '0.00',
      'DUE',
      '7.50',
      'PAY',
      '20.00',
      'CHANGE',
      '12.50',
      '(TOTAL INCLUDED GST @ 6% : 0.42)',
    ].join('\n');
    expect(total(text)?.value).toBe(7.5);
    const included = [
      'STORE',
      'TOTAL INCL. GST@6%',
      'RM 50.80',
      'CASH',
      'RM 51.00',
      'CHANGE',
      'RM 0.20',
      'GST @6% INCLUDED IN TOTAL',
      'RM 2.88',
    ].join('\n');
    expect(total(included)?.value).toBe(50.8);
  });

  it('confirms a total by arithmetic when its label is generic', () => {
    const text = [
      'Cafe',
      'Latte 4.50',
      'Cake 5.00',
      'Amount 9.50',
      'Service charge 0.95',
      'Amount 10.45',
      'Card 10.45',
    ].join('\n');
    expect(total(text)?.value).toBe(10.45);
  });

  it('keeps reading invoices with a labelled total on the same line', () => {
    expect(
      total('Invoice number: 7\nSubtotal: 100.00 EUR\nVAT 19%: 19.00 EUR\nTotal: 119.00 EUR', 'invoice'),
    ).toMatchObject({ value: 119, method: 'label' });
    expect(total('Issue date: 2022-09-27\nInvoice number: 0999/09/2022\nTotal: 123.45 EUR', 'invoice')?.value).toBe(
      123.45,
    );
  });

  it('gives more confidence to a total with more evidence', () => {
    const strong = total(
      [
        'SHOP',
        'SUBTOTAL',
        '10.00',
        'GST 6%',
        '0.60',
        'TOTAL',
        '10.60',
        'CASH',
        '20.00',
        'CHANGE',
        '9.40',
        'TOTAL 10.60',
      ].join('\n'),
    );
    const weak = total(['SHOP', 'ITEM 3.00', 'ITEM 4.00', '7.00'].join('\n'));
    expect(strong?.value).toBe(10.6);
    expect(strong!.confidence).toBeGreaterThan(weak?.confidence ?? 0);
  });
});

describe('template-free date and vendor', () => {
  it('does not read a reference number as the date', () => {
    const text =
      'Cobalt Cloud Services, Inc.\nInvoice\nReference: 2031-05-23\nInvoice date: 2024-05-23\nTotal due: $10.00';
    expect(extractGeneric(text, 'invoice').issue_date?.value).toBe('2024-05-23');
    expect(extractGeneric('Shop\nRef 2031-01-02\nThanks', 'receipt').date).toBeUndefined();
  });

  it('keeps a legal form with its name and skips a registration number', () => {
    expect(extractGeneric('Cobalt Cloud Services, Inc.\n410 Terry Ave\nInvoice 42', 'invoice').vendor?.value).toBe(
      'Cobalt Cloud Services, Inc.',
    );
    const receipt = extractGeneric(
      'GARDENIA BAKERIES (KL) SDN BHD (139386 X)\nLOT 3, JALAN PELABUR 23/1,\nTOTAL 9.00',
      'receipt',
    );
    expect(receipt.merchant).toMatchObject({ value: 'GARDENIA BAKERIES (KL) SDN BHD' });
    // A person's name above the company (the cashier, the owner) does not hide the company.
    expect(
      extractGeneric('TAN WOON YANN\nBOOK TA .K(TAMAN DAYA) SDN BHD\n789417-W\nTOTAL 9.00', 'receipt').merchant?.value,
    ).toBe('BOOK TA .K(TAMAN DAYA) SDN BHD');
  });
});

describe('space-grouped thousands', () => {
  it('reads "3 250,00" as a quantity and a price in a German invoice, and as one amount in a French one', () => {
    const de = extractGeneric(
      [
        'Muster GmbH',
        'Rechnung Nr. 7',
        'Pos Bezeichnung Menge Einzelpreis Gesamt',
        '1 Schreibtisch 3 250,00 750,00',
        'Summe 750,00',
      ].join('\n'),
      'invoice',
    );
    const row = (de.line_items?.value as Array<Record<string, unknown>>)?.[0];
    expect(row).toMatchObject({ quantity: 3, unit_price: 250, amount: 750 });
    const fr = extractGeneric(
      ['Société Martin SARL', 'Facture n° 12', 'Montant TTC : 3 250,00 €'].join('\n'),
      'invoice',
    );
    expect(fr.total?.value).toBe(3250);
  });
});

describe('German e-invoice layouts', () => {
  const text = [
    'Handelsrechnung Nr. KR87654321012 vom 06.10.2018',
    'ZUGFeRD-Version: 2.1 vom 24.03.2020',
    'Verkäufer:',
    'Nummer\t: 549910',
    'Rohstoff AG Salzgitter',
    'Marktstr. 153',
    'Belegsummen:',
    'Positionssumme\t850,00',
    'Gesamtbetrag der Zuschläge\t30,00',
    'Gesamtbetrag der Abschläge\t-21,25',
    'Rechnungssumme ohne USt.\t858,75',
    'Steuerbetrag\t163,16',
    'Bruttosumme\t1021,91',
    'Erhaltene Anzahlungen\t-500,00',
    'Zahlbetrag\t521,91',
  ].join('\n');
  it('reads the number and its date from one line, the seller after its key-value lines, the gross total', () => {
    const f = extractGeneric(text, 'invoice');
    expect(f.invoice_number?.value).toBe('KR87654321012');
    expect(f.issue_date?.value).toBe('2018-10-06');
    expect(f.vendor?.value).toBe('Rohstoff AG Salzgitter');
    expect(f.total?.value).toBe(1021.91);
  });
});
