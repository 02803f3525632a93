// POST /templates/test: one template (saved, or a definition being edited) against one document,
// nothing stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import {
  call,
  dataOf,
  expectError,
  foundationApp,
  insertDocument,
  makeProject,
  quickActor,
  type QuickActor,
} from '../foundation/support.js';

const TEXT = 'ACME Widgets Ltd\nInvoice Number: INV-2041\nInvoice Date: 03/04/2025\nTotal: 1,234.50 EUR\n';
const DEF = {
  name: 'acme',
  issuer: 'ACME Widgets Ltd',
  keywords: ['ACME Widgets'],
  fields: {
    invoice_number: 'Invoice Number:\\s*(\\S+)',
    amount: { parser: 'regex', regex: 'Total:\\s*([\\d,]+\\.\\d\\d)', type: 'float' },
    po: 'PO:\\s*(\\S+)',
  },
};

describe('template test against a document', () => {
  let t: TestApp;
  let owner: QuickActor;
  let viewer: QuickActor;
  let docId: string;
  let templateId: string;
  beforeAll(async () => {
    t = await foundationApp('pglite');
    owner = await quickActor(t);
    viewer = await quickActor(t, { role: 'viewer', orgId: owner.orgId });
    const project = (await makeProject(t.app, owner.auth)).id;
    docId = await insertDocument(t, { orgId: owner.orgId, projectId: project, status: 'completed' });
    await t.testDb.db.query('UPDATE documents SET text_content = $2 WHERE id = $1', [docId, TEXT]);
    templateId = dataOf(
      await call(t.app, { method: 'POST', url: '/templates', headers: owner.auth, payload: DEF }),
      201,
    ).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("runs a definition being edited: keyword outcome, each field's outcome and value; a viewer may try it", async () => {
    const r = dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/templates/test',
        headers: viewer.auth,
        payload: { document_id: docId, template: DEF },
      }),
    );
    expect(r.matched).toBe(true);
    expect(r.keywords).toEqual([{ pattern: 'ACME Widgets', hit: true }]);
    expect(r.values).toMatchObject({ invoice_number: 'INV-2041', amount: 1234.5 });
    const byField = Object.fromEntries(r.fields.map((f: { field: string; status: string }) => [f.field, f.status]));
    expect(byField).toMatchObject({ invoice_number: 'ok', amount: 'ok', po: 'no_match' });
  });

  it('runs a saved template by id; keywords that miss are reported and the fields still shown', async () => {
    const r = dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/templates/test',
        headers: owner.auth,
        payload: { document_id: docId, template_id: templateId },
      }),
    );
    expect(r.template.id).toBe(templateId);
    const miss = dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/templates/test',
        headers: owner.auth,
        payload: { document_id: docId, template: { ...DEF, keywords: ['Globex'] } },
      }),
    );
    expect(miss.matched).toBe(false);
    expect(miss.reason).toBeTruthy();
    expect(miss.values.invoice_number).toBe('INV-2041');
  });

  it('stores nothing, validates like a save, and needs exactly one of template and template_id', async () => {
    const before = (await t.testDb.db.query('SELECT version, updated_at FROM templates WHERE id = $1', [templateId]))
      .rows[0];
    await call(t.app, {
      method: 'POST',
      url: '/templates/test',
      headers: owner.auth,
      payload: { document_id: docId, template_id: templateId },
    });
    expect(
      (await t.testDb.db.query('SELECT version, updated_at FROM templates WHERE id = $1', [templateId])).rows[0],
    ).toEqual(before);
    const bad = expectError(
      await call(t.app, {
        method: 'POST',
        url: '/templates/test',
        headers: owner.auth,
        payload: { document_id: docId, template: { ...DEF, fields: { x: '(?=y)' } } },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(JSON.stringify(bad.details)).toMatch(/fields/);
    expectError(
      await call(t.app, {
        method: 'POST',
        url: '/templates/test',
        headers: owner.auth,
        payload: { document_id: docId },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call(t.app, {
        method: 'POST',
        url: '/templates/test',
        headers: owner.auth,
        payload: { document_id: docId, template: DEF, template_id: templateId },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call(t.app, {
        method: 'POST',
        url: '/templates/test',
        headers: owner.auth,
        payload: { document_id: 'doc_nope', template: DEF },
      }),
      404,
      'NOT_FOUND',
    );
  });
});
