// Real SMTP sessions against the built-in receiver, Nodemailer as the sending client: accepted
// mail becomes documents through the IMAP path, and every refusal happens in the session.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { dbKinds } from '../../helpers/db.js';
import { createInboundHarness, dkimKey, DOMAIN, type InboundHarness } from '../../helpers/inbound-harness.js';

const pdf = (text: string) => makeTextPdf({ pages: [[text]] });

/** The SMTP reply code of a failed send (Nodemailer puts it on the error). */
async function refusal(p: Promise<unknown>): Promise<{ code: number; command: string; text: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { responseCode: number; command: string; response: string };
    return { code: e.responseCode, command: e.command, text: e.response };
  }
  throw new Error('the message was accepted');
}

describe.each(dbKinds())('SMTP receiver (%s)', (kind) => {
  let h: InboundHarness;
  beforeAll(async () => {
    h = await createInboundHarness({ kind, smtp: { maxMessageBytes: 200_000 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('takes mail to a project address: attachments become e-mail documents, a resend makes nothing new', async () => {
    const project = await h.createProject();
    expect(project.inbound_address).toMatch(new RegExp(`^supplier-invoices-[a-z0-9]{12}@${DOMAIN}$`));
    const got = await h.api('GET', `/projects/${project.id}`);
    expect(got.body.data.inbound_address).toBe(project.inbound_address);
    const message = {
      from: 'Billing <billing@acme.example>',
      to: project.inbound_address,
      subject: 'Invoice 42',
      messageId: '<inv-42@acme.example>',
      text: 'Attached.',
      attachments: [{ filename: 'inv-42.pdf', content: await pdf('Invoice 42 total 10.00 EUR') }],
    };
    const sent = await h.send(message);
    expect(sent.response).toMatch(/^250 /);
    const docs = await h.documents(project.id);
    // Committed before 250: no waiting needed.
    expect(docs.map((d) => d.filename)).toEqual(['inv-42.pdf']);
    expect(docs[0].source).toBe('email');
    expect(docs[0].source_metadata).toMatchObject({
      sender: 'billing@acme.example',
      subject: 'Invoice 42',
      message_id: '<inv-42@acme.example>',
      part: 'attachment',
      smtp: { from: 'billing@acme.example', helo: 'sender.example', spf: 'none', dkim: 'none', dmarc: 'none' },
    });
    expect(docs[0].source_metadata.smtp.remote_ip).toMatch(/127\.0\.0\.1$/);

    expect((await h.send(message)).response).toMatch(/^250 /);
    expect(await h.documents(project.id)).toHaveLength(1);
  });

  it('keeps the .eml when the project says so', async () => {
    const project = await h.createProject({ inbound_consume: 'both' });
    await h.send({
      from: 'a@acme.example',
      to: project.inbound_address,
      subject: 'Both',
      text: 'Body',
      attachments: [{ filename: 'a.pdf', content: await pdf('Both parts') }],
    });
    const docs = await h.documents(project.id);
    expect(docs.map((d) => d.source_metadata.part).sort()).toEqual(['attachment', 'eml']);
  });

  it('refuses unknown and rotated addresses at RCPT time with 550 5.1.1', async () => {
    const project = await h.createProject({ name: 'Rotating' });
    const unknown = await refusal(h.send({ from: 'a@acme.example', to: `nobody-123456789012@${DOMAIN}`, text: 'x' }));
    expect(unknown).toMatchObject({ code: 550, command: 'RCPT TO' });
    expect(unknown.text).toContain('5.1.1');
    const otherDomain = await refusal(h.send({ from: 'a@acme.example', to: `x@elsewhere.example`, text: 'x' }));
    expect(otherDomain).toMatchObject({ code: 550, command: 'RCPT TO' });

    const rotated = await h.api('POST', `/projects/${project.id}/inbound-address/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.inbound_address).not.toBe(project.inbound_address);
    expect(rotated.body.data.inbound_address).toMatch(/^rotating-[a-z0-9]{12}@/);
    const old = await refusal(h.send({ from: 'a@acme.example', to: project.inbound_address, text: 'x' }));
    expect(old).toMatchObject({ code: 550, command: 'RCPT TO' });
    const fresh = await h.send({
      from: 'a@acme.example',
      to: rotated.body.data.inbound_address,
      attachments: [{ filename: 'r.pdf', content: await pdf('Rotated address') }],
    });
    expect(fresh.response).toMatch(/^250 /);
    expect(await h.documents(project.id)).toHaveLength(1);
  });

  it('announces SIZE and refuses a larger message with 552, keeping nothing', async () => {
    const project = await h.createProject({ name: 'Big' });
    const ehlo = await new Promise<string>((resolve, reject) => {
      const s = connect(h.receiver.port, '127.0.0.1');
      let buf = '';
      s.on('data', (d) => {
        buf += d.toString();
        if (buf.startsWith('220') && !buf.includes('EHLO-SENT')) {
          buf += 'EHLO-SENT';
          s.write('EHLO probe.example\r\n');
        } else if (/\r\n250 /.test(buf)) {
          s.end('QUIT\r\n');
          resolve(buf);
        }
      });
      s.on('error', reject);
    });
    expect(ehlo).toContain('SIZE 200000');
    const big = await refusal(
      h.send({
        from: 'a@acme.example',
        to: project.inbound_address,
        attachments: [{ filename: 'big.pdf', content: Buffer.alloc(300_000, 0x41) }],
      }),
    );
    expect(big.code).toBe(552);
    expect(await h.documents(project.id)).toHaveLength(0);
  });

  it('refuses a sender outside inbound_allowed_senders with 550 5.7.1', async () => {
    const project = await h.createProject({
      name: 'Allowed',
      inbound_allowed_senders: ['@ACME.example', 'x@y.example'],
    });
    expect(project.inbound_allowed_senders).toEqual(['@acme.example', 'x@y.example']);
    const bad = await refusal(
      h.send({
        from: 'mallory@evil.example',
        to: project.inbound_address,
        attachments: [{ filename: 'e.pdf', content: await pdf('Evil') }],
      }),
    );
    expect(bad.code).toBe(550);
    expect(bad.text).toContain('5.7.1');
    expect(await h.documents(project.id)).toHaveLength(0);
    const good = await h.send({
      from: 'ap@acme.example',
      to: project.inbound_address,
      attachments: [{ filename: 'g.pdf', content: await pdf('Good') }],
    });
    expect(good.response).toMatch(/^250 /);
    expect(await h.documents(project.id)).toHaveLength(1);
  });

  it('rejects malformed allowed-sender entries with 400 naming the entry', async () => {
    const res = await h.api('POST', '/projects', { name: 'Bad', inbound_allowed_senders: ['not an address'] });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error)).toContain('inbound_allowed_senders[0]');
  });

  describe('SPF, DKIM and DMARC with real signatures and a DNS table', () => {
    const good = dkimKey();
    const other = dkimKey();
    beforeAll(() => {
      h.dns.set('signed.example', ['v=spf1 ip4:127.0.0.1 ip6:::1 -all']);
      h.dns.set('sel._domainkey.signed.example', [good.record]);
      h.dns.set('_dmarc.signed.example', ['v=DMARC1; p=reject']);
      h.dns.set('forged.example', ['v=spf1 ip4:192.0.2.1 -all']);
      h.dns.set('_dmarc.forged.example', ['v=DMARC1; p=reject']);
    });
    const dkim = (privateKey: string) => ({ domainName: 'signed.example', keySelector: 'sel', privateKey });

    it('dmarc: aligned SPF and DKIM pass, recorded on the document', async () => {
      const project = await h.createProject({ name: 'Dmarc', inbound_authentication: 'dmarc' });
      const ok = await h.send(
        {
          from: 'billing@signed.example',
          to: project.inbound_address,
          subject: 'Signed',
          attachments: [{ filename: 's.pdf', content: await pdf('Signed invoice') }],
        },
        { dkim: dkim(good.privateKey) },
      );
      expect(ok.response).toMatch(/^250 /);
      const [doc] = await h.documents(project.id);
      expect(doc.source_metadata.smtp).toMatchObject({
        spf: 'pass',
        dkim: 'pass',
        dmarc: 'pass',
        dkim_domains: ['signed.example'],
      });
      const forged = await refusal(
        h.send({
          from: 'billing@forged.example',
          to: project.inbound_address,
          attachments: [{ filename: 'f.pdf', content: await pdf('Forged invoice') }],
        }),
      );
      expect(forged.code).toBe(550);
      expect(forged.text).toMatch(/DMARC did not pass \(fail\)/);
      expect(await h.documents(project.id)).toHaveLength(1);
    });

    it('dkim: a signature by a key other than the published one fails', async () => {
      const project = await h.createProject({ name: 'Dkim', inbound_authentication: 'dkim' });
      const bad = await refusal(
        h.send(
          {
            from: 'billing@signed.example',
            to: project.inbound_address,
            attachments: [{ filename: 'k.pdf', content: await pdf('Wrong key') }],
          },
          { dkim: dkim(other.privateKey) },
        ),
      );
      expect(bad.code).toBe(550);
      expect(bad.text).toMatch(/DKIM did not pass \(fail\)/);
      const ok = await h.send(
        {
          from: 'billing@signed.example',
          to: project.inbound_address,
          attachments: [{ filename: 'k.pdf', content: await pdf('Right key') }],
        },
        { dkim: dkim(good.privateKey) },
      );
      expect(ok.response).toMatch(/^250 /);
    });

    it('spf: the envelope domain must list the client address', async () => {
      const project = await h.createProject({ name: 'Spf', inbound_authentication: 'spf' });
      const bad = await refusal(
        h.send({
          from: 'x@forged.example',
          to: project.inbound_address,
          attachments: [{ filename: 'p.pdf', content: await pdf('SPF fail') }],
        }),
      );
      expect(bad.code).toBe(550);
      expect(bad.text).toMatch(/SPF did not pass \(fail\)/);
      const ok = await h.send({
        from: 'x@signed.example',
        to: project.inbound_address,
        attachments: [{ filename: 'p.pdf', content: await pdf('SPF pass') }],
      });
      expect(ok.response).toMatch(/^250 /);
      const [doc] = await h.documents(project.id);
      expect(doc.source_metadata.smtp.spf).toBe('pass');
    });
  });
});
