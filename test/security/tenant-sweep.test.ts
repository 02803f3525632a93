// Tenant and mode isolation over every route in the OpenAPI document: each operation that takes
// an id is called with another organization's ids (and, in test mode, with the caller's own live
// ids), and must answer 404 — or 403 where the route's role check comes first, which is decided
// before anything is looked up. Ids in query strings and bodies are swept too, and the other
// organization's resources are unchanged afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleAtLeast, type Role } from '../../src/modules/orgs/orgs.types.js';
import { bearer, makeKey, quickActor, type QuickActor } from '../integration/foundation/support.js';
import { startSecurityApp, type SecurityApp } from './support.js';
import { makeTenant, PUBLIC_IP, SEGMENT_KIND, TEMPLATE_BODY, type Ids, type Kind } from './tenants.js';

interface Operation {
  method: string;
  /** OpenAPI form, e.g. /api/v1/projects/{id}/stats */
  path: string;
  hasBody: boolean;
  query: string[];
  /** Query parameters the operation requires (filled with a harmless value, e.g. search's q). */
  requiredQuery: string[];
  /** From the operation's description ("Requires the admin role or higher."). */
  role: Role | null;
  /** "Live mode only.": test-mode credentials are refused before anything is looked up. */
  liveOnly: boolean;
}

/**
 * Operations whose path parameters name no tenant resource: the pipeline page's queues and stages
 * (shared by the install, or the caller's own documents). Their own tests cover them.
 */
const NOT_TENANT = (o: Operation) => o.path.startsWith('/api/v1/pipeline/');
const swept = (o: Operation) => o.path.includes('{') && !NOT_TENANT(o);
/** People belong to the organization, not to a mode: the same in live and test mode. */
const ORG_LEVEL = (o: Operation) => o.path.startsWith('/api/v1/members');

/** Bodies that pass validation for operations on one resource, so the handler (and its lookup) runs. */
const BODIES: Record<string, unknown> = {
  'PUT /api/v1/api-keys/{api_key_id}': { name: 'renamed' },
  'PUT /api/v1/projects/{id}': { name: 'renamed' },
  'PATCH /api/v1/documents/{id}': { metadata: { a: 1 } },
  'POST /api/v1/documents/{id}/reprocess': { stages: ['parse'] },
  'PUT /api/v1/templates/{id}': TEMPLATE_BODY,
  'PUT /api/v1/integrations/mailboxes/{id}': { name: 'renamed' },
  'PUT /api/v1/webhooks/{id}': { description: 'renamed' },
  'POST /api/v1/webhooks/{id}/rotate-secret': {},
  'POST /api/v1/webhooks/{id}/recover': { since: new Date(Date.now() - 86_400_000).toISOString() },
  'POST /api/v1/integrations/sheets/connections/{id}/test': { spreadsheet_id: 'sheet1' },
  'PUT /api/v1/integrations/sheets/exports/{id}': { is_active: false },
  'POST /api/v1/documents/{id}/export': {},
  'PUT /api/v1/workflows/{id}': { name: 'renamed' },
  'POST /api/v1/workflows/{id}/run': { mode: 'dry_run' },
  'PUT /api/v1/members/{id}': { name: 'renamed' },
  'PUT /api/v1/reports/{id}': { name: 'renamed' },
  'POST /api/v1/reports/{id}/schedule': { time: '03:00' },
};

function fill(path: string, ids: Ids): string {
  const segs = path.split('/');
  return segs
    .map((seg, i) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (!m) return seg;
      const kind = SEGMENT_KIND[segs[i - 1]];
      if (!kind) throw new Error(`no resource kind for ${path} parameter ${m[1]} (add it to SEGMENT_KIND)`);
      return ids[kind];
    })
    .join('/');
}

describe('tenant isolation sweep over the OpenAPI document', () => {
  let s: SecurityApp;
  let ops: Operation[];
  let a: QuickActor;
  let b: QuickActor;
  let aIds: Ids;
  let bIds: Ids;
  let aLiveKey: string;
  let aTestKey: string;

  beforeAll(async () => {
    s = await startSecurityApp();
    type Op = {
      requestBody?: unknown;
      description?: string;
      parameters?: { in: string; name: string; required?: boolean }[];
    };
    const doc = (await s.app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, Op>>;
    };
    ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([m, op]) => ({
        method: m.toUpperCase(),
        path,
        hasBody: !!op.requestBody,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        requiredQuery: (op.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => p.name),
        role: (/Requires the (\w+) role/.exec(op.description ?? '')?.[1] ?? null) as Role | null,
        liveOnly: /Live mode only\./.test(op.description ?? ''),
      })),
    );
    a = await quickActor(s);
    b = await quickActor(s);
    aIds = await makeTenant(s, a.auth);
    bIds = await makeTenant(s, b.auth);
    aLiveKey = (await makeKey(s.app, a, { name: 'a live' })).key;
    aTestKey = (await makeKey(s.app, a, { name: 'a test', environment: 'test' })).key;
  });
  afterAll(async () => {
    await s?.close();
  });

  const send = (method: string, url: string, auth: Record<string, string>, payload?: unknown) =>
    s.app.inject({
      method: method as 'GET',
      url,
      headers: auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  /** Snapshot of B's resources as B sees them. */
  const snapshot = async () => {
    const urls = [
      '/projects',
      '/documents',
      '/templates',
      '/webhooks',
      '/api-keys',
      '/integrations/mailboxes',
      '/integrations/sheets/connections',
      '/integrations/sheets/exports',
      '/events',
      '/workflows',
      '/workflows/runs',
      '/members',
      '/reports',
    ];
    const paged = new Set(['/documents', '/workflows', '/workflows/runs', '/reports']);
    const out: Record<string, unknown> = {};
    for (const u of urls)
      out[u] = (await send('GET', `/api/v1${u}?${paged.has(u) ? 'per_page' : 'limit'}=100`, b.auth)).json().data;
    out.message = (
      await send('GET', `/api/v1/integrations/mailboxes/${bIds.mailbox}/messages/${bIds.message}`, b.auth)
    ).json().data;
    out.delivery = (await send('GET', `/api/v1/webhooks/deliveries/${bIds.delivery}`, b.auth)).json().data;
    out.batch = (await send('GET', `/api/v1/batches/${bIds.batch}`, b.auth)).json().data;
    out.reportSchedule = (await send('GET', `/api/v1/reports/${bIds.report}/schedule`, b.auth)).json().data;
    out.reportExecutions = (await send('GET', `/api/v1/reports/${bIds.report}/executions`, b.auth)).json().data;
    return out;
  };

  it('the document lists the operations this sweep knows how to call', () => {
    const withIds = ops.filter(swept);
    expect(withIds.length).toBeGreaterThanOrEqual(40);
    const missing = withIds
      .filter((o) => o.hasBody && !(`${o.method} ${o.path}` in BODIES))
      .map((o) => `${o.method} ${o.path}`);
    expect(missing, 'operations with a body need an entry in BODIES').toEqual([]);
    for (const o of withIds) expect(() => fill(o.path, bIds)).not.toThrow();
    // Every operation on a resource states the role it needs.
    expect(withIds.filter((o) => !o.role).map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it("every operation on another organization's ids is a 404 (owner, live and test credentials) and changes nothing", async () => {
    const before = await snapshot();
    const creds: [string, Record<string, string>, Ids][] = [
      ['A owner session on B ids', a.auth, bIds],
      ['A live key on B ids', bearer(aLiveKey), bIds],
      ['A test key on B ids', bearer(aTestKey), bIds],
      ['A test key on A live ids', bearer(aTestKey), aIds],
      ['A session in test mode on A live ids', { ...a.auth, 'x-environment': 'test' }, aIds],
    ];
    const wrong: string[] = [];
    let calls = 0;
    for (const [who, auth, ids] of creds) {
      for (const op of ops.filter(swept)) {
        const body = BODIES[`${op.method} ${op.path}`];
        const res = await send(op.method, fill(op.path, ids), auth, body);
        calls++;
        const testMode = who.includes('test');
        if (ORG_LEVEL(op) && op.method === 'GET' && ids === aIds) {
          // Test-mode credentials of A reading A's own people: not a mode crossing, nothing to hide.
          if (res.statusCode !== 200)
            wrong.push(`${who}: ${op.method} ${op.path} -> ${res.statusCode}, expected 200 (organization-level)`);
          continue;
        }
        if (op.liveOnly && testMode) {
          if (res.statusCode !== 403)
            wrong.push(`${who}: ${op.method} ${op.path} -> ${res.statusCode}, expected 403 (live mode only)`);
          continue;
        }
        if (res.statusCode !== 404 || res.json().error?.code !== 'NOT_FOUND')
          wrong.push(`${who}: ${op.method} ${op.path} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    console.log(`tenant sweep: ${calls} calls over ${ops.filter(swept).length} operations`);
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('a viewer or member of A gets 403 where the role check comes first, 404 everywhere else', async () => {
    const wrong: string[] = [];
    for (const role of ['viewer', 'member'] as Role[]) {
      const actor = await quickActor(s, { orgId: a.orgId, role });
      for (const op of ops.filter(swept)) {
        const expected = roleAtLeast(role, op.role!) ? 404 : 403;
        const res = await send(op.method, fill(op.path, bIds), actor.auth, BODIES[`${op.method} ${op.path}`]);
        if (res.statusCode !== expected)
          wrong.push(`${role}: ${op.method} ${op.path} -> ${res.statusCode}, expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('ids of another organization in query strings select nothing', async () => {
    const idQueries: Record<string, Kind> = {
      project_id: 'project',
      document_id: 'document',
      ids: 'document',
      event_id: 'event',
    };
    const wrong: string[] = [];
    const bAll = new Set(Object.values(bIds));
    for (const op of ops.filter((o) => o.method === 'GET')) {
      for (const q of op.query.filter((n) => n in idQueries)) {
        const required = op.requiredQuery.map((n) => `&${n}=contract`).join('');
        const url = `${fill(op.path, aIds)}?${q}=${bIds[idQueries[q]]}${required}`;
        for (const auth of [a.auth, bearer(aTestKey)]) {
          const res = await send('GET', url, auth);
          const data = res.statusCode === 200 ? res.json().data : [];
          const leaked =
            JSON.stringify(data)
              .match(/[a-z]{3}_[0-9A-Z]{26}/g)
              ?.filter((id) => bAll.has(id)) ?? [];
          if (![200, 404].includes(res.statusCode) || leaked.length || (Array.isArray(data) && data.length))
            wrong.push(`GET ${url} -> ${res.statusCode} ${JSON.stringify(data).slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('ids of another organization in bodies are refused and change nothing', async () => {
    const before = await snapshot();
    // A's document, finished, so the export call gets as far as looking the export up.
    await s.testDb.db.query(
      `UPDATE documents SET status = 'completed', pipeline = jsonb_set(pipeline, '{current}', 'null') WHERE id = $1`,
      [aIds.document],
    );
    const cases: [string, string, unknown][] = [
      ['POST', '/documents/reprocess', { project_id: bIds.project }],
      ['POST', '/projects', { name: 'x', default_template_id: bIds.template }],
      [
        'POST',
        '/integrations/mailboxes',
        { name: 'x', host: PUBLIC_IP, username: 'u', password: 'p', project_id: bIds.project, is_active: false },
      ],
      [
        'POST',
        '/integrations/sheets/exports',
        {
          project_id: aIds.project,
          connection_id: bIds.connection,
          spreadsheet_id: 's',
          sheet_name: 'S',
          columns: [{ header: 'Id', field: 'document.id' }],
        },
      ],
      [
        'POST',
        '/integrations/sheets/exports',
        {
          project_id: bIds.project,
          connection_id: aIds.connection,
          spreadsheet_id: 's',
          sheet_name: 'S',
          columns: [{ header: 'Id', field: 'document.id' }],
        },
      ],
      ['PUT', `/integrations/sheets/exports/${aIds.export}`, { connection_id: bIds.connection }],
      ['PUT', `/integrations/sheets/exports/${aIds.export}`, { project_id: bIds.project }],
      ['PUT', `/integrations/mailboxes/${aIds.mailbox}`, { project_id: bIds.project }],
      ['POST', `/documents/${aIds.document}/export`, { export_id: bIds.export }],
      ['DELETE', `/projects/${aIds.project}?move_to_project_id=${bIds.project}`, undefined],
      ['POST', '/templates/test', { document_id: bIds.document, template_id: aIds.template }],
      ['POST', '/templates/test', { document_id: aIds.document, template_id: bIds.template }],
      ['POST', '/templates/learn', { document_id: bIds.document }],
    ];
    const wrong: string[] = [];
    for (const [method, url, payload] of cases) {
      for (const auth of [a.auth, bearer(aLiveKey), bearer(aTestKey)]) {
        const res = await send(method, `/api/v1${url}`, auth, payload);
        if (![400, 404].includes(res.statusCode))
          wrong.push(`${method} ${url} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    // A batch naming another organization's documents selects none of them.
    for (const auth of [a.auth, bearer(aLiveKey), bearer(aTestKey)]) {
      const res = await send('POST', '/api/v1/documents/reprocess', auth, { document_ids: [bIds.document] });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().data).toMatchObject({ total: 0 });
      expect(res.body).not.toContain(bIds.document);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});
