// The real app plus the SMTP receiver for integration tests: real Redis, real database, a DNS
// table instead of the network (SPF/DKIM/DMARC), and Nodemailer as the sending client.
import { generateKeyPairSync } from 'node:crypto';
import { inject } from 'vitest';
import nodemailer from 'nodemailer';
import { createDeps } from '../../src/container.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/lib/logger.js';
import type { SmtpReceiver, SmtpReceiverOptions } from '../../src/modules/integrations/inbound/index.js';
import { createActor, testConfig, type Actor, type TestApp } from './app.js';
import { createTestDb, type DbKind } from './db.js';

export const DOMAIN = 'in.docpipe.test';

/** A DNS table: name → TXT strings (anything else: not found). */
export type DnsTable = Map<string, string[]>;

export function fakeResolver(table: DnsTable) {
  return async (name: string, rrtype: string): Promise<string[][]> => {
    const txt = rrtype === 'TXT' ? table.get(name.toLowerCase()) : undefined;
    if (!txt) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return txt.map((t) => [t]);
  };
}

/** An RSA key pair for DKIM: the private key PEM and the DNS record publishing the public one. */
export function dkimKey(): { privateKey: string; record: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    record: `v=DKIM1; k=rsa; p=${der.toString('base64')}`,
  };
}

export interface InboundHarness extends TestApp {
  actor: Actor;
  dns: DnsTable;
  receiver: SmtpReceiver;
  api(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: any }>;
  createProject(body?: Record<string, unknown>): Promise<Record<string, any>>;
  documents(projectId: string): Promise<Record<string, any>[]>;
  /** Sends with Nodemailer; resolves with the server's reply or rejects with its error (responseCode). */
  send(message: Record<string, unknown>, transport?: Record<string, unknown>): Promise<{ response: string }>;
}

export async function createInboundHarness(
  opts: { kind?: DbKind; env?: Record<string, string>; smtp?: Partial<SmtpReceiverOptions> } = {},
): Promise<InboundHarness> {
  const config = testConfig({ SMTP_PORT: '0', INBOUND_DOMAIN: DOMAIN, ...opts.env });
  const testDb = await createTestDb(opts.kind ?? 'pglite');
  const dns: DnsTable = new Map();
  const deps = await createDeps(config, {
    db: testDb.db,
    redisUrl: inject('redisUrl'),
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
    inbound: { resolver: fakeResolver(dns) },
  });
  const app = await buildApp(appDepsFrom(deps));
  await app.ready();
  const t: TestApp = { app, deps, config, testDb, close: async () => undefined };
  const actor = await createActor(t);
  const receiver = await deps.inbound.startReceiver({ port: 0, ...opts.smtp });
  const api: InboundHarness['api'] = async (method, url, payload) => {
    const res = await app.inject({
      method,
      url: `/api/v1${url}`,
      headers: actor.auth,
      payload: payload as Record<string, unknown> | undefined,
    });
    return { status: res.statusCode, body: res.json() };
  };
  return {
    ...t,
    actor,
    dns,
    receiver,
    api,
    async createProject(body = {}) {
      const res = await api('POST', '/projects', { name: 'Supplier Invoices', ...body });
      if (res.status !== 201) throw new Error(`project creation failed: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async documents(projectId) {
      const { rows } = await deps.db.query<Record<string, any>>(
        'SELECT id, filename, status, sha256, source, source_metadata FROM documents WHERE project_id = $1 ORDER BY created_at, filename',
        [projectId],
      );
      return rows;
    },
    async send(message, transport = {}) {
      const tr = nodemailer.createTransport({
        host: '127.0.0.1',
        port: receiver.port,
        secure: false,
        ignoreTLS: true,
        name: 'sender.example',
        ...transport,
      } as Parameters<typeof nodemailer.createTransport>[0]);
      try {
        return (await tr.sendMail(message)) as { response: string };
      } finally {
        tr.close();
      }
    },
    async close() {
      await receiver.close(2_000);
      await app.close();
      await deps.close();
      await testDb.close();
    },
  };
}
