import type { ImapFailureStage } from './types.js';

/** Stages of {@link ImapConnectorError}: connection stages plus `protocol` for a failed command. */
export type ImapErrorStage = ImapFailureStage | 'protocol';

/** A failure talking to the IMAP server, classified by where it happened. */
export class ImapConnectorError extends Error {
  constructor(
    readonly stage: ImapErrorStage,
    message: string,
    /** Underlying error code (`ECONNREFUSED`, `AUTHENTICATIONFAILED`, …) when known. */
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ImapConnectorError';
  }
}

/** The message cannot be downloaded: expunged meanwhile, or larger than the configured limit. */
export class MessageUnavailableError extends Error {
  constructor(
    readonly uid: number,
    readonly reason: 'not_found' | 'too_large',
    readonly size?: number,
  ) {
    super(
      reason === 'not_found'
        ? `message UID ${uid} no longer exists`
        : `message UID ${uid} is too large (${size} bytes)`,
    );
    this.name = 'MessageUnavailableError';
  }
}

interface ErrorLike {
  message?: string;
  code?: string;
  authenticationFailed?: boolean;
  tlsFailed?: boolean;
  mailboxMissing?: boolean;
  serverResponseCode?: string;
  responseText?: string;
  responseStatus?: string;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'ENODATA', 'ESERVFAIL', 'ENONAME']);
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'EADDRNOTAVAIL',
  'CONNECT_TIMEOUT',
  'GREETING_TIMEOUT',
  'ETIMEOUT',
  'NoConnection',
  'EConnectionClosed',
  'ClosedAfterConnectText',
  'StateLogout',
]);
const AUTH_CODES = new Set([
  'AUTHENTICATIONFAILED',
  'AUTHORIZATIONFAILED',
  'EXPIRED',
  'PRIVACYREQUIRED',
  'CONTACTADMIN',
]);
const FOLDER_CODES = new Set(['NONEXISTENT', 'NotFound', 'NOPERM']);

function isTlsError(e: ErrorLike): boolean {
  const code = e.code ?? '';
  return (
    Boolean(e.tlsFailed) ||
    code === 'ClosedAfterConnectTLS' ||
    code === 'UPGRADE_TIMEOUT' ||
    code === 'STARTTLS_INJECTION' ||
    code === 'EPROTO' ||
    /^ERR_(SSL|TLS)_/.test(code) ||
    /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME_MISMATCH|ERR_TLS/.test(code)
  );
}

/**
 * Maps an error from DNS, the socket, TLS or imapflow to the stage that failed. `during` is
 * the step the caller was in; it decides the stage when the error itself carries no hint
 * (a NO to SELECT is a folder problem, a NO to LOGIN an auth problem).
 */
export function classifyImapError(err: unknown, during: 'connect' | 'folder' | 'command'): ImapErrorStage {
  const e = (err ?? {}) as ErrorLike;
  const code = e.code ?? '';
  if (err instanceof ImapConnectorError) return err.stage;
  if (DNS_CODES.has(code)) return 'dns';
  if (isTlsError(e)) return 'tls';
  // imapflow marks every failed LOGIN as an authentication failure, also one that failed because
  // the connection went (a server stopping or restarting: a socket code, or "Already logged out"
  // when it closed before LOGIN was sent) or that the server answered [UNAVAILABLE] (RFC 5530: a
  // temporary failure, such as Dovecot's auth service not up yet). Those say nothing of the
  // credentials: they are connection failures, retried with backoff instead of held for the
  // long wait of a settings error.
  if (CONNECT_CODES.has(code) || e.serverResponseCode === 'UNAVAILABLE') return 'connect';
  if (e.authenticationFailed && e.message === 'Already logged out') return 'connect';
  if (e.authenticationFailed || AUTH_CODES.has(e.serverResponseCode ?? '')) return 'auth';
  if (e.mailboxMissing || FOLDER_CODES.has(code) || FOLDER_CODES.has(e.serverResponseCode ?? '')) return 'folder';
  if (during === 'folder') return 'folder';
  return during === 'connect' ? 'connect' : 'protocol';
}

/** A one-line description for users and logs; never includes credentials. */
export function describeImapError(err: unknown, stage: ImapErrorStage): string {
  const e = (err ?? {}) as ErrorLike;
  const detail = e.responseText || e.message || String(err);
  const code = e.serverResponseCode || e.code;
  const prefix: Record<ImapErrorStage, string> = {
    dns: 'host name could not be resolved',
    blocked: 'host address is not allowed',
    connect: 'could not connect to the server',
    tls: 'TLS negotiation failed',
    auth: 'authentication failed',
    folder: 'folder could not be opened',
    protocol: 'IMAP command failed',
  };
  return `${prefix[stage]}: ${detail}${code && !detail.includes(code) ? ` (${code})` : ''}`;
}

/** Wraps anything thrown into an {@link ImapConnectorError} (idempotent). */
export function toConnectorError(err: unknown, during: 'connect' | 'folder' | 'command'): ImapConnectorError {
  if (err instanceof ImapConnectorError) return err;
  const stage = classifyImapError(err, during);
  const e = (err ?? {}) as ErrorLike;
  return new ImapConnectorError(stage, describeImapError(err, stage), e.serverResponseCode || e.code, { cause: err });
}
