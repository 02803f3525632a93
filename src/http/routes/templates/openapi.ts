// The template routes in the OpenAPI document (shapes as the templates service writes them).
import { component, t, type OperationDocs } from '../../openapi-shapes.js';

const props = {
  id: t.str,
  name: t.str,
  issuer: t.str,
  priority: t.int,
  version: t.int,
  definition: t.map(t.any, 'The invoice2data template: issuer, keywords, fields, options …'),
  created_at: t.time,
  updated_at: t.time,
};
const template = component('Template', t.obj(props));
const imported = component(
  'ImportedTemplate',
  t.obj(
    {
      ...props,
      id: { type: ['string', 'null'], description: 'null in a dry run' },
      warnings: t.arr(t.obj({ path: t.str, message: t.str })),
    },
    ['version', 'created_at', 'updated_at'],
    'A template as imported (or, in a dry run, as it would be) with the warnings of its file',
  ),
);
const example = {
  id: 'tpl_01HZX3Z9',
  name: 'acme',
  issuer: 'ACME GmbH',
  priority: 5,
  version: 1,
  definition: {
    issuer: 'ACME GmbH',
    keywords: ['ACME GmbH', 'Invoice'],
    fields: { invoice_number: 'Invoice (\\d+)', amount: 'Total ([\\d.,]+)' },
  },
  created_at: '2026-05-04T09:00:00.000Z',
  updated_at: '2026-05-04T09:00:00.000Z',
};
const report = t.map(
  t.any,
  'Per template: keyword hits and misses, why it did not match; for the one that applies, each field’s outcome and value',
);

const keywordHits = t.arr(t.obj({ pattern: t.str, hit: t.bool }));
// What POST /templates/test answers (templates/template-trace.ts `testTemplate`): spelled out so
// the dashboard's template tester is typed from it.
const templateTest = t.obj(
  {
    document_id: t.str,
    template: t.obj({ id: t.nstr, name: t.str, issuer: t.str }, ['name', 'issuer']),
    text_source: { ...t.enum(['layout', 'text'], true), description: 'null while the document has no text yet' },
    note: t.str,
    matched: t.bool,
    reason: { ...t.str, description: 'Why the keywords do not match' },
    keywords: keywordHits,
    exclude_keywords: keywordHits,
    fields: t.arr(
      t.obj(
        {
          field: t.str,
          parser: t.enum(['regex', 'static', 'lines', 'tables']),
          status: t.enum(['ok', 'no_match', 'failed', 'empty', 'skipped']),
          reason: t.str,
        },
        ['reason'],
      ),
    ),
    values: t.map(t.any, 'Per field, the value it would extract'),
    missing_required: t.arr(t.str),
    warnings: { ...t.arr(t.str), description: 'Values that did not convert, regexes that could not run' },
  },
  ['note', 'reason', 'keywords', 'exclude_keywords'],
);

export const templatesDocs: OperationDocs = {
  'GET /templates': { list: true, data: template, example },
  'POST /templates': {
    status: 201,
    description: 'Created',
    data: template,
    example,
    requestExample: example.definition,
  },
  'POST /templates/import': {
    status: 201,
    description: 'Imported (all or nothing)',
    data: t.arr(imported),
    also: { 200: { description: 'dry_run: validated, nothing stored' } },
    requestExample: {
      yaml: 'issuer: ACME GmbH\nkeywords: [ACME GmbH, Invoice]\nfields:\n  invoice_number: Invoice (\\d+)\n',
      name: 'acme',
      dry_run: true,
    },
  },
  'GET /documents/:id/template-trace': { data: report },
  'POST /templates/test': {
    data: templateTest,
    errors: { 404: 'No such document or template' },
    requestExample: { document_id: 'doc_01HZX4A7Q2', template_id: 'tpl_01HZX3Z9' },
  },
  'POST /templates/learn': {
    status: 201,
    description: 'Learned and stored',
    data: component(
      'LearnedTemplate',
      t.obj(
        {
          ...props,
          skipped_fields: t.arr(t.obj({ field: t.str, reason: t.str })),
        },
        [],
        'The stored template, and the machine-read fields left out because their value was not found',
      ),
    ),
    errors: {
      404: 'No such document',
      409: 'The document has no extracted fields yet',
      422: 'A confirmed field’s value cannot be located in the text: `details` names each field and why',
    },
    requestExample: { document_id: 'doc_01HZX4A7Q2', name: 'Corner Hardware receipts' },
  },
  'GET /templates/:id': { data: template, example },
  'PUT /templates/:id': { data: template, example, requestExample: example.definition },
  'DELETE /templates/:id': {
    data: t.gone(),
    errors: { 409: 'The template is the default of a project (`details.project_ids`)' },
  },
};
