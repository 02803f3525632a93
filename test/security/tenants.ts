// One of every resource the API has, made through the API (and a mail message row, which only
// the poller makes), for the tenant-isolation sweep and the auth matrix.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { newId } from '../../src/lib/ids.js';
import { multipart } from '../helpers/multipart.js';
import type { SecurityApp } from './support.js';

export type Kind =
  | 'apiKey'
  | 'project'
  | 'event'
  | 'document'
  | 'batch'
  | 'template'
  | 'mailbox'
  | 'message'
  | 'webhook'
  | 'delivery'
  | 'connection'
  | 'export'
  | 'workflow'
  | 'run'
  | 'member'
  | 'report'
  | 'execution';

export type Ids = Record<Kind, string>;

/** Which resource a path parameter names, from the path segment before it. */
export const SEGMENT_KIND: Record<string, Kind> = {
  'api-keys': 'apiKey',
  projects: 'project',
  events: 'event',
  documents: 'document',
  batches: 'batch',
  templates: 'template',
  mailboxes: 'mailbox',
  messages: 'message',
  webhooks: 'webhook',
  deliveries: 'delivery',
  connections: 'connection',
  exports: 'export',
  workflows: 'workflow',
  runs: 'run',
  members: 'member',
  reports: 'report',
  executions: 'execution',
};

export const PUBLIC_IP = '93.184.215.14';

export const TEMPLATE_BODY = {
  name: 'ACME invoices',
  issuer: 'ACME',
  keywords: ['ACME'],
  fields: { amount: 'Total\\s+(\\d+\\.\\d\\d)' },
};

async function req(
  app: FastifyInstance,
  auth: Record<string, string>,
  method: string,
  url: string,
  payload?: unknown,
  status = 201,
) {
  const res = await app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: auth,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json().data;
}

/** Every kind of resource, owned by the organization `auth` belongs to, in its live mode. */
export async function makeTenant(s: SecurityApp, auth: Record<string, string>): Promise<Ids> {
  const app = s.app;
  const project = (await req(app, auth, 'POST', '/projects', { name: `P ${randomBytes(3).toString('hex')}` })).id;
  const up = multipart(
    { project_id: project },
    {
      name: 'invoice.txt',
      data: Buffer.from(`ACME Invoice ${randomBytes(6).toString('hex')}\nTotal 12.00 EUR\n`),
      type: 'text/plain',
    },
  );
  const docRes = await app.inject({
    method: 'POST',
    url: '/api/v1/documents',
    headers: { ...auth, ...up.headers },
    payload: up.payload,
  });
  expect(docRes.statusCode, docRes.body).toBe(201);
  const document = docRes.json().data.id;
  const batch = (
    await req(app, auth, 'POST', '/documents/reprocess', { document_ids: [document], stages: ['parse'] }, 202)
  ).id;
  const events = await req(app, auth, 'GET', `/events?document_id=${document}`, undefined, 200);
  const template = (await req(app, auth, 'POST', '/templates', TEMPLATE_BODY)).id;
  const mailbox = (
    await req(app, auth, 'POST', '/integrations/mailboxes', {
      name: 'Inbox',
      host: PUBLIC_IP,
      port: 993,
      username: 'u',
      password: 'p',
      project_id: project,
      is_active: false,
    })
  ).id;
  const message = newId('msg');
  await s.testDb.db.query(
    `INSERT INTO mail_messages (id, mailbox_id, folder, uid_validity, uid, message_key, subject, status, reason)
     VALUES ($1, $2, 'INBOX', 1, 1, $3, 'hello', 'failed', 'test fixture')`,
    [message, mailbox, `mid:${message}@test`],
  );
  const webhook = (await req(app, auth, 'POST', '/webhooks', { url: `https://${PUBLIC_IP}/hook`, events: ['*'] })).id;
  const delivery = (await req(app, auth, 'POST', `/webhooks/${webhook}/test`, undefined, 202)).delivery_id;
  const connection = (
    await req(app, auth, 'POST', '/integrations/sheets/connections', {
      name: 'Sheets',
      oauth: { client_id: 'client-1.apps.example', client_secret: 'shh', refresh_token: 'refresh-1' },
    })
  ).id;
  const exp = (
    await req(app, auth, 'POST', '/integrations/sheets/exports', {
      project_id: project,
      connection_id: connection,
      spreadsheet_id: 'sheet1',
      sheet_name: 'Invoices',
      columns: [{ header: 'Id', field: 'document.id' }],
      trigger: 'manual',
    })
  ).id;
  const apiKey = (await req(app, auth, 'POST', '/api-keys', { name: 'tenant key' })).id;
  const workflow = (
    await req(app, auth, 'POST', '/workflows', {
      name: 'Tenant workflow',
      nodes: [
        { id: 'start', type: 'trigger.manual', config: {} },
        { id: 'move', type: 'move_to_project', config: { project_id: project } },
      ],
      edges: [{ source: 'start', target: 'move' }],
    })
  ).id;
  const run = (
    await req(
      app,
      auth,
      'POST',
      `/workflows/${workflow}/run`,
      { mode: 'dry_run', input: { document_id: document } },
      202,
    )
  ).id;
  const report = (
    await req(app, auth, 'POST', '/reports', {
      name: 'Tenant report',
      type: 'document_summary',
      data_source: { project_ids: [project] },
    })
  ).id;
  await req(app, auth, 'POST', `/reports/${report}/schedule`, { time: '06:00', timezone: 'Europe/Berlin' });
  const execution = (await req(app, auth, 'POST', `/reports/${report}/run`, undefined, 202)).id;
  const member = (
    await req(app, auth, 'POST', '/members', {
      email: `m${randomBytes(4).toString('hex')}@example.test`,
      role: 'viewer',
    })
  ).id;
  return {
    member,
    apiKey,
    project,
    event: events[0].id,
    document,
    batch,
    template,
    mailbox,
    message,
    webhook,
    delivery,
    connection,
    export: exp,
    workflow,
    run,
    report,
    execution,
  };
}
