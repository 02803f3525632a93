import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractFields, parseTemplateYaml, type TemplateDef } from '../../../src/pipeline/extract/index.js';
import * as F from './fixtures.js';

const SAMPLES = join(dirname(fileURLToPath(import.meta.url)), '../../../samples/templates');

function sampleTemplates(): TemplateDef[] {
  return readdirSync(SAMPLES)
    .filter((f) => f.endsWith('.yml'))
    .flatMap((f) => {
      const r = parseTemplateYaml(readFileSync(join(SAMPLES, f), 'utf8'), { name: f.replace(/\.yml$/, '') });
      if (!r.ok) throw new Error(`${f}: ${JSON.stringify(r.errors)}`);
      return r.templates;
    });
}

describe('extractFields', () => {
  const templates = sampleTemplates();

  it('uses the matching sample template and fills the rest generically', () => {
    const r = extractFields({ text: F.INVOICE_DE, type: 'invoice', templates });
    expect(r.method).toBe('template');
    expect(r.templateId).toBe('muster-elektro');
    expect(r.missingRequired).toEqual([]);
    expect(r.fields.amount).toEqual({ value: 401.39, confidence: 0.95, method: 'template' });
    expect(r.fields.date.value).toBe('2024-03-12');
    expect(r.fields.customer_number.value).toBe(40231);
    expect((r.fields.lines.value as unknown[]).length).toBe(3);
    expect(r.fields.lines.method).toBe('template');
    // Generic values the template did not define, with their own methods.
    expect(r.fields.iban).toMatchObject({ value: 'DE89370400440532013000', method: 'regex' });
    expect(r.fields.tax).toMatchObject({ value: 64.09, method: 'label' });
    // No generic duplicates of template fields under another name.
    expect(r.fields.total).toBeUndefined();
    expect(r.fields.issue_date).toBeUndefined();
    expect(r.fields.vendor).toBeUndefined();
  });

  it.each([
    [
      F.INVOICE_EN,
      'acme-widgets',
      { amount: 199.8, date: '2024-03-05', invoice_number: 'INV-2024-0042', currency: 'GBP' },
    ],
    [
      F.INVOICE_FR,
      'studio-lumiere',
      { amount: 840, date: '2024-03-15', invoice_number: 'f-2024-0315', issuer: 'Studio Lumière SARL' },
    ],
    [
      F.BANK_EN,
      'northwind-bank-statement',
      { period_start: '2024-03-01', period_end: '2024-03-31', closing_balance: 2650, credits: 2500, debits: -1100 },
    ],
  ])('selects the right sample template (%#)', (text, id, expected) => {
    const r = extractFields({ text, type: 'invoice', templates });
    expect(r.templateId).toBe(id);
    expect(r.missingRequired).toEqual([]);
    for (const [k, v] of Object.entries(expected)) expect(r.fields[k]?.value, k).toEqual(v);
  });

  it('falls back to generic extraction when no template matches', () => {
    const r = extractFields({ text: F.RECEIPT_DE, type: 'receipt', templates });
    expect(r.method).toBe('generic');
    expect(r.templateId).toBeUndefined();
    expect(r.missingRequired).toBeUndefined();
    expect(r.fields.total.value).toBe(7.41);
  });

  it('applies the project default template when nothing matches, with reduced confidence', () => {
    const fallback: TemplateDef = {
      name: 'default',
      id: 'tpl_default',
      issuer: 'Unknown supplier',
      keywords: ['NEVER PRESENT'],
      fields: { amount: { parser: 'regex', regex: 'SUMME EUR\\s+(\\S+)', type: 'float' } },
      options: { decimal_separator: ',' },
    };
    const r = extractFields({ text: F.RECEIPT_DE, type: 'receipt', templates, template: fallback });
    expect(r.method).toBe('template');
    expect(r.templateId).toBe('tpl_default');
    expect(r.fields.amount.value).toBe(7.41);
    expect(r.fields.amount.confidence).toBeLessThan(0.95);
    expect(r.missingRequired).toEqual(['date', 'invoice_number']);
    // Generic receipt fields still fill the gaps, but not duplicates of amount/issuer.
    expect(r.fields.receipt_number.value).toBe('4711');
    expect(r.fields.total).toBeUndefined();
    expect(r.fields.merchant).toBeUndefined();
  });

  it('prefers a matching template over the default template', () => {
    const fallback: TemplateDef = { name: 'default', issuer: 'X', keywords: ['x'], fields: {} };
    expect(extractFields({ text: F.INVOICE_EN, type: 'invoice', templates, template: fallback }).templateId).toBe(
      'acme-widgets',
    );
  });

  it('passes template warnings through and works without templates', () => {
    const t: TemplateDef = {
      name: 'warn',
      issuer: 'ACME Widgets Ltd',
      keywords: ['ACME'],
      fields: { date: { parser: 'regex', regex: 'Invoice No: (\\S+)', type: 'date' } },
      required_fields: ['date'],
    };
    const r = extractFields({ text: F.INVOICE_EN, type: 'invoice', templates: [t] });
    expect(r.warnings).toEqual(['fields.date: could not read "INV-2024-0042" as date']);
    expect(r.missingRequired).toEqual(['date']);
    // The generic issue date fills in.
    expect(r.fields.issue_date).toMatchObject({ value: '2024-03-05', method: 'label' });
    expect(extractFields({ text: F.INVOICE_EN, type: 'invoice' }).method).toBe('generic');
  });

  it('uses the hints for generic fields', () => {
    const text = 'Invoice No: 7\nInvoice Date: 03/04/2024\nTotal: 1,500';
    const us = extractFields({ text, type: 'invoice', hints: { dayFirst: false, decimalSeparator: ',' } });
    expect(us.fields.issue_date.value).toBe('2024-03-04');
    expect(us.fields.total.value).toBe(1.5);
  });
});
