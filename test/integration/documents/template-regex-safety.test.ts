// A template written to freeze a backtracking regex engine (the shapes of issue 12: `(?:a|a)+$`,
// `(a|aa)+$`, `(\w|\d)+$`, `(.|\s)*x` against 40-character runs) goes through the real API and
// pipeline: the document completes, the hostile patterns really ran (their results are checked),
// and the service kept answering /health the whole time. Patterns the linear-time engine cannot
// run are refused at creation with the field named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { api, dataOf, errorCode } from './fixtures.js';

const RUN = 'a'.repeat(40);

const HOSTILE_YAML = `
issuer: Hostile Patterns Ltd
keywords:
  - Hostile Patterns Ltd
  - (?:a|a)+$
fields:
  alt_same: (?m)^((?:a|a)+)$
  alt_overlap: (?m)^((?:a|aa)+)!$
  word_digit: (?m)^((?:\\w|\\d)+)$
  dot_space: (?:.|\\s)*x
  amount:
    parser: regex
    regex: Total:\\s*(\\d+\\.\\d\\d)
    type: float
required_fields: [amount]
`;

// Each line is a trap for one pattern: a run followed by a character that makes the match fail
// at the very end, which a backtracking engine explores in 2^40 ways.
const DOCUMENT = ['Hostile Patterns Ltd', 'Total: 12.50', `${RUN}!`, `${RUN}#`, `${RUN}!`, RUN].join('\n');

describe('template regexes cannot stall the service', () => {
  let t: DocsApp;
  let actor: Actor;
  beforeAll(async () => {
    t = await createDocsApp({ kind: 'pglite' });
    actor = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it(
    'processes a document against catastrophic patterns while /health keeps answering',
    { timeout: 60_000 },
    async () => {
      const projectId = await createProject(t, actor, { name: 'Hostile regex', classification_threshold: 0 });
      const imported = dataOf(await api(t, actor, 'POST', '/templates/import', { yaml: HOSTILE_YAML }), 201);
      expect(imported).toHaveLength(1);

      const id = dataOf(await upload(t, actor, projectId, 'hostile.txt', Buffer.from(DOCUMENT)), 201).id;
      const health: number[] = [];
      let done = false;
      const probing = (async () => {
        while (!done) {
          const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
          health.push(res.statusCode);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const doc = await waitForDocument(t, id, 45_000);
      done = true;
      await probing;

      expect(doc.status).toBe('completed');
      expect(health.length).toBeGreaterThan(0);
      expect(health.every((s) => s === 200)).toBe(true);
      const got = dataOf(await api(t, actor, 'GET', `/documents/${id}`));
      expect(got.fields.issuer.value).toBe('Hostile Patterns Ltd');
      expect(got.fields.amount.value).toBe(12.5);
      // The hostile patterns ran to their real answers, they were not skipped.
      expect(got.fields.alt_same.value).toBe(RUN);
      expect(got.fields.alt_overlap.value).toBe(RUN);
      expect(got.fields.word_digit.value).toBe(RUN);
      expect(got.fields.dot_space).toBeUndefined();
    },
  );

  it('refuses patterns the linear-time engine cannot run, naming the field and the reason', async () => {
    const ahead = await api(t, actor, 'POST', '/templates', {
      issuer: 'X',
      keywords: ['X'],
      fields: { amount: 'Total(?= EUR)' },
    });
    expect(ahead.statusCode).toBe(400);
    expect(errorCode(ahead)).toBe('VALIDATION_ERROR');
    const details = ahead.json().error.details as Array<{ field: string; message: string }>;
    expect(details).toContainEqual({
      field: 'fields.amount',
      message: expect.stringMatching(/lookahead .* not supported/),
    });

    const backref = await api(t, actor, 'POST', '/templates/import', {
      yaml: 'issuer: Y\nkeywords: [Y]\nfields:\n  invoice_number: (\\d+)-\\1\n',
    });
    expect(backref.statusCode).toBe(400);
    expect(backref.json().error.details).toContainEqual({
      field: 'fields.invoice_number',
      message: expect.stringMatching(/backreference \\1 is not supported/),
    });

    const keyword = await api(t, actor, 'POST', '/templates', {
      issuer: 'Z',
      keywords: ['Z', '(?>atomic)'],
      fields: { a: 'a' },
    });
    expect(keyword.json().error.details).toContainEqual({
      field: 'keywords[1]',
      message: expect.stringMatching(/atomic groups/),
    });
  });
});
