// Project endpoints: fields, updates, archive, list filters/sort/paging, stats and deletion.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { newId } from '../../../src/lib/ids.js';
import {
  call,
  dataOf,
  expectError,
  insertDocument,
  makeProject,
  quickActor,
  foundationApp,
  type QuickActor,
} from './support.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe.each(dbKinds())('projects (%s)', (kind) => {
  let t: TestApp;
  let owner: QuickActor;
  beforeAll(async () => {
    t = await foundationApp(kind);
    owner = await quickActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const insertTemplate = async (orgId: string, environment = 'live') => {
    const id = newId('tpl');
    await t.testDb.db.query(
      "INSERT INTO templates (id, org_id, environment, name, definition) VALUES ($1, $2, $3, 'Invoice', '{}')",
      [id, orgId, environment],
    );
    return id;
  };
  const list = async (actor: QuickActor, query = '') => {
    const res = await call(t.app, { url: `/projects${query}`, headers: actor.auth });
    return { items: dataOf(res) as { id: string; name: string }[], pagination: res.json().pagination };
  };
  const docProjects = async (ids: string[]) =>
    (
      await t.testDb.db.query<{ id: string; project_id: string }>(
        'SELECT id, project_id FROM documents WHERE id = ANY($1::text[]) ORDER BY id',
        [ids],
      )
    ).rows.map((r) => r.project_id);

  it('create: every field round-trips; get returns the same', async () => {
    const tpl = await insertTemplate(owner.orgId);
    const body = {
      name: 'Invoices 2026',
      description: 'Supplier invoices',
      color: '#ff8800',
      icon: 'receipt',
      auto_classify: false,
      auto_extract: false,
      default_template_id: tpl,
      retention_days: 365,
      allowed_file_types: ['PDF', '.docx', 'image/*', 'application/pdf', 'pdf'],
      classification_threshold: 0.75,
    };
    const res = await call(t.app, { method: 'POST', url: '/projects', headers: owner.auth, payload: body });
    const p = dataOf(res, 201);
    expect(p.id).toMatch(/^prj_[0-9A-Z]{26}$/);
    expect(p).toMatchObject({
      ...body,
      allowed_file_types: ['pdf', '.docx', 'image/*', 'application/pdf'],
      status: 'active',
      environment: 'live',
      archived_at: null,
    });
    expect(Date.parse(p.created_at)).toBeGreaterThan(0);
    expect(dataOf(await call(t.app, { url: `/projects/${p.id}`, headers: owner.auth }))).toEqual(p);
  });

  it('create: defaults', async () => {
    const p = await makeProject(t.app, owner.auth, { name: 'Bare' });
    expect(p).toMatchObject({
      description: null,
      color: null,
      icon: null,
      auto_classify: true,
      auto_extract: true,
      default_template_id: null,
      retention_days: null,
      allowed_file_types: [],
      classification_threshold: 0.6,
      status: 'active',
    });
  });

  it('create: validation names the fields', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['name']],
      [{ name: '' }, ['name']],
      [{ name: 'x', retention_days: 0 }, ['retention_days']],
      [{ name: 'x', auto_classify: 'yes' }, ['auto_classify']],
      [{ name: 'x', allowed_file_types: ['pdf', 'not a type!'] }, ['allowed_file_types[1]']],
      [{ name: 'x', status: 'archived' }, ['status']],
      [{ name: 'x', owner_id: 'usr_1' }, ['owner_id']],
    ];
    for (const [payload, fields] of cases) {
      const err = expectError(
        await call(t.app, { method: 'POST', url: '/projects', headers: owner.auth, payload }),
        400,
        'VALIDATION_ERROR',
      );
      expect(
        err.details?.map((d) => d.field),
        JSON.stringify(payload),
      ).toEqual(fields);
    }
  });

  it('default_template_id must name an existing template of the same organization and mode', async () => {
    const other = await quickActor(t);
    const cases = [
      `tpl_${randomBytes(8).toString('hex')}`,
      await insertTemplate(other.orgId),
      await insertTemplate(owner.orgId, 'test'),
    ];
    for (const id of cases) {
      const err = expectError(
        await call(t.app, {
          method: 'POST',
          url: '/projects',
          headers: owner.auth,
          payload: { name: 'x', default_template_id: id },
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(err.details?.map((d) => d.field)).toEqual(['default_template_id']);
    }
    expect((await list(owner, '?search=x&include_archived=true')).items.filter((p) => p.name === 'x')).toEqual([]);
  });

  it('update accepts name, description, color and icon only', async () => {
    const p = await makeProject(t.app, owner.auth, { name: 'Old', description: 'old', color: 'red', icon: 'a' });
    await tick(); // PGlite's clock has millisecond resolution: let updated_at be able to differ
    const u = dataOf(
      await call(t.app, {
        method: 'PUT',
        url: `/projects/${p.id}`,
        headers: owner.auth,
        payload: { name: 'New', description: 'new', color: 'blue', icon: 'b' },
      }),
    );
    expect(u).toMatchObject({ id: p.id, name: 'New', description: 'new', color: 'blue', icon: 'b' });
    expect(Date.parse(u.updated_at)).toBeGreaterThan(Date.parse(p.updated_at as string));
    expect(
      dataOf(
        await call(t.app, {
          method: 'PUT',
          url: `/projects/${p.id}`,
          headers: owner.auth,
          payload: { color: 'green' },
        }),
      ),
    ).toMatchObject({ name: 'New', color: 'green' });
    for (const [field, value] of [
      ['auto_classify', false],
      ['auto_extract', true],
      ['default_template_id', 'tpl_x'],
      ['retention_days', 3],
      ['allowed_file_types', ['pdf']],
      ['status', 'archived'],
      ['id', 'prj_x'],
      ['environment', 'test'],
      ['bogus', 1],
    ] as const) {
      const err = expectError(
        await call(t.app, {
          method: 'PUT',
          url: `/projects/${p.id}`,
          headers: owner.auth,
          payload: { name: 'Nope', [field]: value },
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(
        err.details?.map((d) => d.field),
        field,
      ).toEqual([field]);
      expect(err.message).toContain(field);
    }
    expect(dataOf(await call(t.app, { url: `/projects/${p.id}`, headers: owner.auth }))).toMatchObject({
      name: 'New',
      auto_classify: true,
      status: 'active',
    });
    expectError(
      await call(t.app, {
        method: 'PUT',
        url: `/projects/prj_01NOSUCHPROJECT00000000000`,
        headers: owner.auth,
        payload: { name: 'x' },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('archive and unarchive; the list hides archived projects unless asked', async () => {
    const actor = await quickActor(t);
    const a = await makeProject(t.app, actor.auth, { name: 'Keep' });
    const b = await makeProject(t.app, actor.auth, { name: 'Old stuff' });
    const archived = dataOf(
      await call(t.app, { method: 'POST', url: `/projects/${b.id}/archive`, headers: actor.auth }),
    );
    expect(archived).toMatchObject({ id: b.id, status: 'archived' });
    expect(Date.parse(archived.archived_at)).toBeGreaterThan(0);
    expect((await list(actor)).items.map((p) => p.id)).toEqual([a.id]);
    expect((await list(actor)).pagination.total).toBe(1);
    expect((await list(actor, '?include_archived=true')).items.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect((await list(actor, '?status=archived')).items.map((p) => p.id)).toEqual([b.id]);
    expect((await list(actor, '?status=active&include_archived=true')).items.map((p) => p.id)).toEqual([a.id]);
    expect((await list(actor, '?include_archived=false')).items.map((p) => p.id)).toEqual([a.id]);
    // An archived project can still be read directly.
    expect(dataOf(await call(t.app, { url: `/projects/${b.id}`, headers: actor.auth })).status).toBe('archived');
    const back = dataOf(await call(t.app, { method: 'POST', url: `/projects/${b.id}/unarchive`, headers: actor.auth }));
    expect(back).toMatchObject({ status: 'active', archived_at: null });
    expect((await list(actor)).items.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
    expectError(await call(t.app, { url: '/projects?status=deleted', headers: actor.auth }), 400, 'VALIDATION_ERROR');
  });

  it('search is case-insensitive over name and description, with % and _ taken literally', async () => {
    const actor = await quickActor(t);
    const inv = await makeProject(t.app, actor.auth, { name: 'Quarterly INVOICES' });
    const rec = await makeProject(t.app, actor.auth, { name: 'Misc', description: 'Holds the Receipts' });
    const pct = await makeProject(t.app, actor.auth, { name: '100% done' });
    const snake = await makeProject(t.app, actor.auth, { name: 'snake_case' });
    const ids = async (q: string) => (await list(actor, `?search=${encodeURIComponent(q)}`)).items.map((p) => p.id);
    expect(await ids('invoices')).toEqual([inv.id]);
    expect(await ids('quarterly inv')).toEqual([inv.id]);
    expect(await ids('RECEIPTS')).toEqual([rec.id]);
    expect(await ids('%')).toEqual([pct.id]);
    expect(await ids('_')).toEqual([snake.id]);
    expect(await ids('nothing like it')).toEqual([]);
    expect((await ids('')).sort()).toEqual([inv.id, rec.id, pct.id, snake.id].sort());
  });

  it('sort by name, created_at or updated_at, either order', async () => {
    const actor = await quickActor(t);
    const names = ['beta', 'Alpha', 'gamma', 'Delta'];
    const made: { id: string; name: string }[] = [];
    for (const name of names)
      made.push((await makeProject(t.app, actor.auth, { name })) as { id: string; name: string });
    const order = async (q: string) => (await list(actor, q)).items.map((p) => p.name);
    expect(await order('?sort=name&order=asc')).toEqual(['Alpha', 'beta', 'Delta', 'gamma']);
    expect(await order('?sort=name&order=desc')).toEqual(['gamma', 'Delta', 'beta', 'Alpha']);
    expect(await order('?sort=created_at&order=asc')).toEqual(names);
    expect(await order('?sort=created_at&order=desc')).toEqual([...names].reverse());
    expect(await order('')).toEqual([...names].reverse());
    await tick();
    await call(t.app, { method: 'PUT', url: `/projects/${made[1].id}`, headers: actor.auth, payload: { icon: 'x' } });
    expect((await order('?sort=updated_at&order=desc'))[0]).toBe('Alpha');
    expect((await order('?sort=updated_at&order=asc')).at(-1)).toBe('Alpha');
    for (const q of ['?sort=size', '?order=up'])
      expectError(await call(t.app, { url: `/projects${q}`, headers: actor.auth }), 400, 'VALIDATION_ERROR');
  });

  it('paging: limit default 20, max 100 (101 → 400), offset', async () => {
    const actor = await quickActor(t);
    for (let i = 0; i < 22; i++) await makeProject(t.app, actor.auth, { name: `p${String(i).padStart(2, '0')}` });
    const first = await list(actor, '?sort=name&order=asc');
    expect(first.items.map((p) => p.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `p${String(i).padStart(2, '0')}`),
    );
    expect(first.pagination).toMatchObject({ total: 22, limit: 20, offset: 0, has_more: true });
    const second = await list(actor, '?sort=name&order=asc&offset=20');
    expect(second.items.map((p) => p.name)).toEqual(['p20', 'p21']);
    expect(second.pagination).toMatchObject({ total: 22, limit: 20, offset: 20, has_more: false });
    expect((await list(actor, '?limit=100')).items).toHaveLength(22);
    expect((await list(actor, '?limit=3&offset=3&sort=name&order=asc')).items.map((p) => p.name)).toEqual([
      'p03',
      'p04',
      'p05',
    ]);
    for (const [q, field] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
      ['include_archived=maybe', 'include_archived'],
      ['bogus=1', 'bogus'],
    ]) {
      const err = expectError(
        await call(t.app, { url: `/projects?${q}`, headers: actor.auth }),
        400,
        'VALIDATION_ERROR',
      );
      expect(
        err.details?.map((d) => d.field),
        q,
      ).toEqual([field]);
    }
  });

  it('stats: counts by status and classification, bytes, pages, last activity', async () => {
    const p = await makeProject(t.app, owner.auth, { name: 'Stats' });
    const empty = dataOf(await call(t.app, { url: `/projects/${p.id}/stats`, headers: owner.auth }));
    expect(empty).toEqual({
      project_id: p.id,
      total_documents: 0,
      documents_by_status: {},
      documents_by_classification: {},
      total_bytes: 0,
      total_pages: 0,
      last_activity_at: p.updated_at,
    });
    await insertDocument(t, {
      orgId: owner.orgId,
      projectId: p.id,
      status: 'completed',
      classification: 'invoice',
      sizeBytes: 100,
      pages: 1,
    });
    await insertDocument(t, {
      orgId: owner.orgId,
      projectId: p.id,
      status: 'completed',
      classification: 'invoice',
      sizeBytes: 200,
      pages: 2,
    });
    await insertDocument(t, { orgId: owner.orgId, projectId: p.id, status: 'failed', sizeBytes: 300 });
    await insertDocument(t, {
      orgId: owner.orgId,
      projectId: p.id,
      status: 'uploaded',
      classification: 'receipt',
      sizeBytes: 400,
      pages: 3,
    });
    const s = dataOf(await call(t.app, { url: `/projects/${p.id}/stats`, headers: owner.auth }));
    expect(s).toMatchObject({
      project_id: p.id,
      total_documents: 4,
      documents_by_status: { completed: 2, failed: 1, uploaded: 1 },
      documents_by_classification: { invoice: 2, receipt: 1 },
      total_bytes: 1000,
      total_pages: 6,
    });
    expect(Date.parse(s.last_activity_at)).toBeGreaterThanOrEqual(Date.parse(p.updated_at as string));
    expectError(
      await call(t.app, { url: '/projects/prj_01NOSUCHPROJECT00000000000/stats', headers: owner.auth }),
      404,
      'NOT_FOUND',
    );
  });

  it('GET /projects/{id}/documents: an empty project gives an empty page', async () => {
    const p = await makeProject(t.app, owner.auth, { name: 'Docs' });
    const res = await call(t.app, { url: `/projects/${p.id}/documents`, headers: owner.auth });
    expect(dataOf(res)).toEqual([]);
    expect(res.json().pagination).toMatchObject({ total: 0 });
    const other = await quickActor(t);
    expectError(await call(t.app, { url: `/projects/${p.id}/documents`, headers: other.auth }), 404, 'NOT_FOUND');
  });

  describe('delete', () => {
    it('an empty project is deleted; afterwards it is gone', async () => {
      const p = await makeProject(t.app, owner.auth, { name: 'Empty' });
      expect(dataOf(await call(t.app, { method: 'DELETE', url: `/projects/${p.id}`, headers: owner.auth }))).toEqual({
        id: p.id,
        deleted: true,
        documents_moved: 0,
        documents_deleted: 0,
      });
      expectError(await call(t.app, { url: `/projects/${p.id}`, headers: owner.auth }), 404, 'NOT_FOUND');
      expectError(
        await call(t.app, { method: 'DELETE', url: `/projects/${p.id}`, headers: owner.auth }),
        404,
        'NOT_FOUND',
      );
      const q = await makeProject(t.app, owner.auth, { name: 'Empty too' });
      expect(
        dataOf(
          await call(t.app, { method: 'DELETE', url: `/projects/${q.id}?delete_documents=true`, headers: owner.auth }),
        ).deleted,
      ).toBe(true);
    });

    it('delete_documents and move_to_project_id together → 400 naming both', async () => {
      const p = await makeProject(t.app, owner.auth);
      const target = await makeProject(t.app, owner.auth);
      const err = expectError(
        await call(t.app, {
          method: 'DELETE',
          url: `/projects/${p.id}?delete_documents=true&move_to_project_id=${target.id}`,
          headers: owner.auth,
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(err.details?.map((d) => d.field).sort()).toEqual(['delete_documents', 'move_to_project_id']);
      expect((await call(t.app, { url: `/projects/${p.id}`, headers: owner.auth })).statusCode).toBe(200);
    });

    it('a project with documents and neither option → 409, nothing deleted', async () => {
      const p = await makeProject(t.app, owner.auth);
      const docs = [
        await insertDocument(t, { orgId: owner.orgId, projectId: p.id }),
        await insertDocument(t, { orgId: owner.orgId, projectId: p.id }),
      ];
      for (const q of ['', '?delete_documents=false']) {
        const err = expectError(
          await call(t.app, { method: 'DELETE', url: `/projects/${p.id}${q}`, headers: owner.auth }),
          409,
          'CONFLICT',
        );
        expect(err.details).toEqual({ document_count: 2 });
        expect(err.message).toMatch(/delete_documents|move_to_project_id/);
      }
      expect((await call(t.app, { url: `/projects/${p.id}`, headers: owner.auth })).statusCode).toBe(200);
      expect(await docProjects(docs)).toEqual([p.id, p.id]);
    });

    it('delete_documents=true deletes the documents with the project', async () => {
      const p = await makeProject(t.app, owner.auth, { name: 'Doomed' });
      const keep = await makeProject(t.app, owner.auth, { name: 'Bystander' });
      const docs = [
        await insertDocument(t, { orgId: owner.orgId, projectId: p.id }),
        await insertDocument(t, { orgId: owner.orgId, projectId: p.id }),
      ];
      const bystander = await insertDocument(t, { orgId: owner.orgId, projectId: keep.id });
      const res = dataOf(
        await call(t.app, { method: 'DELETE', url: `/projects/${p.id}?delete_documents=true`, headers: owner.auth }),
      );
      expect(res).toEqual({ id: p.id, deleted: true, documents_moved: 0, documents_deleted: 2 });
      expect(await docProjects(docs)).toEqual([]);
      expect(await docProjects([bystander])).toEqual([keep.id]);
      expectError(await call(t.app, { url: `/projects/${p.id}`, headers: owner.auth }), 404, 'NOT_FOUND');
    });

    it('move_to_project_id moves the documents and deletes the project', async () => {
      const p = await makeProject(t.app, owner.auth, { name: 'Source' });
      const target = await makeProject(t.app, owner.auth, { name: 'Target' });
      const docs = [];
      for (let i = 0; i < 3; i++) docs.push(await insertDocument(t, { orgId: owner.orgId, projectId: p.id }));
      const res = dataOf(
        await call(t.app, {
          method: 'DELETE',
          url: `/projects/${p.id}?move_to_project_id=${target.id}`,
          headers: owner.auth,
        }),
      );
      expect(res).toEqual({ id: p.id, deleted: true, documents_moved: 3, documents_deleted: 0 });
      expect(await docProjects(docs)).toEqual([target.id, target.id, target.id]);
      expectError(await call(t.app, { url: `/projects/${p.id}`, headers: owner.auth }), 404, 'NOT_FOUND');
      expect(
        dataOf(await call(t.app, { url: `/projects/${target.id}/stats`, headers: owner.auth })).total_documents,
      ).toBe(3);
    });

    it('move_to_project_id must be another existing project of the same organization and mode', async () => {
      const p = await makeProject(t.app, owner.auth);
      const doc = await insertDocument(t, { orgId: owner.orgId, projectId: p.id });
      const other = await quickActor(t);
      const foreign = await makeProject(t.app, other.auth);
      const sandbox = await makeProject(t.app, { ...owner.auth, 'x-environment': 'test' });
      for (const target of [p.id, foreign.id, sandbox.id, 'prj_01NOSUCHPROJECT00000000000']) {
        const err = expectError(
          await call(t.app, {
            method: 'DELETE',
            url: `/projects/${p.id}?move_to_project_id=${target}`,
            headers: owner.auth,
          }),
          400,
          'VALIDATION_ERROR',
        );
        expect(err.details?.map((d) => d.field)).toEqual(['move_to_project_id']);
      }
      expect(await docProjects([doc])).toEqual([p.id]);
      expect((await call(t.app, { url: `/projects/${p.id}`, headers: owner.auth })).statusCode).toBe(200);
      expect(
        dataOf(await call(t.app, { url: `/projects/${foreign.id}/stats`, headers: other.auth })).total_documents,
      ).toBe(0);
    });

    it('the move and the delete are one transaction: if the delete fails, nothing moved', async () => {
      const p = await makeProject(t.app, owner.auth, { name: 'Undeletable' });
      const target = await makeProject(t.app, owner.auth, { name: 'Target' });
      const docs = [
        await insertDocument(t, { orgId: owner.orgId, projectId: p.id }),
        await insertDocument(t, { orgId: owner.orgId, projectId: p.id }),
      ];
      const fn = `refuse_${randomBytes(4).toString('hex')}`;
      // A trigger that fails the project delete after the documents were moved in the same transaction.
      await t.testDb.db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF OLD.id = '${p.id}' THEN RAISE EXCEPTION 'refused by test'; END IF; RETURN OLD; END $$`);
      await t.testDb.db.query(`CREATE TRIGGER ${fn} BEFORE DELETE ON projects FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
      try {
        expectError(
          await call(t.app, {
            method: 'DELETE',
            url: `/projects/${p.id}?move_to_project_id=${target.id}`,
            headers: owner.auth,
          }),
          500,
          'INTERNAL_ERROR',
        );
      } finally {
        await t.testDb.db.query(`DROP TRIGGER ${fn} ON projects`);
        await t.testDb.db.query(`DROP FUNCTION ${fn}()`);
      }
      expect(await docProjects(docs)).toEqual([p.id, p.id]);
      expect((await call(t.app, { url: `/projects/${p.id}`, headers: owner.auth })).statusCode).toBe(200);
      // Without the trigger the same request succeeds.
      expect(
        dataOf(
          await call(t.app, {
            method: 'DELETE',
            url: `/projects/${p.id}?move_to_project_id=${target.id}`,
            headers: owner.auth,
          }),
        ).documents_moved,
      ).toBe(2);
    });
  });
});
