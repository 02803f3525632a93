// Template extraction keeps a document within the fields bound (src/lib/limits.ts): a captured
// value over the per-value limit is not kept, and the stage's note says which and why.
import { describe, expect, it } from 'vitest';
import { extractStage } from '../../../src/modules/documents/stages/extract.stage.js';
import type { DocumentRow } from '../../../src/modules/documents/documents.types.js';
import { documentValuesProblem, MAX_DOCUMENT_VALUE_BYTES } from '../../../src/lib/limits.js';

const doc = (text: string) =>
  ({
    id: 'doc_1',
    text_content: text,
    classification: { type: 'invoice', confidence: 1, method: 'manual' },
    fields: null,
    metadata: {},
    layout: null,
  }) as unknown as DocumentRow;

describe('extract stage: fields bound', () => {
  it('leaves out a captured value over the per-value limit and notes it', async () => {
    const text = `Acme Corp\nNUMBER 42\nNOTE ${'x'.repeat(MAX_DOCUMENT_VALUE_BYTES + 100)}\n`;
    const template = {
      id: 'tpl_1',
      version: 1,
      definition: {
        name: 'acme',
        issuer: 'Acme',
        keywords: ['Acme Corp'],
        fields: { number: 'NUMBER (\\d+)', note: 'NOTE (x+)' },
        required_fields: [],
      },
    };
    const out = await extractStage()(doc(text), null, { templates: [template] } as never);
    const fields = out.cols.fields as Record<string, { value: unknown }>;
    expect(fields.number?.value).toBeDefined();
    expect(fields.note).toBeUndefined();
    expect(out.note).toMatch(/not kept .*: note/);
    expect(documentValuesProblem(fields, {})).toBeNull();
  });
});
