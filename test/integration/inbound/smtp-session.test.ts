// The receiver's session-level guarantees: STARTTLS with a certificate made here, per-IP rate
// limits counted in Redis, replies to senders through a relay (a second smtp-server captures
// them), and a receiver killed between DATA and the commit (no 250, nothing written; the
// sender's retry lands once).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '../../helpers/db.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createInboundHarness, type InboundHarness } from '../../helpers/inbound-harness.js';
import { eventually } from '../../helpers/mail-harness.js';
import { forkSmtpProcess } from '../../helpers/smtp-process.js';
import { workerEnv } from '../../helpers/worker-process.js';

const pdf = (text: string) => makeTextPdf({ pages: [[text]] });

async function refusal(p: Promise<unknown>): Promise<{ code: number; command: string; text: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { responseCode: number; command: string; response: string };
    return { code: e.responseCode, command: e.command, text: e.response };
  }
  throw new Error('the message was accepted');
}

describe('STARTTLS', () => {
  let h: InboundHarness;
  let cert: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-smtp-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    h = await createInboundHarness({
      env: { SMTP_TLS_CERT: join(dir, 'cert.pem'), SMTP_TLS_KEY: join(dir, 'key.pem') },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('upgrades the session with the configured certificate', async () => {
    const project = await h.createProject();
    const sent = await h.send(
      {
        from: 'a@acme.example',
        to: project.inbound_address,
        attachments: [{ filename: 't.pdf', content: await pdf('TLS') }],
      },
      // requireTLS: the send fails unless STARTTLS succeeds against exactly this certificate.
      { ignoreTLS: false, requireTLS: true, tls: { ca: cert, servername: 'localhost' } },
    );
    expect(sent.response).toMatch(/^250 /);
    expect(await h.documents(project.id)).toHaveLength(1);
    const wrongCa = await refusal(
      h.send(
        { from: 'a@acme.example', to: project.inbound_address, text: 'x' },
        { ignoreTLS: false, requireTLS: true, tls: { servername: 'localhost' } },
      ),
    ).catch((e: Error) => ({ code: 0, command: '', text: e.message }));
    expect(wrongCa.code).not.toBe(250);
  });
});

describe('rate limits per client address', () => {
  let h: InboundHarness;
  beforeAll(async () => {
    h = await createInboundHarness({ smtp: { connectionsPerMinute: 3, messagesPerMinute: 2 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 451 past the message limit and 421 past the connection limit', async () => {
    const project = await h.createProject();
    const msg = (n: number) => ({
      from: 'a@acme.example',
      to: project.inbound_address,
      subject: `m${n}`,
      text: `${n}`,
    });
    const tr = nodemailer.createTransport({
      host: '127.0.0.1',
      port: h.receiver.port,
      ignoreTLS: true,
      pool: true,
      maxConnections: 1,
    });
    try {
      await tr.sendMail(msg(1));
      await tr.sendMail(msg(2));
      const third = await refusal(tr.sendMail(msg(3)));
      expect(third).toMatchObject({ code: 451, command: 'MAIL FROM' });
    } finally {
      tr.close();
    }
    // One connection used; two more allowed this minute, then 421 at the greeting.
    await refusal(h.send(msg(4)));
    await refusal(h.send(msg(5)));
    const refused = await refusal(h.send(msg(6)));
    expect(refused.code).toBe(421);
  });
});

describe('replies to senders through the relay', () => {
  let h: InboundHarness;
  let relay: SMTPServer;
  const captured: { to: string[]; mail: ParsedMail }[] = [];
  beforeAll(async () => {
    relay = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, cb) {
        void simpleParser(stream).then((mail) => {
          captured.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
          cb();
        });
      },
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const port = (relay.server.address() as { port: number }).port;
    h = await createInboundHarness({
      env: { SMTP_RELAY_URL: `smtp://127.0.0.1:${port}`, SMTP_REPLY_FROM: 'docpipe@in.docpipe.test' },
    });
  });
  afterAll(async () => {
    await h?.close();
    await new Promise<void>((r) => relay.close(() => r()));
  });

  it('tells the sender once an hour which files were refused; never automatic mail or null senders', async () => {
    const project = await h.createProject({ allowed_file_types: ['pdf'] });
    const refusedFile = { filename: 'notes.txt', content: 'plain text, not a PDF' };
    const ok = await h.send({
      from: 'clerk@acme.example',
      to: project.inbound_address,
      subject: 'Two files',
      attachments: [{ filename: 'ok.pdf', content: await pdf('Accepted') }, refusedFile],
    });
    expect(ok.response).toMatch(/^250 /);
    const reply = await eventually(async () => captured[0], 'the reply at the relay');
    expect(reply.to).toEqual(['clerk@acme.example']);
    expect(reply.mail.subject).toBe('Not processed: Two files');
    expect(reply.mail.text).toContain('notes.txt: the file type is not accepted here');
    expect(reply.mail.headers.get('auto-submitted')).toBe('auto-replied');

    // Same sender again within the hour: no second reply.
    await h.send({
      from: 'clerk@acme.example',
      to: project.inbound_address,
      subject: 'Again',
      attachments: [refusedFile],
    });
    // Automatic mail and a null sender: never answered.
    await h.send({
      from: 'robot@acme.example',
      to: project.inbound_address,
      subject: 'Auto',
      headers: { 'Auto-Submitted': 'auto-generated' },
      attachments: [refusedFile],
    });
    await h.send({
      envelope: { from: '', to: [project.inbound_address] },
      from: 'mailer-daemon@acme.example',
      subject: 'Bounce',
      attachments: [refusedFile],
    });
    // A later, different sender proves the relay is still answering when the others were not.
    await h.send({
      from: 'other@acme.example',
      to: project.inbound_address,
      subject: 'Other',
      attachments: [refusedFile],
    });
    await eventually(async () => captured.length >= 2, 'the second sender’s reply');
    await new Promise((r) => setTimeout(r, 300));
    expect(captured.map((c) => c.to[0])).toEqual(['clerk@acme.example', 'other@acme.example']);
  });

  it('tells the sender when a mailed document fails in the pipeline, once', async () => {
    const project = await h.createProject({ name: 'Failing' });
    await h.send({
      from: 'scanner@acme.example',
      to: project.inbound_address,
      subject: 'Scan 9',
      attachments: [{ filename: 'scan-9.pdf', content: await pdf('Scan 9') }],
    });
    const [doc] = await h.documents(project.id);
    const { rows } = await h.deps.db.query<{ version: number }>('SELECT version FROM documents WHERE id = $1', [
      doc.id,
    ]);
    const before = captured.length;
    // The stage runner's own failure path, as a parse worker takes it after its last retry.
    await h.deps.documents.runner.fail(
      'parse',
      { documentId: doc.id, version: rows[0].version },
      'PARSE_FAILED',
      'the PDF is damaged',
    );
    await h.deps.documents.runner.fail(
      'parse',
      { documentId: doc.id, version: rows[0].version },
      'PARSE_FAILED',
      'again',
    );
    const reply = await eventually(async () => captured[before], 'the failure reply');
    expect(reply.to).toEqual(['scanner@acme.example']);
    expect(reply.mail.subject).toBe('Not processed: Scan 9');
    expect(reply.mail.text).toContain('scan-9.pdf: could not be processed (the PDF is damaged)');
    expect(reply.mail.text).toContain('"Failing"');
    await new Promise((r) => setTimeout(r, 300));
    expect(captured).toHaveLength(before + 1);
  });
});

const pgUrl = databaseUrl();
if (!pgUrl)
  console.warn(
    'inbound/smtp-session: the crash test skipped: it runs the receiver in a second OS process, which needs PostgreSQL; set TEST_DATABASE_URL=postgres://…',
  );

describe.skipIf(!pgUrl)('receiver killed between DATA and the commit (postgres)', () => {
  let h: InboundHarness;
  beforeAll(async () => {
    h = await createInboundHarness({ kind: 'postgres' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the sender sees no 250, nothing is written, and the retry is taken once', async () => {
    const project = await h.createProject();
    const schema = (await h.deps.db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
    const env = { ...workerEnv(h.config), SMTP_PORT: '0', INBOUND_DOMAIN: h.config.INBOUND_DOMAIN! };
    const common = { env, db: { url: pgUrl!, schema }, redisUrl: inject('redisUrl') };
    const doomed = await forkSmtpProcess({ ...common, holdAfterData: true });
    const message = {
      from: 'a@acme.example',
      to: project.inbound_address,
      messageId: '<crash-1@acme.example>',
      attachments: [{ filename: 'c.pdf', content: await pdf('Crash') }],
    };
    const send = (port: number) =>
      nodemailer.createTransport({ host: '127.0.0.1', port, ignoreTLS: true }).sendMail(message);
    const attempt = send(doomed.port).then(
      () => 'accepted',
      (e: Error) => e.message,
    );
    await doomed.received;
    await doomed.kill();
    expect(await attempt).not.toBe('accepted');
    expect(await h.documents(project.id)).toHaveLength(0);
    const rows = await h.deps.db.query('SELECT * FROM inbound_messages WHERE project_id = $1', [project.id]);
    expect(rows.rows).toHaveLength(0);

    // The sender's server tries again, at another receiver behind the MX.
    const second = await forkSmtpProcess({ ...common, holdAfterData: false });
    try {
      const info = (await send(second.port)) as { response: string };
      expect(info.response).toMatch(/^250 /);
      expect((await send(second.port)) as { response: string }).toMatchObject({
        response: expect.stringMatching(/^250 /),
      });
    } finally {
      await second.kill();
    }
    const docs = await h.documents(project.id);
    expect(docs.map((d) => d.filename)).toEqual(['c.pdf']);
  });
});
