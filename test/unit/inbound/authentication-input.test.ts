// Sender authentication reads a message's body only when a signature needs it: an unsigned
// message is judged on its header alone and gets the verdicts the whole message gets, a signed
// one is passed whole (its DKIM body hash must still verify, and fail once the body changes).
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import {
  authenticationInput,
  verifySender,
  type DnsResolver,
} from '../../../src/modules/integrations/inbound/authentication.js';
import { dkimKey } from '../../helpers/inbound-harness.js';

const key = dkimKey();
const TABLE: Record<string, string> = {
  'signed.example': 'v=spf1 ip4:127.0.0.1 -all',
  'sel._domainkey.signed.example': key.record,
  '_dmarc.signed.example': 'v=DMARC1; p=reject',
};
const resolver: DnsResolver = async (name) => {
  const v = TABLE[name.toLowerCase()];
  if (!v) throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return [[v]];
};
const env = { sender: 'billing@signed.example', remoteIp: '127.0.0.1', helo: 'mail.signed.example' };

async function message(opts: { sign?: boolean; lf?: boolean } = {}): Promise<Buffer> {
  const tr = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: opts.lf ? 'unix' : 'windows',
    ...(opts.sign ? { dkim: { domainName: 'signed.example', keySelector: 'sel', privateKey: key.privateKey } } : {}),
  });
  const info = await tr.sendMail({
    from: 'billing@signed.example',
    to: 'in@docs.test',
    subject: 'Invoice',
    text: 'Attached.',
    attachments: [{ filename: 'a.pdf', content: Buffer.alloc(20_000, 7) }],
  });
  return info.message as Buffer;
}

describe('authenticationInput', () => {
  it('gives the header alone for an unsigned message (CRLF or LF), the whole message for a signed one', async () => {
    for (const lf of [false, true]) {
      const raw = await message({ lf });
      const head = authenticationInput(raw);
      expect(head.length).toBeLessThan(2_000);
      expect(raw.subarray(0, head.length).equals(head)).toBe(true);
      expect(head.toString()).toMatch(lf ? /\n\n$/ : /\r\n\r\n$/);
    }
    const signed = await message({ sign: true });
    expect(authenticationInput(signed)).toBe(signed);
    expect(authenticationInput(Buffer.from('Subject: no body'))).toHaveLength(16);
  });

  it('judges an unsigned message on its header with the verdicts of the whole message', async () => {
    const raw = await message();
    const whole = await verifySender(raw, env, { resolver });
    expect(whole).toMatchObject({ spf: 'pass', dkim: 'none', dmarc: 'pass', arc: 'none' });
    const fromHead = await verifySender(authenticationInput(raw), env, { resolver });
    expect(fromHead).toEqual(whole);
  });

  it('still verifies a signed body, and no longer passes it once the body changed', async () => {
    const raw = await message({ sign: true });
    expect(await verifySender(raw, env, { resolver })).toMatchObject({
      dkim: 'pass',
      dkim_domains: ['signed.example'],
    });
    const tampered = Buffer.from(raw.toString().replace('Attached.', 'Attached!'));
    // mailauth calls a body-hash mismatch `neutral` (RFC 6376 6.1.3): anything but a pass.
    expect(await verifySender(tampered, env, { resolver })).toMatchObject({ dkim: 'neutral', dkim_domains: [] });
  });
});
