import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { ImapFlow, ImapFlowOptions } from 'imapflow';
import { ImapConnectorError } from './errors.js';
import type { ImapConnectOptions, ImapMailboxConfig, ResolvedAddress } from './types.js';
import { lazy } from '../../../../lib/lazy.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_AUTO_IDLE_DELAY_MS = 1_000;
export const DEFAULT_SOCKET_TIMEOUT_MS = 300_000;
export const DEFAULT_OPEN_TIMEOUT_MS = 30_000;

// Loaded on first use: imapflow costs ~30 MB that a process without mailboxes never needs.
const loadImapflow = lazy(() => import('imapflow'));

async function systemLookup(host: string): Promise<ResolvedAddress[]> {
  const res = await dnsLookup(host, { all: true, verbatim: true });
  return res.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
}

export function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * Resolves the host once and applies the address policy. The client then connects to the
 * returned IP (with the host name kept for SNI and certificate checks), so a DNS answer that
 * changes between check and connect cannot sneak past the policy.
 */
export async function resolveTarget(
  host: string,
  opts: ImapConnectOptions,
): Promise<ResolvedAddress & { servername?: string }> {
  const literal = isIP(host);
  let addrs: ResolvedAddress[];
  if (literal) {
    addrs = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    const timeout = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    try {
      addrs = await withTimeout((opts.lookup ?? systemLookup)(host), timeout, () =>
        Object.assign(new Error(`DNS lookup of ${host} timed out`), { code: 'EAI_AGAIN' }),
      );
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'ENOTFOUND';
      throw new ImapConnectorError('dns', `host name could not be resolved: ${host} (${code})`, code, { cause: err });
    }
    if (addrs.length === 0)
      throw new ImapConnectorError('dns', `host name could not be resolved: ${host}`, 'ENOTFOUND');
  }
  const allowed = opts.addressAllowed ? addrs.filter((a) => opts.addressAllowed!(a)) : addrs;
  if (allowed.length === 0) {
    throw new ImapConnectorError(
      'blocked',
      `host address is not allowed: ${host} (${addrs.map((a) => a.address).join(', ')})`,
    );
  }
  return { ...allowed[0], servername: literal ? undefined : host };
}

/** Builds (does not connect) an imapflow client for the config. */
export async function createImapClient(
  cfg: ImapMailboxConfig,
  target: ResolvedAddress & { servername?: string },
  opts: ImapConnectOptions,
  idle: boolean,
): Promise<ImapFlow> {
  const { ImapFlow } = await loadImapflow();
  const connectTimeout = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const options: ImapFlowOptions = {
    host: target.address,
    servername: target.servername,
    port: cfg.port,
    secure: cfg.security === 'tls',
    // starttls: required (fail rather than silently continue in clear); none: never attempt.
    doSTARTTLS: cfg.security === 'starttls' ? true : cfg.security === 'none' ? false : undefined,
    auth: { user: cfg.username, pass: cfg.password },
    logger: opts.logger ?? false,
    disableAutoIdle: !idle,
    autoIdleDelay: opts.autoIdleDelayMs ?? DEFAULT_AUTO_IDLE_DELAY_MS,
    connectionTimeout: connectTimeout,
    greetingTimeout: connectTimeout,
    socketTimeout: opts.socketTimeoutMs ?? DEFAULT_SOCKET_TIMEOUT_MS,
    tls: { rejectUnauthorized: opts.tlsRejectUnauthorized ?? true },
    clientInfo: { name: 'docpipe' },
  };
  const client = new ImapFlow(options);
  // imapflow emits 'error' for socket failures; without a listener Node would crash the process.
  client.on('error', (err: Error) => opts.logger?.warn({ msg: 'imap connection error', err }));
  return client;
}

/** LOGOUT politely, but never wait on a dead server for longer than `ms`. */
export async function closeClient(client: ImapFlow, ms = 3_000): Promise<void> {
  if (!client.usable) {
    client.close();
    return;
  }
  try {
    await withTimeout(client.logout(), ms, () => new Error('logout timed out'));
  } catch {
    client.close();
  }
}
