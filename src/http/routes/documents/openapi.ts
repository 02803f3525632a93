// The documents routes in the OpenAPI document: success answers (as presentDocument and the
// batches repository write them), extra errors and examples.
import { DOCUMENT_STATUSES, STAGES } from '../../../modules/documents/documents.types.js';
import { describeBytes } from '../../../lib/bytes.js';
import {
  LIST_ITEM_VALUES_BYTES,
  LIST_VALUE_BYTES,
  MAX_DOCUMENT_VALUE_BYTES,
  MAX_DOCUMENT_VALUES_BYTES,
  MAX_UPLOAD_METADATA_BYTES,
} from '../../../lib/limits.js';
import { component, t, type OperationDocs } from '../../openapi-shapes.js';

const BOUND = `A document's fields and metadata are bounded: each value at most ${describeBytes(MAX_DOCUMENT_VALUE_BYTES)} of JSON, fields and metadata together at most ${describeBytes(MAX_DOCUMENT_VALUES_BYTES)}`;
const LIST_NOTE = `Each item carries its fields, then metadata, while they fit ${describeBytes(LIST_ITEM_VALUES_BYTES)} of JSON (an entry over ${describeBytes(LIST_VALUE_BYTES)} is never shown in a list); \`values_truncated: true\` says entries were left out, and GET /documents/{id} has them all. A page therefore stays small however large documents' values are; page through with page/per_page as usual.`;

const stageNote = t.map(t.str, 'Per stage, e.g. why embedding was skipped');

/** Where a value was read: a box on a page (PDFs, images) or offsets into the document's text. */
export const positionSchema = component('FieldPosition', {
  description:
    "Where a value was read. PDFs and images: `page` (1-based) and `bbox` [x0, y0, x1, y1] from the page's top left, in PDF points (`unit` pt) or image pixels (`unit` px, OCR'd pages). Text documents: `start` and `end` character offsets (end exclusive) into GET /documents/{id}/text. Absent for values not read from the document (a template's static values, computed ones).",
  oneOf: [
    t.obj({
      page: t.int,
      bbox: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 },
      unit: t.enum(['pt', 'px']),
    }),
    t.obj({ start: t.int, end: t.int }),
  ],
});

export const documentSchema = component(
  'Document',
  t.obj(
    {
      id: t.str,
      project_id: t.str,
      filename: t.str,
      mime_type: t.str,
      size_bytes: t.int,
      sha256: t.str,
      source: t.enum(['upload', 'email', 'api']),
      source_metadata: t.map(
        t.any,
        'Where it came from (mailbox, message, parent_document_id of an e-mail attachment …)',
      ),
      metadata: t.map(t.any, 'The uploader’s own metadata'),
      status: t.enum(DOCUMENT_STATUSES),
      error: t.nullable(t.obj({ stage: t.str, code: t.str, message: t.str })),
      page_count: t.nint,
      language: t.nstr,
      classification: t.nullable(
        t.obj({ type: t.str, confidence: t.num, method: t.str, confirmed: t.bool }, ['method']),
      ),
      fields: t.nullable(
        t.map(
          t.obj(
            {
              value: t.any,
              confidence: t.num,
              method: t.str,
              confirmed: t.bool,
              position: positionSchema,
              cells: {
                ...t.arr(t.map(positionSchema)),
                description: 'Table values: per row, the position of each cell read from the page, by column',
              },
              computed: {
                type: 'boolean',
                enum: [true],
                description:
                  'The value was not read from the document (a template’s static value, a sum of several values read, a figure or date worked out from others), so it has no position',
              },
            },
            ['confirmed', 'position', 'cells', 'computed'],
          ),
          'Extracted fields by name',
        ),
      ),
      duplicate_of: t.nullable(
        t.obj(
          {
            id: t.str,
            similarity: { type: 'number', minimum: 0, maximum: 1 },
            method: t.enum(['minhash']),
          },
          [],
          'The earlier document of the organization whose text this one nearly repeats (found when it was parsed)',
        ),
      ),
      version: t.int,
      pipeline: t.obj({
        stages: t.arr(t.enum(STAGES)),
        current_stage: t.enum(STAGES, true),
        notes: stageNote,
        skipped: t.map(
          t.obj({ code: t.str, message: t.str }),
          'Stages of the last run that let the document go on without doing their work, and why (embed: EMBEDDING_UNAVAILABLE when no embedding model could be loaded)',
        ),
      }),
      models: t.obj({
        embedding_model: t.nstr,
        classifier_version: t.nstr,
        template_id: t.nstr,
        template_version: t.nint,
      }),
      timestamps: t.obj({
        uploaded_at: t.time,
        parsed_at: t.ntime,
        embedded_at: t.ntime,
        classified_at: t.ntime,
        extracted_at: t.ntime,
        exported_at: t.ntime,
        completed_at: t.ntime,
      }),
      created_at: t.time,
      updated_at: t.time,
      duplicate: { type: 'boolean', description: 'Upload answers only: the same file was already in the project' },
      values_truncated: {
        type: 'boolean',
        description:
          'List answers only: some fields or metadata entries were left out of this item to keep the page bounded; GET /documents/{id} has them all',
      },
      exports: t.arr(t.map(t.any)),
    },
    ['duplicate', 'exports', 'values_truncated'],
  ),
);

const stageProblem = t.obj({ stage: t.str, code: t.str, message: t.str }, ['stage', 'code', 'message']);
export const batchSchema = component(
  'Batch',
  t.obj({
    id: t.str,
    kind: t.str,
    status: t.enum(['running', 'completed']),
    stages: t.arr(t.enum(STAGES)),
    mode: t.str,
    total: t.int,
    completed: t.int,
    skipped: t.int,
    failed: t.int,
    pending: t.int,
    progress: { type: 'number', minimum: 0, maximum: 1 },
    queued: { ...t.int, description: 'Documents queued so far (the walker queues a batch page by page)' },
    walking: {
      type: 'boolean',
      description:
        'True while documents are still being queued; `total` is then the count made when the batch was created',
    },
    failures: t.arr(
      t.obj(
        { document_id: t.str, error: t.nullable(stageProblem) },
        [],
        'Up to 100 documents that failed, with the error',
      ),
    ),
    skips: t.arr(
      t.obj(
        { document_id: t.str, reason: t.nullable(stageProblem) },
        [],
        'Up to 100 documents a stage skipped, with the reason',
      ),
    ),
    created_at: t.time,
    updated_at: t.time,
    finished_at: t.ntime,
  }),
);

const counts = t.map(t.int);
const docExample = {
  id: 'doc_01HZX4A7Q2',
  project_id: 'prj_01HZX3Z1K9',
  filename: 'invoice-1042.pdf',
  mime_type: 'application/pdf',
  size_bytes: 48213,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  source: 'upload',
  source_metadata: {},
  metadata: { po: '4711' },
  status: 'completed',
  error: null,
  page_count: 1,
  language: 'en',
  classification: { type: 'invoice', confidence: 0.97, method: 'classifier', confirmed: false },
  fields: {
    invoice_number: { value: '1042', confidence: 0.95, method: 'template' },
    total: { value: 1190.0, confidence: 0.9, method: 'template' },
  },
  duplicate_of: null,
  version: 1,
  pipeline: { stages: [...STAGES], current_stage: null, notes: {}, skipped: {} },
  models: {
    embedding_model: 'Xenova/all-MiniLM-L6-v2',
    classifier_version: 'builtin-3',
    template_id: 'tpl_01HZX3Z9',
    template_version: 2,
  },
  timestamps: {
    uploaded_at: '2026-05-04T09:12:00.000Z',
    parsed_at: '2026-05-04T09:12:01.000Z',
    embedded_at: '2026-05-04T09:12:02.000Z',
    classified_at: '2026-05-04T09:12:02.000Z',
    extracted_at: '2026-05-04T09:12:03.000Z',
    exported_at: null,
    completed_at: '2026-05-04T09:12:03.000Z',
  },
  created_at: '2026-05-04T09:12:00.000Z',
  updated_at: '2026-05-04T09:12:03.000Z',
};
const batchExample = {
  id: 'bat_01HZX5B8',
  kind: 'reprocess',
  status: 'running',
  stages: ['classify', 'extract'],
  mode: 'missing',
  total: 12,
  completed: 3,
  skipped: 0,
  failed: 0,
  pending: 9,
  progress: 0.25,
  queued: 12,
  walking: false,
  failures: [],
  skips: [],
  created_at: '2026-05-04T10:00:00.000Z',
  updated_at: '2026-05-04T10:00:05.000Z',
  finished_at: null,
};

export const documentsDocs: OperationDocs = {
  'POST /documents': {
    status: 201,
    description: 'Stored and queued for processing',
    data: documentSchema,
    example: { ...docExample, status: 'uploaded', duplicate: false },
    also: {
      200: {
        description:
          'The same file is already in this project (`duplicate: true`); nothing was stored. Pass allow_duplicate=true to store it again.',
      },
    },
    errors: {
      400: `Bad form fields, or metadata over its limit (the message names the field and the limit). ${BOUND}.`,
      404: 'No such project (project_id) in the caller’s organization and environment',
      413: 'The file is larger than MAX_UPLOAD_MB (the message names the limit)',
      415: 'Not multipart/form-data, or a file type that can never be processed',
    },
    requestBody: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: {
            file: {
              type: 'string',
              format: 'binary',
              contentMediaType: 'application/octet-stream',
              description: 'The document (PDF, image, DOCX, text, .eml …)',
            },
            project_id: { type: 'string', description: 'Project that receives it (or `?project_id=` in the query)' },
            metadata: {
              type: 'string',
              description: `Your own JSON object, up to ${describeBytes(MAX_UPLOAD_METADATA_BYTES)} of JSON (each value at most ${describeBytes(MAX_DOCUMENT_VALUE_BYTES)})`,
            },
            allow_duplicate: {
              type: 'string',
              enum: ['true', 'false'],
              description: 'Store it even when the same file is already in the project',
            },
          },
        },
        encoding: { file: { contentType: 'application/octet-stream' }, metadata: { contentType: 'application/json' } },
      },
    },
  },
  'GET /documents': {
    list: true,
    data: documentSchema,
    example: { ...docExample, values_truncated: false },
    description: LIST_NOTE,
  },
  'GET /documents/activity': {
    errors: { 404: 'No such project (project_id)' },
    data: t.obj({
      days: t.int,
      tz: t.str,
      since: t.str,
      series: t.arr(t.obj({ date: t.str, total: t.int, by_status: counts, by_type: counts, by_source: counts })),
      totals: t.obj({ total: t.int, by_status: counts, by_type: counts, by_source: counts }),
      stages: t.map(t.obj({ in_progress: t.int, failed: t.int }), 'Per stage: documents in progress and failed'),
    }),
  },
  'GET /documents/:id': {
    data: documentSchema,
    description: 'The document, with `exports` (its export status per Sheets export)',
    example: { ...docExample, exports: [] },
  },
  'GET /documents/:id/content': {
    binary: true,
    description: 'The original file, with its Content-Type and a Content-Disposition naming it',
  },
  'GET /documents/:id/preview': {
    binary: 'image/png',
    description:
      "The first page of an image document as a PNG, upright and at most 2400 pixels on its longest side: what OCR read, for browsers that cannot show the original (TIFF) or would turn it differently (EXIF orientation). OCR word boxes (`GET /documents/{id}/words`) are in pixels of the full-size upright image; scale them by this image's width over the page's `width`. Decoded in a memory-limited process; carries an ETag.",
    errors: {
      409: 'The document is not an image (PDFs and text have no preview)',
      422: 'The image cannot be decoded, or has more pixels than OCR_MAX_MEGAPIXELS allows',
    },
  },
  'GET /documents/:id/text': {
    data: t.obj({ id: t.str, text: t.str }),
    errors: { 409: 'The document has no text yet (not parsed)' },
    example: { id: 'doc_01HZX4A7Q2', text: 'ACME GmbH\nInvoice 1042\nTotal 1.190,00 EUR' },
  },
  'GET /documents/:id/words': {
    data: t.obj({
      id: t.str,
      pages: t.arr(
        t.obj(
          {
            page: t.int,
            unit: t.enum(['pt', 'px']),
            width: t.int,
            height: t.int,
            words: t.arr(t.obj({ text: t.str, bbox: { type: 'array', items: t.num, minItems: 4, maxItems: 4 } })),
          },
          ['width', 'height'],
          'A page with positioned words: `pt` for a PDF text layer (points from the top left, as field positions), `px` for a page read by OCR (pixels of the image read; `width` and `height` give its size when known, to scale the boxes onto a rendered page)',
        ),
      ),
    }),
    description:
      'Pages without positioned words (text documents, pages beyond the first 30) are left out; images and scanned PDF pages give their OCR word boxes',
    errors: { 409: 'The document has no text yet (not parsed)' },
    example: {
      id: 'doc_01HZX4A7Q2',
      pages: [
        {
          page: 1,
          unit: 'px',
          width: 1240,
          height: 1754,
          words: [
            { text: 'Invoice', bbox: [96, 120, 212, 152] },
            { text: '1042', bbox: [224, 120, 290, 152] },
          ],
        },
      ],
    },
  },
  'PATCH /documents/:id': {
    data: documentSchema,
    errors: {
      400: `Invalid body, or fields/metadata that would break the bound (the message names the field, e.g. \`fields.note\`, and the limit; nothing is written). ${BOUND}.`,
    },
    requestExample: { classification: { type: 'invoice' }, fields: { total: 1190 } },
  },
  'DELETE /documents/:id': { data: t.gone(), example: { id: 'doc_01HZX4A7Q2', deleted: true } },
  'POST /documents/:id/reprocess': { status: 202, description: 'The stages are queued', data: documentSchema },
  'POST /documents/reprocess': {
    status: 202,
    description: 'A batch was created; follow it at GET /batches/{id}',
    data: batchSchema,
    example: batchExample,
    errors: { 404: 'No such project' },
    requestExample: { project_id: 'prj_01HZX3Z1K9', stages: ['embed'], mode: 'missing' },
  },
  'GET /batches/:id': { data: batchSchema, example: batchExample },
  'GET /projects/:id/documents': { list: true, data: documentSchema, description: LIST_NOTE },
};
