import { describe, expect, it } from 'vitest';
import { findAmounts, parseAmount } from '../../../src/pipeline/extract/amounts.js';
import { detectCurrency, detectCurrencyDetailed } from '../../../src/pipeline/extract/currency.js';
import {
  compileDateFormat,
  findDates,
  inferDayFirst,
  parseDate,
  parseDateWithFormat,
} from '../../../src/pipeline/extract/dates.js';
import { findIbans, formatIban, isValidIban } from '../../../src/pipeline/extract/iban.js';

describe('parseAmount', () => {
  it.each([
    ['1,234.56', 1234.56],
    ['1.234,56', 1234.56],
    ['1 234,56', 1234.56],
    ['1\u00a0234,56', 1234.56],
    ["1'234.56", 1234.56],
    ['1’234.56', 1234.56],
    ['12,345,678.90', 12345678.9],
    ['12.345.678,90', 12345678.9],
    ['1234.56', 1234.56],
    ['1234,56', 1234.56],
    ['12,5', 12.5],
    ['0,125', 0.125],
    ['1234.567', 1234.567],
    ['1.234.567', 1234567],
    ['42', 42],
    ['-12.50', -12.5],
    ['−12,50', -12.5],
    ['+7.00', 7],
    ['(12.50)', -12.5],
    ['12,50-', -12.5],
    ['€1,234.56', 1234.56],
    ['1.234,56 €', 1234.56],
    ['EUR 1.234,56', 1234.56],
    ['1.234,56 EUR', 1234.56],
    ['$ 99.99', 99.99],
    ['-$12.50', -12.5],
    ['US$ 5.00', 5],
    ["CHF 1'234.50", 1234.5],
    ['£0.99', 0.99],
    ['12.000,00 kr', 12000],
  ])('%s -> %s', (input, expected) => {
    expect(parseAmount(input)).toBe(expected);
  });

  it.each([
    ['abc'],
    [''],
    ['12..5'],
    ['1,23,4'],
    ['1.2.3,4'],
    ['1,234.567,89'],
    ['12a'],
    ['1 2'],
    ['12 34,56'],
    ['1.234,56,78'],
    ['EUR'],
    ['12.50 and 3'],
    ['1,23,456.78'],
  ])('%s -> null', (input) => {
    expect(parseAmount(input)).toBeNull();
  });

  it('uses the decimal hint only for ambiguous three-digit tails', () => {
    expect(parseAmount('1,234')).toBe(1234);
    expect(parseAmount('1.234')).toBe(1234);
    expect(parseAmount('1,234', { decimalSeparator: ',' })).toBe(1.234);
    expect(parseAmount('1.234', { decimalSeparator: ',' })).toBe(1234);
    expect(parseAmount('1.234', { decimalSeparator: '.' })).toBe(1.234);
    // Not ambiguous: two decimals decide whatever the hint says.
    expect(parseAmount('12.50', { decimalSeparator: ',' })).toBe(12.5);
    expect(parseAmount('1.234,56', { decimalSeparator: '.' })).toBe(1234.56);
  });

  it('finds amounts in running text without reading dates or percentages as money', () => {
    const found = findAmounts('Due 05.03.2024: 1.234,56 EUR incl. 19 % VAT, then (12.50) and 7%');
    expect(found.map((f) => f.value)).toEqual([1234.56, -12.5]);
    expect(findAmounts('VAT 19%: 19.00').map((f) => f.value)).toEqual([19]);
  });
});

describe('detectCurrency', () => {
  it.each([
    ['Total: 12,50 €', 'EUR'],
    ['Amount due $1,234.00', 'USD'],
    ['Total £99.00', 'GBP'],
    ['Betrag CHF 120.00', 'CHF'],
    ['Price 1.200 Fr.', 'CHF'],
    ['Price ¥12,000', 'JPY'],
    ['Total A$ 50.00', 'AUD'],
    ['Total C$ 50.00', 'CAD'],
    ['Total 50.00 USD', 'USD'],
    ['Currency: SEK', 'SEK'],
    ['Summe 100 zł', 'PLN'],
    ['Amount (GBP) 100.00', 'GBP'],
  ])('%s -> %s', (text, code) => {
    expect(detectCurrency(text)).toBe(code);
  });

  it('returns null without currency evidence and ignores word-like codes away from numbers', () => {
    expect(detectCurrency('Hello world')).toBeNull();
    expect(detectCurrency('Skills: PHP, TypeScript')).toBeNull();
  });

  it('lets the dominant currency win and is less sure about mixed documents', () => {
    const mixed = detectCurrencyDetailed('Total 100,00 € (approx. $108.00) — 20,00 € tax — 120,00 €');
    expect(mixed?.code).toBe('EUR');
    const pure = detectCurrencyDetailed('Total 100,00 € — tax 20,00 € — 120,00 €');
    expect(pure!.confidence).toBeGreaterThan(mixed!.confidence);
  });
});

describe('parseDate', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['2024/3/5', '2024-03-05'],
    ['2024-03-05T10:15:00Z', '2024-03-05'],
    ['05.03.2024', '2024-03-05'],
    ['5.3.2024', '2024-03-05'],
    ['05. 03. 2024', '2024-03-05'],
    ['05.03.24', '2024-03-05'],
    ['31/12/99', '1999-12-31'],
    ['25/03/2024', '2024-03-25'],
    ['03/25/2024', '2024-03-25'],
    ['March 5, 2024', '2024-03-05'],
    ['Mar 5 2024', '2024-03-05'],
    ['Mar. 5th, 2024', '2024-03-05'],
    ['5 March 2024', '2024-03-05'],
    ['5th of March 2024', '2024-03-05'],
    ['05-Mar-2024', '2024-03-05'],
    ['05-MAR-24', '2024-03-05'],
    ['5. März 2024', '2024-03-05'],
    ['5. MÄRZ 2024', '2024-03-05'],
    ['1er mars 2024', '2024-03-01'],
    ['5 mars 2024', '2024-03-05'],
    ['15 février 2024', '2024-02-15'],
    ['3 août 2023', '2023-08-03'],
    ['5 de marzo de 2024', '2024-03-05'],
    ['5 dicembre 2024', '2024-12-05'],
    ['5 mei 2024', '2024-05-05'],
    ['Tuesday, March 5, 2024', '2024-03-05'],
    ['Dienstag, 5. März 2024', '2024-03-05'],
    ['05.03.2024 14:30', '2024-03-05'],
    ['29.02.2024', '2024-02-29'],
  ])('%s -> %s', (input, iso) => {
    expect(parseDate(input)).toBe(iso);
  });

  it.each([
    ['31/02/2024'],
    ['29.02.2023'],
    ['2024-13-01'],
    ['00.01.2024'],
    ['hello'],
    ['5 Smarch 2024'],
    ['12345'],
    ['Invoice INV-2024-03-05X due soon'],
    ['05.03.2024 and 06.03.2024'],
  ])('%s -> null', (input) => {
    expect(parseDate(input)).toBeNull();
  });

  it('resolves day/month order of slash dates with dayFirst, unless a value above 12 decides', () => {
    expect(parseDate('03/05/2024')).toBe('2024-05-03');
    expect(parseDate('03/05/2024', { dayFirst: true })).toBe('2024-05-03');
    expect(parseDate('03/05/2024', { dayFirst: false })).toBe('2024-03-05');
    expect(parseDate('13/05/2024', { dayFirst: false })).toBe('2024-05-13');
    expect(parseDate('05/13/2024', { dayFirst: true })).toBe('2024-05-13');
    // Dots are always day-first.
    expect(parseDate('03.05.2024', { dayFirst: false })).toBe('2024-05-03');
  });

  it('marks ambiguous dates and infers the order from the rest of the document', () => {
    expect(findDates('03/05/2024')[0].ambiguous).toBe(true);
    expect(findDates('13/05/2024')[0].ambiguous).toBe(false);
    expect(inferDayFirst('Issued 03/05/2024, due 04/17/2024')).toBe(false);
    expect(inferDayFirst('Issued 03/05/2024, due 17/04/2024')).toBe(true);
    expect(inferDayFirst('Issued 03/05/2024')).toBeNull();
  });

  it('tries explicit strftime-like formats first', () => {
    expect(parseDate('05/03/2024', { formats: ['%m/%d/%Y'] })).toBe('2024-05-03');
    expect(parseDateWithFormat('2024.05.03', '%Y.%d.%m')).toBe('2024-03-05');
    expect(parseDateWithFormat('March 05, 2024', '%B %d, %Y')).toBe('2024-03-05');
    expect(parseDateWithFormat('5-Mär-24', '%d-%b-%y')).toBe('2024-03-05');
    expect(parseDateWithFormat('Tue 05 Mar 2024', '%a %d %b %Y')).toBe('2024-03-05');
    expect(parseDateWithFormat('05.03.2024', '%d/%m/%Y')).toBeNull();
    expect(parseDateWithFormat('31.02.2024', '%d.%m.%Y')).toBeNull();
  });

  it('rejects unusable formats with a reason', () => {
    expect(compileDateFormat('%d.%m.%Y').ok).toBe(true);
    expect(compileDateFormat('%d.%m').ok).toBe(false);
    expect(compileDateFormat('%d.%Q.%Y')).toMatchObject({ ok: false, message: expect.stringContaining('%Q') });
    expect(compileDateFormat('%d.%m.%Y %d')).toMatchObject({ ok: false });
  });
});

describe('IBAN', () => {
  it.each([
    'DE89 3704 0044 0532 0130 00',
    'GB82 WEST 1234 5698 7654 32',
    'FR14 2004 1010 0505 0001 3M02 606',
    'NL91ABNA0417164300',
    'CH93 0076 2011 6238 5295 7',
    'be68 5390 0754 7034',
  ])('%s is valid', (iban) => {
    expect(isValidIban(iban)).toBe(true);
  });

  it.each([
    'DE89 3704 0044 0532 0130 01', // checksum
    'GB82 WEST 1234 5698 7654 3', // length for GB
    'DE00 3704 0044 0532 0130 00',
    'XX',
    '1234567890',
  ])('%s is invalid', (iban) => {
    expect(isValidIban(iban)).toBe(false);
  });

  it('finds printed IBANs followed by other capitals and flags bad checksums', () => {
    const text = 'IBAN: DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX\nold account DE89 3704 0044 0532 0130 01';
    expect(findIbans(text)).toEqual([
      { iban: 'DE89370400440532013000', index: 6, valid: true },
      { iban: 'DE89370400440532013001', index: text.indexOf('DE89', 20), valid: false },
    ]);
    expect(formatIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
  });
});
