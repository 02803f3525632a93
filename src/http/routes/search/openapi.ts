// The search routes in the OpenAPI document (shapes as search.service.ts writes them).
import { DOCUMENT_STATUSES } from '../../../modules/documents/documents.types.js';
import { SEARCH_MODES } from '../../../modules/search/search.service.js';
import { component, t, type OperationDocs } from '../../openapi-shapes.js';

const found = component(
  'FoundDocument',
  t.obj({
    id: t.str,
    filename: t.str,
    project_id: t.str,
    classification: { ...t.nstr, description: 'The document type, when classified' },
    status: t.enum(DOCUMENT_STATUSES),
  }),
);

const highlight = t.obj({
  field: {
    ...t.enum(['text', 'chunk']),
    description: 'text: a full-text match; chunk: the passage nearest in meaning',
  },
  snippet: { ...t.str, description: 'Escaped HTML; matches are wrapped in <mark>…</mark>' },
});

export const searchDocs: OperationDocs = {
  'GET /documents/search': {
    description: 'Ranked results and the mode used',
    data: t.obj({
      mode: t.enum(SEARCH_MODES),
      results: t.arr(
        t.obj({
          document: found,
          score: { ...t.num, description: 'keyword: ts_rank_cd; semantic: cosine; hybrid: reciprocal rank fusion' },
          highlights: t.arr(highlight),
        }),
      ),
    }),
    errors: { 400: 'Bad input (the field is named), or semantic/hybrid without a loaded embedding model (mode)' },
    example: {
      mode: 'keyword',
      results: [
        {
          document: {
            id: 'doc_01HZX4A7Q2',
            filename: 'contract.pdf',
            project_id: 'prj_01HZX3Z1K9',
            classification: 'contract',
            status: 'completed',
          },
          score: 0.0821,
          highlights: [{ field: 'text', snippet: 'either party may <mark>terminate</mark> this agreement' }],
        },
      ],
    },
  },
  'GET /documents/:id/similar': {
    description: 'Nearest documents of the same organization and environment, and how they were found',
    data: t.obj({
      method: t.enum(['embedding', 'minhash']),
      results: t.arr(t.obj({ document: found, similarity: t.num })),
    }),
    example: {
      method: 'minhash',
      results: [
        {
          document: {
            id: 'doc_01HZX9B3M1',
            filename: 'invoice-1042-scan.pdf',
            project_id: 'prj_01HZX3Z1K9',
            classification: 'invoice',
            status: 'completed',
          },
          similarity: 0.83,
        },
      ],
    },
  },
};
