// invoice2data templates end to end: importing files (YAML and JSON, dry run, all or nothing),
// `docpipe templates import-dir`, a PDF read through its pdftotext-style layout text (columns
// apart by runs of spaces, an `area` crop), and GET /documents/{id}/template-trace.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runTemplatesCommand } from '../../../src/cli/templates-command.js';
import { createActor, createKey, type Actor } from '../../helpers/app.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { api, dataOf, errorCode } from './fixtures.js';

const LAYOUT_TEMPLATE = `
issuer: Layout Supplies Ltd
keywords: [Layout Supplies Ltd, Invoice No]
fields:
  invoice_number: Invoice No:\\s+(\\S+)
  date:
    parser: regex
    regex: Date:\\s+(\\d{2}\\.\\d{2}\\.\\d{4})
    type: date
  amount:
    parser: regex
    regex: Total\\s{2,}([\\d.]+)
    type: float
  reference:
    parser: regex
    regex: (Layout Supplies \\w+)
    area: {f: 1, l: 1, x: 0, y: 0, W: 612, H: 75}
  total_in_area:
    parser: regex
    regex: Total\\s+(\\S+)
    area: {x: 0, y: 0, W: 612, H: 75}
  items:
    parser: lines
    start: Description\\s+Qty
    end: Total
    line: ^(?P<description>\\S.*?)\\s{2,}(?P<qty>\\d+)\\s{2,}(?P<price>[\\d.]+)\\s{2,}(?P<amount>[\\d.]+)$
    types: {qty: int, price: float, amount: float}
options:
  currency: EUR
  date_formats: ['%d.%m.%Y']
`;

const OTHER_JSON = JSON.stringify([
  { issuer: 'Other Co', keywords: ['Other Co', 'Rechnung'], fields: { amount: 'Summe\\s+(\\d+)' } },
]);

describe('invoice2data templates through the API', () => {
  let t: DocsApp;
  let actor: Actor;
  let other: Actor;
  beforeAll(async () => {
    t = await createDocsApp({ kind: 'pglite' });
    actor = await createActor(t);
    other = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('imports several files at once, all or nothing, and validates without storing on a dry run', async () => {
    const dry = await api(t, actor, 'POST', '/templates/import', {
      files: [
        { name: 'layout.yml', content: LAYOUT_TEMPLATE },
        { name: 'other.json', content: OTHER_JSON },
      ],
      dry_run: true,
    });
    expect(dry.statusCode).toBe(200);
    expect(dataOf(dry).map((x: { name: string; id: null }) => [x.name, x.id])).toEqual([
      ['layout', null],
      ['other', null],
    ]);
    expect(dataOf(await api(t, actor, 'GET', '/templates'))).toEqual([]);

    const bad = await api(t, actor, 'POST', '/templates/import', {
      files: [
        { name: 'ok.yml', content: LAYOUT_TEMPLATE },
        { name: 'ahead.yml', content: 'issuer: X\nkeywords: [X]\nfields:\n  amount: Total(?= EUR)\n' },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(errorCode(bad)).toBe('VALIDATION_ERROR');
    expect(bad.json().error.details).toEqual([
      { field: 'ahead.yml: fields.amount', message: expect.stringMatching(/lookahead/) },
    ]);
    expect(dataOf(await api(t, actor, 'GET', '/templates'))).toEqual([]);

    const withWarning = dataOf(
      await api(t, actor, 'POST', '/templates/import', {
        yaml: 'issuer: W\nkeywords: [W]\nfields: {a: a}\ninput_module: pdftotext\n',
        name: 'w',
      }),
      201,
    );
    expect(withWarning[0].warnings).toEqual([{ path: 'input_module', message: expect.stringMatching(/^ignored/) }]);
    // API writes are strict: a key nobody knows is refused there.
    const strict = await api(t, actor, 'POST', '/templates', {
      issuer: 'S',
      keywords: ['S'],
      fields: { a: 'a' },
      input_modul: 'x',
    });
    expect(strict.statusCode).toBe(400);
    expect(strict.json().error.details).toEqual([{ field: 'input_modul', message: 'unknown key' }]);
    expect((await api(t, actor, 'POST', '/templates/import', {})).statusCode).toBe(400);
    await api(t, actor, 'DELETE', `/templates/${withWarning[0].id}`);
  });

  it('docpipe templates import-dir imports a folder and says why a file was refused', async () => {
    const key = (await createKey(t, actor)).key;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-templates-'));
    writeFileSync(join(dir, 'layout.yml'), LAYOUT_TEMPLATE);
    writeFileSync(join(dir, 'other.json'), OTHER_JSON);
    writeFileSync(join(dir, 'broken.yml'), 'issuer: B\nkeywords: [B]\nfields:\n  n: (\\d+)-\\1\n');
    writeFileSync(join(dir, 'notes.txt'), 'not a template');
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => {
      lines.push(a.join(' '));
    });
    const err = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => {
      lines.push(a.join(' '));
    });
    let code: number;
    try {
      code = await runTemplatesCommand(['import-dir', dir, '--url', url, '--key', key]);
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
    const out = lines.join('\n');
    expect(out).toContain('imported 2 template(s) from 2 of 3 file(s); 1 refused');
    expect(out).toMatch(/refused: broken\.yml: fields\.n backreference \\1 is not supported/);
    expect(code).toBe(1);
    const names = dataOf(await api(t, actor, 'GET', '/templates'))
      .map((x: { name: string }) => x.name)
      .sort();
    expect(names).toEqual(['layout', 'other']);
  });

  it(
    'reads a PDF through its layout text and explains the choice in the template trace',
    { timeout: 60_000 },
    async () => {
      const projectId = await createProject(t, actor, { name: 'Layout', classification_threshold: 0 });
      const pdf = await makeTextPdf({
        pages: [
          [
            'Layout Supplies Ltd',
            'Invoice No: INV-7',
            'Date: 05.03.2024',
            '',
            'Description\tQty\tUnit price\tAmount',
            'Paper A4\t10\t4.50\t45.00',
            'Toner\t2\t60.00\t120.00',
            'Total\t\t\t165.00',
          ],
        ],
      });
      const id = dataOf(await upload(t, actor, projectId, 'invoice.pdf', pdf), 201).id;
      const done = await waitForDocument(t, id, 45_000);
      expect(done.status).toBe('completed');
      const doc = dataOf(await api(t, actor, 'GET', `/documents/${id}`));
      expect(doc.fields.invoice_number.value).toBe('INV-7');
      expect(doc.fields.date.value).toBe('2024-03-05');
      // Only the layout text keeps the Total cell two or more spaces away from its amount.
      expect(doc.fields.amount).toMatchObject({ value: 165, method: 'template' });
      expect(doc.fields.items.value).toEqual([
        { description: 'Paper A4', qty: 10, price: 4.5, amount: 45 },
        { description: 'Toner', qty: 2, price: 60, amount: 120 },
      ]);
      // The area covers the top of the page only.
      expect(doc.fields.reference.value).toBe('Layout Supplies Ltd');
      expect(doc.fields.total_in_area).toBeUndefined();
      expect(doc.fields.desc.value).toBe('Invoice from Layout Supplies Ltd');

      const trace = dataOf(await api(t, actor, 'GET', `/documents/${id}/template-trace`));
      expect(trace.text_source).toBe('layout');
      expect(trace.extracted_with.template_id).toBe(trace.chosen.id);
      const byName = Object.fromEntries(trace.templates.map((x: { name: string }) => [x.name, x]));
      expect(byName.layout).toMatchObject({
        matched: true,
        keywords: [
          { pattern: 'Layout Supplies Ltd', hit: true },
          { pattern: 'Invoice No', hit: true },
        ],
      });
      expect(byName.other).toMatchObject({ matched: false, reason: 'keywords not found: "Other Co", "Rechnung"' });
      expect(trace.chosen.fields).toContainEqual({
        field: 'total_in_area',
        parser: 'regex',
        status: 'no_match',
        reason: 'the regex did not match',
      });
      expect(trace.chosen.fields).toContainEqual({ field: 'amount', parser: 'regex', status: 'ok' });
      expect(trace.chosen.missing_required).toEqual([]);

      // Tenancy: another organization and the test environment see no such document.
      const cross = await api(t, other, 'GET', `/documents/${id}/template-trace`);
      expect(cross.statusCode).toBe(404);
      expect(errorCode(cross)).toBe('NOT_FOUND');
      const testEnv = await t.app.inject({
        method: 'GET',
        url: `/api/v1/documents/${id}/template-trace`,
        headers: { ...actor.auth, 'x-environment': 'test' },
      });
      expect(testEnv.statusCode).toBe(404);
      expect((await api(t, actor, 'GET', '/documents/doc_missing/template-trace')).statusCode).toBe(404);
    },
  );
});
