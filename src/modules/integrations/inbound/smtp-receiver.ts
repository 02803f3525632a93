// The built-in SMTP receiver (worker role `smtp`). Every refusal is made in the session, never
// by a later bounce: an unknown or rotated address at RCPT (550 5.1.1), an over-size message at
// MAIL FROM SIZE= or at the end of DATA (552), a client over its connection or message rate
// (421 / 451, counted in Redis across processes), a sender the project does not allow or whose
// authentication falls short (550 5.7.1). 250 is answered only once the documents and the
// message record are committed.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { ProjectRow } from '../../projects/projects.types.js';
import type { RateLimiter } from './rate-limit.js';
import { receiveMessage, type ReceiveDeps, type ReceiveOutcome } from './receive.js';

export interface SmtpReceiverOptions {
  host: string;
  /** 0: any free port (tests). */
  port: number;
  domain: string;
  maxMessageBytes: number;
  tls?: { certFile: string; keyFile: string };
  connectionsPerMinute: number;
  messagesPerMinute: number;
  /** Idle time before a silent client is dropped, ms. Default 60000. */
  socketTimeoutMs?: number;
  /** Called with the message in hand, before anything is written (tests stop the process here). */
  onReceived?: () => Promise<void>;
}

export interface SmtpReceiverDeps extends ReceiveDeps {
  projects: Pick<ProjectsRepository, 'byInboundLocalPart'>;
  limiter: RateLimiter;
}

export interface SmtpReceiver {
  readonly port: number;
  close(timeoutMs?: number): Promise<void>;
}

const MAX_CLIENTS = 500;

const smtpError = (code: number, message: string): Error & { responseCode: number } =>
  Object.assign(new Error(message), { responseCode: code });

/** The local part of an address at our domain, or null for any other domain. */
export function localPartAt(address: string, domain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at <= 0) return null;
  if (address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  return address.slice(0, at).toLowerCase();
}

/**
 * Reads DATA into memory up to `max` bytes; past that the rest is drained and dropped (the
 * caller answers 552), so a huge message costs bandwidth, never memory.
 */
function readCapped(stream: SMTPServerDataStream, max: number): Promise<{ raw: Buffer; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    stream.on('data', (c: Buffer) => {
      if (tooLarge) return;
      size += c.length;
      if (size > max) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(c);
    });
    stream.once('error', reject);
    stream.once('end', () => resolve({ raw: Buffer.concat(chunks), tooLarge: tooLarge || stream.sizeExceeded }));
  });
}

export async function startSmtpReceiver(deps: SmtpReceiverDeps, opts: SmtpReceiverOptions): Promise<SmtpReceiver> {
  const log = deps.logger;
  const lookup = async (address: string): Promise<ProjectRow | null> => {
    const local = localPartAt(address, opts.domain);
    return local ? deps.projects.byInboundLocalPart(local) : null;
  };

  const deliver = async (session: SMTPServerSession, raw: Buffer): Promise<ReceiveOutcome> => {
    // Looked up again: an address rotated between RCPT and the end of DATA no longer counts.
    const projects = new Map<string, ProjectRow>();
    for (const r of session.envelope.rcptTo) {
      const p = await lookup(r.address);
      if (p) projects.set(p.id, p);
    }
    if (projects.size === 0) return { kind: 'refused', code: 550, message: '5.1.1 No such recipient' };
    const env = {
      sender: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      remoteIp: session.remoteAddress,
      helo: session.hostNameAppearsAs || session.remoteAddress,
    };
    let refusal: ReceiveOutcome | undefined;
    let accepted = false;
    for (const p of projects.values()) {
      const out = await receiveMessage(deps, p, raw, env);
      if (out.kind === 'accepted') accepted = true;
      else refusal ??= out;
    }
    return accepted || !refusal ? { kind: 'accepted', documentIds: [], parts: [], duplicate: false } : refusal;
  };

  // Imported here: only a process with SMTP_PORT set loads the SMTP server (about 14 MB of RSS).
  const { SMTPServer } = await import('smtp-server');
  const server = new SMTPServer({
    name: opts.domain,
    banner: 'docpipe inbound',
    size: opts.maxMessageBytes,
    authOptional: true,
    disabledCommands: opts.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(opts.tls ? { key: readFileSync(opts.tls.keyFile), cert: readFileSync(opts.tls.certFile) } : {}),
    disableReverseLookup: true,
    // Open sessions per process, whoever they come from (the per-IP limits bound each client).
    maxClients: MAX_CLIENTS,
    logger: false,
    socketTimeout: opts.socketTimeoutMs ?? 60_000,
    onConnect(session, cb) {
      deps.limiter
        .take('conn', session.remoteAddress, opts.connectionsPerMinute)
        .then((ok) => cb(ok ? null : smtpError(421, '4.7.0 Too many connections from your address; try later')))
        .catch((err: unknown) => {
          log.warn({ err }, 'smtp: rate limit unavailable');
          cb(smtpError(421, '4.3.0 Temporarily unavailable; try later'));
        });
    },
    onMailFrom(_address, session, cb) {
      deps.limiter
        .take('msg', session.remoteAddress, opts.messagesPerMinute)
        .then((ok) => cb(ok ? null : smtpError(451, '4.7.1 Too many messages from your address; try later')))
        .catch((err: unknown) => {
          log.warn({ err }, 'smtp: rate limit unavailable');
          cb(smtpError(451, '4.3.0 Temporarily unavailable; try later'));
        });
    },
    onRcptTo(address, _session, cb) {
      lookup(address.address)
        .then((p) => cb(p ? null : smtpError(550, '5.1.1 No such recipient')))
        .catch((err: unknown) => {
          log.warn({ err }, 'smtp: recipient lookup failed');
          cb(smtpError(451, '4.3.0 Temporarily unavailable; try later'));
        });
    },
    onData(stream, session, cb) {
      readCapped(stream, opts.maxMessageBytes)
        .then(async ({ raw, tooLarge }) => {
          if (tooLarge) return cb(smtpError(552, `5.3.4 Message larger than ${opts.maxMessageBytes} bytes`));
          await opts.onReceived?.();
          const out = await deliver(session, raw);
          if (out.kind === 'refused') return cb(smtpError(out.code, out.message));
          cb(null, '2.0.0 Message accepted');
        })
        .catch((err: unknown) => {
          // Nothing recorded as received: the sender keeps the message and tries again.
          log.warn({ err }, 'smtp: could not take a message');
          cb(smtpError(451, '4.3.0 Could not take the message now; try later'));
        });
    },
  });
  server.on('error', (err) => log.warn({ err }, 'smtp server error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  log.info({ host: opts.host, port, domain: opts.domain }, 'smtp receiver listening');
  return {
    port,
    close(timeoutMs = 20_000) {
      return new Promise<void>((resolve) => {
        const t = setTimeout(resolve, timeoutMs);
        server.close(() => {
          clearTimeout(t);
          resolve();
        });
      });
    },
  };
}
