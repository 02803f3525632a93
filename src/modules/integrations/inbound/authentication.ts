// Sender authentication of mail arriving over SMTP: SPF, DKIM, DMARC and ARC verdicts from
// mailauth, summed up to one word each (recorded on every document), and the project's
// `inbound_authentication` requirement checked against them. All DNS goes through the resolver
// given, so tests answer from a table instead of the network.
import type { authenticate as Authenticate } from 'mailauth';
import type { InboundAuthentication } from '../../projects/projects.types.js';

/** `(name, rrtype) => records`, as node:dns/promises `resolve`; throws ENOTFOUND/ENODATA when there are none. */
export type DnsResolver = (name: string, rrtype: string) => Promise<string[] | string[][]>;

export interface SmtpVerdicts {
  spf: string;
  dkim: string;
  dmarc: string;
  arc: string;
  /** Domains whose DKIM signature verified. */
  dkim_domains: string[];
}

export interface Envelope {
  /** MAIL FROM (empty for a null sender). */
  sender: string;
  remoteIp: string;
  helo: string;
}

interface Status {
  status?: { result?: string };
}

/** Header fields whose checks read the body (DKIM and ARC body hashes, the ARC chain). */
const SIGNATURE_FIELD = /^(dkim-signature|arc-seal|arc-message-signature|arc-authentication-results)[ \t]*:/im;

/**
 * What mailauth needs to see of a message: all of it when it carries a DKIM or ARC signature
 * (their body hashes read the body), else the header alone. SPF reads the envelope and DMARC the
 * From field and those results, so an unsigned message gets the same verdicts without its body
 * going through mailauth's line-by-line parser again (the 100 KB attachments of the inbound
 * bench cost about as much CPU there as the whole rest of authentication).
 */
export function authenticationInput(raw: Buffer): Buffer {
  let end = raw.indexOf('\r\n\r\n');
  let sep = 4;
  const lf = raw.indexOf('\n\n');
  if (lf >= 0 && (end < 0 || lf < end)) {
    end = lf;
    sep = 2;
  }
  if (end < 0) return raw; // no body at all
  const head = raw.subarray(0, end + sep);
  return SIGNATURE_FIELD.test(head.toString('latin1')) ? raw : head;
}

// mailauth costs about 10 MB of heap and 30 MB of RSS once loaded: only a process that receives
// mail over SMTP pays for it, on the first message.
let mailauth: Promise<{ authenticate: typeof Authenticate }> | undefined;

/** Verdicts for a message as received (never throws: a DNS failure is a `temperror`). */
export async function verifySender(
  raw: Buffer,
  env: Envelope,
  opts: { resolver?: DnsResolver; mta?: string },
): Promise<SmtpVerdicts> {
  try {
    mailauth ??= import('mailauth');
    const { authenticate } = await mailauth;
    const res = (await authenticate(authenticationInput(raw), {
      ip: env.remoteIp,
      helo: env.helo,
      sender: env.sender || undefined,
      mta: opts.mta,
      resolver: opts.resolver,
      disableBimi: true,
    })) as {
      spf?: Status | false;
      dkim?: { results?: (Status & { signingDomain?: string })[] };
      dmarc?: Status | false;
      arc?: Status | false;
    };
    const dkim = res.dkim?.results ?? [];
    const passed = dkim.filter((r) => r.status?.result === 'pass');
    return {
      spf: (res.spf && res.spf.status?.result) || 'none',
      dkim: passed.length ? 'pass' : (dkim[0]?.status?.result ?? 'none'),
      dmarc: (res.dmarc && res.dmarc.status?.result) || 'none',
      arc: (res.arc && res.arc.status?.result) || 'none',
      dkim_domains: [...new Set(passed.flatMap((r) => (r.signingDomain ? [r.signingDomain] : [])))],
    };
  } catch {
    return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror', arc: 'temperror', dkim_domains: [] };
  }
}

/** Null when the verdicts meet the project's requirement, otherwise why not. */
export function authenticationFailure(required: InboundAuthentication, v: SmtpVerdicts): string | null {
  if (required === 'none') return null;
  const got = v[required];
  return got === 'pass' ? null : `${required.toUpperCase()} did not pass (${got}); this project requires it`;
}
