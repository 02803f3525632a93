import { describe, expect, it } from 'vitest';
import {
  parseFieldPath,
  resolveField,
  type MappingContext,
} from '../../../src/modules/integrations/sheets/mapping/resolve.js';

const ctx: MappingContext = {
  document: { id: 'doc_01J', filename: 'inv.pdf', created_at: '2024-05-01T10:00:00Z', page_count: 3 },
  classification: { type: 'invoice', confidence: 0.87 },
  fields: {
    invoice_number: { value: 'INV-7', confidence: 0.95, method: 'template' },
    total: { value: 99.5, confidence: 0.9, method: 'generic' },
    currency: 'EUR',
    line_items: {
      value: [
        { description: 'Widget', amount: 10 },
        { description: 'Gadget', amount: 89.5 },
      ],
      confidence: 0.7,
      method: 'lines',
    },
    tags: ['a', 'b'],
    missing_value: { value: null, confidence: 0, method: 'generic' },
  },
};

describe('resolveField', () => {
  it.each<[string, unknown]>([
    ['document.id', 'doc_01J'],
    ['document.filename', 'inv.pdf'],
    ['document.created_at', '2024-05-01T10:00:00Z'],
    ['document.page_count', 3],
    ['classification.type', 'invoice'],
    ['classification.confidence', 0.87],
    ['fields.invoice_number', 'INV-7'],
    ['fields.total', 99.5],
    ['fields.total.confidence', 0.9],
    ['fields.total.method', 'generic'],
    ['fields.currency', 'EUR'],
    ['fields.line_items.1.description', 'Gadget'],
    ['fields.tags.0', 'a'],
    ['fields.missing_value', null],
    ['fields.nope', undefined],
    ['fields.total.nope', undefined],
    ['fields.tags.x', undefined],
    ['document.filename.length', undefined],
    ['fields.__proto__', undefined],
    ['fields.constructor', undefined],
    ['document.toString', undefined],
    ['project.id', undefined],
  ])('%s', (path, expected) => {
    expect(resolveField(path, ctx)).toEqual(expected);
  });

  it('unwraps an extracted array field', () => {
    expect(resolveField('fields.line_items', ctx)).toEqual([
      { description: 'Widget', amount: 10 },
      { description: 'Gadget', amount: 89.5 },
    ]);
  });

  it('treats missing classification / fields as absent', () => {
    expect(resolveField('classification.type', { document: {}, classification: null })).toBeUndefined();
    expect(resolveField('fields.total', { document: {} })).toBeUndefined();
  });
});

describe('parseFieldPath', () => {
  it('accepts known roots and reports bad paths', () => {
    expect(parseFieldPath('fields.line_items.0.amount')).toEqual({
      ok: true,
      root: 'fields',
      segments: ['line_items', '0', 'amount'],
    });
    for (const bad of ['document', 'doc.id', 'fields..x', 'fields.a b', 'fields.__proto__', '']) {
      expect(parseFieldPath(bad).ok).toBe(false);
    }
  });
});
