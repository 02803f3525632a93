// Broken and hostile inputs through the whole pipeline: every document ends `failed` with the
// reason (error.code) or `completed`, none hangs, and the workers keep serving — a normal
// document uploaded after all of them completes. The real-world corpus in ../shared/corpora is
// used when present.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { makeDocxBomb, makePdfFlateBomb, makePngDeclaring } from '../../helpers/bombs.js';
import { makeManyPagePdf, makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { dataOf, errorCode, INVOICE_LINES, RECEIPT_TEXT } from '../documents/fixtures.js';

const CORPUS = resolve(import.meta.dirname, '../../../../shared/corpora/robustness/pdf');
const corpusPresent = existsSync(CORPUS);
if (!corpusPresent) console.warn(`reliability/hostile-inputs: corpus part skipped, ${CORPUS} is not present`);

/** Why parsing can fail; a failure with any other code would mean an unhandled error. */
const PARSE_CODES = ['EMPTY', 'ENCRYPTED', 'CORRUPT', 'UNSUPPORTED_TYPE', 'TOO_MANY_PAGES', 'TOO_LARGE', 'OCR_FAILED'];

/** Corpus files the parser needs its full time limits for (cyclic operator lists). */
const SLOW = ['pdfjs__operator_list_cycle.pdf'];
const slowFirst = (f: string) => (SLOW.includes(f) ? 0 : 1);

/** Deterministic "random" bytes (xorshift), so the garbage is the same on every run. */
function garbage(n: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.alloc(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

describe('hostile inputs (pglite)', () => {
  let t: DocsApp;
  let actor: Actor;
  let projectId: string;
  beforeAll(async () => {
    // A parser memory limit under the default, so the PDF bomb below is refused in seconds.
    t = await createDocsApp({ kind: 'pglite', env: { PARSE_MAX_MEMORY_MB: '512' } });
    actor = await createActor(t);
    // Threshold 0: classification never parks a document in needs_review here.
    projectId = await createProject(t, actor, { name: 'Hostile', classification_threshold: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it(
    'ends every broken file failed with its reason or completed, and keeps serving',
    { timeout: 110_000 },
    async () => {
      const invoice = await makeTextPdf({ pages: [INVOICE_LINES] });
      const cases: {
        name: string;
        data: Buffer;
        expect: { status: 'completed'; mime?: string } | { status: 'failed'; code: string };
      }[] = [
        { name: 'truncated.pdf', data: invoice.subarray(0, 300), expect: { status: 'failed', code: 'CORRUPT' } },
        {
          name: 'encrypted.pdf',
          data: await makeTextPdf({ pages: [['Top secret']], encrypt: true }),
          expect: { status: 'failed', code: 'ENCRYPTED' },
        },
        { name: 'photo.jpg', data: invoice, expect: { status: 'completed', mime: 'application/pdf' } },
        { name: 'report.pdf', data: Buffer.from(RECEIPT_TEXT), expect: { status: 'completed', mime: 'text/plain' } },
        { name: 'blob.bin', data: garbage(8192), expect: { status: 'failed', code: 'UNSUPPORTED_TYPE' } },
        {
          name: 'fake.pdf',
          data: Buffer.concat([Buffer.from('%PDF-1.7\n'), garbage(4096, 7)]),
          expect: { status: 'failed', code: 'CORRUPT' },
        },
        {
          name: 'ten-thousand-pages.pdf',
          data: makeManyPagePdf(10_000),
          expect: { status: 'failed', code: 'TOO_MANY_PAGES' },
        },
        // Decompression bombs: 2 MB that inflate to gigabytes, and 128 bytes declaring 2.5 billion pixels.
        { name: 'bomb.docx', data: makeDocxBomb(2 * 1024 ** 3), expect: { status: 'failed', code: 'TOO_LARGE' } },
        { name: 'bomb.pdf', data: makePdfFlateBomb(1024 ** 3), expect: { status: 'failed', code: 'TOO_LARGE' } },
        { name: 'poster.png', data: makePngDeclaring(50_000, 50_000), expect: { status: 'failed', code: 'TOO_LARGE' } },
      ];
      // Zero bytes never become a document.
      const empty = await upload(t, actor, projectId, 'empty.pdf', Buffer.alloc(0));
      expect(empty.statusCode).toBe(400);
      expect(errorCode(empty)).toBe('VALIDATION_ERROR');

      // The slowest file first: it runs out the parser's own time limits (about a minute) on one
      // parse worker while the other works through the rest.
      const corpus = corpusPresent
        ? readdirSync(CORPUS)
            .filter((f) => f.endsWith('.pdf'))
            .sort((a, b) => slowFirst(a) - slowFirst(b) || a.localeCompare(b))
        : [];
      const ids = new Map<string, string>();
      const [first, ...rest] = corpus;
      const uploadCorpus = async (f: string) => {
        const res = await upload(t, actor, projectId, f, readFileSync(join(CORPUS, f)), { allow_duplicate: 'true' });
        ids.set(f, dataOf(res, 201).id);
      };
      if (first) await uploadCorpus(first);
      for (const c of cases) ids.set(c.name, dataOf(await upload(t, actor, projectId, c.name, c.data), 201).id);
      for (const f of rest) await uploadCorpus(f);

      const outcomes: Record<string, { status: string; code?: string; pages?: number }> = {};
      for (const [name, id] of ids) {
        const d = await waitForDocument(t, id, 90_000);
        outcomes[name] = { status: d.status, code: d.error?.code, pages: d.page_count ?? undefined };
        expect(['completed', 'failed'], `${name}: ${d.status}`).toContain(d.status);
        if (d.status === 'failed') {
          expect(d.error.stage, name).toBe('parse');
          expect(PARSE_CODES, `${name}: ${d.error.code} ${d.error.message}`).toContain(d.error.code);
          expect(d.error.message.length, name).toBeGreaterThan(0);
          expect(d.pipeline.current, name).toBeNull();
        } else {
          expect(d.text_content.trim().length, name).toBeGreaterThan(0);
          expect(d.page_count, name).toBeGreaterThanOrEqual(1);
        }
      }
      console.log(
        Object.entries(outcomes)
          .map(([n, o]) => `${n}: ${o.status}${o.code ? ` ${o.code}` : ''}`)
          .join('\n'),
      );

      for (const c of cases) {
        const o = outcomes[c.name];
        if (c.expect.status === 'failed') expect(o, c.name).toMatchObject({ status: 'failed', code: c.expect.code });
        else {
          expect(o.status, c.name).toBe('completed');
          const d = dataOf(
            await t.app.inject({ method: 'GET', url: `/api/v1/documents/${ids.get(c.name)}`, headers: actor.auth }),
          );
          expect(d.mime_type, c.name).toBe(c.expect.mime);
        }
      }
      // Corpus files that need a password nobody gave; and encrypted ones that open with the
      // empty password. Each must be among the outcomes when the corpus is here (a renamed or
      // lost file fails the test instead of silently checking nothing).
      const needPassword = [
        'pdfjs__issue6010_1.pdf',
        'pdfjs__issue3371.pdf',
        'pypdf-samples__libreoffice-writer-password.pdf',
      ];
      const emptyPassword = ['pdfjs__bug900822.pdf', 'pdfjs__empty_protected.pdf', 'pdfjs__issue9972-1.pdf'];
      for (const f of corpusPresent ? needPassword : [])
        expect(outcomes[f], f).toMatchObject({ status: 'failed', code: 'ENCRYPTED' });
      for (const f of corpusPresent ? emptyPassword : []) {
        expect(outcomes[f], f).toBeDefined();
        expect(outcomes[f].code, f).not.toBe('ENCRYPTED');
      }

      // The workers are still healthy: an ordinary document goes all the way through.
      const normal = dataOf(
        await upload(
          t,
          actor,
          projectId,
          'after-all-that.pdf',
          await makeTextPdf({ pages: [[...INVOICE_LINES, 'Reference: after-the-storm']] }),
        ),
        201,
      );
      const done = await waitForDocument(t, normal.id, 30_000);
      expect(done.status).toBe('completed');
      expect(done.classification.type).toBe('invoice');
      const stats = dataOf(
        await t.app.inject({ method: 'GET', url: `/api/v1/projects/${projectId}/stats`, headers: actor.auth }),
      );
      expect(stats.total_documents).toBe(ids.size + 1);
      expect((stats.documents_by_status.completed ?? 0) + (stats.documents_by_status.failed ?? 0)).toBe(ids.size + 1);
    },
  );
});
