// Facts the code keeps in one place, checked where a second copy cannot be avoided: the database's
// own defaults and CHECK lists, the queue names BullMQ sees, the enums of the OpenAPI document and
// the limits the README and docs/ state.
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../src/http/openapi-document.js';
import { QUEUE_NAMES } from '../../../src/jobs/queues.js';
import * as limits from '../../../src/lib/limits.js';
import { ROLES } from '../../../src/modules/orgs/orgs.types.js';
import { DEFAULT_CLASSIFICATION_THRESHOLD } from '../../../src/modules/projects/projects.types.js';
import { DEFAULT_SETTINGS, ON_ERRORS } from '../../../src/modules/workflows/workflows.types.js';
import { DOCUMENT_STATUSES, STAGE_DESCRIPTORS, STAGES, TERMINAL_STATUSES } from '../../../src/pipeline/stages.js';
import { WORKER_ROLES } from '../../../workers/index.js';
import { createTestDb, dbKinds, type TestDb } from '../../helpers/db.js';

describe.each(dbKinds())('single sources of facts (%s)', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the projects table defaults the classification threshold to the constant the code uses', async () => {
    const { rows } = await t.db.query<{ column_default: string }>(
      `SELECT column_default FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'projects' AND column_name = 'classification_threshold'`,
    );
    expect(Number(rows[0].column_default)).toBe(DEFAULT_CLASSIFICATION_THRESHOLD);
  });

  it("the users table's CHECK allows exactly the roles the code knows", async () => {
    const { rows } = await t.db.query<{ def: string }>(
      `SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
        WHERE r.relname = 'users' AND r.relnamespace = current_schema()::regnamespace AND c.contype = 'c' AND pg_get_constraintdef(c.oid) LIKE '%role%'`,
    );
    expect(rows).toHaveLength(1);
    const allowed = [...rows[0].def.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
    expect(allowed.sort()).toEqual([...ROLES].sort());
  });
});

describe('queues and worker roles', () => {
  it('every pipeline stage has a worker role, in order, and every role is a known queue', () => {
    expect(WORKER_ROLES.slice(0, STAGES.length)).toEqual([...STAGES]);
    for (const role of WORKER_ROLES) expect(QUEUE_NAMES).toContain(role);
  });

  it('the stage descriptors are well formed: statuses are document statuses a run passes, concurrency at least 1', () => {
    expect(QUEUE_NAMES.slice(0, STAGES.length)).toEqual([...STAGES]);
    for (const s of STAGES) {
      const d = STAGE_DESCRIPTORS[s];
      expect(d.name).toBe(s);
      expect(DOCUMENT_STATUSES).toContain(d.statusAfter);
      expect(TERMINAL_STATUSES as readonly string[], `${s}: a stage's status is never terminal`).not.toContain(
        d.statusAfter,
      );
      expect(d.concurrency).toBeGreaterThanOrEqual(1);
    }
  });
});

/** Every `enum` array in the document, with where it is. */
function enums(node: unknown, path = '#', out: { path: string; values: unknown[] }[] = []) {
  if (Array.isArray(node)) node.forEach((v, i) => enums(v, `${path}/${i}`, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'enum' && Array.isArray(v)) out.push({ path, values: v });
      else enums(v, `${path}/${k}`, out);
    }
  }
  return out;
}

describe('the OpenAPI document derives its lists from the code', () => {
  let all: { path: string; values: unknown[] }[];
  beforeAll(async () => {
    all = enums(await openApiDocument());
  });
  // An enum naming one member of a list must be that whole list (null aside): a hand-written copy
  // that misses a new stage, status or role fails here.
  // Each list with a member no other list has.
  const lists: [string, readonly string[], string][] = [
    ['stages', STAGES, 'embed'],
    ['document statuses', DOCUMENT_STATUSES, 'needs_review'],
    ['roles', ROLES, 'viewer'],
    ['on_error values', ON_ERRORS, 'continue'],
  ];
  it.each(lists)('every enum of %s lists all of them, in order', (_name, list, marker) => {
    const hits = all.filter((e) => e.values.includes(marker));
    expect(hits.length).toBeGreaterThan(0);
    for (const e of hits)
      expect(
        e.values.filter((v) => v !== null),
        e.path,
      ).toEqual([...list]);
  });

  it('workflow settings describe the defaults the engine applies', async () => {
    const doc = JSON.stringify(await openApiDocument());
    expect(doc).toContain(`"description":"Default ${DEFAULT_SETTINGS.timeout_seconds}"`);
    expect(doc).toContain(`"description":"Default ${DEFAULT_SETTINGS.max_concurrent_runs}"`);
    expect(doc).toContain(`"description":"Default ${DEFAULT_SETTINGS.on_error}"`);
  });
});

describe('the README and docs/ state the limits the code enforces', () => {
  const docsDir = new URL('../../../docs/', import.meta.url);
  const readme = [
    readFileSync(new URL('../../../README.md', import.meta.url), 'utf8'),
    ...readdirSync(docsDir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => readFileSync(new URL(f, docsDir), 'utf8')),
  ].join('\n');
  const kib = (n: number) => `${n / 1024} KiB`;
  it.each([
    ['a field or metadata value', limits.MAX_DOCUMENT_VALUE_BYTES, 'each value at most '],
    ["a document's fields and metadata", limits.MAX_DOCUMENT_VALUES_BYTES, 'together at most '],
    ["an upload's metadata", limits.MAX_UPLOAD_METADATA_BYTES, 'upload `metadata` at most '],
  ])('%s', (_what, bytes, words) => {
    expect(readme.replace(/\s+/g, ' ')).toContain(`${words}${kib(bytes)}`);
  });
  it("WORKER_CONCURRENCY's row names each stage's multiplier", () => {
    const row = readme.split('\n').find((l) => l.startsWith('| `WORKER_CONCURRENCY`')) ?? '';
    const said = [...row.matchAll(/((?:[a-z]+(?:, | and )?)+) (\d+)/g)].flatMap(([, names, n]) =>
      names.split(/, | and /).map((name) => [name, Number(n)] as const),
    );
    expect(Object.fromEntries(said.filter(([name]) => (STAGES as readonly string[]).includes(name)))).toEqual(
      Object.fromEntries(STAGES.map((s) => [s, STAGE_DESCRIPTORS[s].concurrency])),
    );
  });
});
