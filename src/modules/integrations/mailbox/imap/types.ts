/** How the TCP connection is protected. `none` sends the password in clear text. */
export type ImapSecurity = 'tls' | 'starttls' | 'none';

/** Connection part of a mailbox's settings (the rest lives in rules/MailRuleConfig). */
export interface ImapMailboxConfig {
  host: string;
  port: number;
  security: ImapSecurity;
  username: string;
  password: string;
  /** Folder to watch. Default `INBOX`. */
  folder?: string | null;
  /** Only list mail whose internal date is within this many days (IMAP SINCE, day granularity). Default: no limit. */
  maxAgeDays?: number | null;
}

/** Structured logger (pino-compatible: each method takes an object with a `msg`). */
export interface ImapLogger {
  debug(obj: object): void;
  info(obj: object): void;
  warn(obj: object): void;
  error(obj: object): void;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Options for {@link openMailbox} and {@link testConnection}. */
export interface ImapConnectOptions {
  /** Receives imapflow's protocol log (without credentials). Default: silent. */
  logger?: ImapLogger;
  /** Budget for DNS + TCP + TLS handshake, also used for the server greeting. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Idle time after the last command before IDLE starts (new-mail push). Default 1 000 ms. */
  autoIdleDelayMs?: number;
  /** Socket inactivity limit once connected. Default 300 000 ms. */
  socketTimeoutMs?: number;
  /** Verify the server certificate (tls/starttls). Default true. */
  tlsRejectUnauthorized?: boolean;
  /**
   * SSRF guard: decides whether a resolved address may be contacted (for example "no private
   * or loopback ranges unless the operator allows them"). The connection goes to the checked
   * address, never to a second resolution. Default: every address allowed.
   */
  addressAllowed?: (addr: ResolvedAddress) => boolean;
  /** Name resolution, replaceable in tests. Default: the system resolver (all addresses). */
  lookup?: (host: string) => Promise<ResolvedAddress[]>;
  /** Refuse to download messages larger than this. Default 100 MiB. */
  maxMessageBytes?: number;
  /** Clock for the max-age window. Default `() => new Date()`. */
  now?: () => Date;
  /**
   * Limit for everything up to a usable session (DNS, connect, TLS, login, SELECT/STATUS) in
   * openMailbox and testConnection, so a server that stalls mid-login cannot hang a worker.
   * Default 30 000 ms.
   */
  openTimeoutMs?: number;
}

/** Where a connection attempt failed; `blocked` = refused by `addressAllowed`. */
export type ImapFailureStage = 'dns' | 'blocked' | 'connect' | 'tls' | 'auth' | 'folder';

export type TestConnectionResult =
  | { ok: true; folder: string; messages: number; unseen: number; uidValidity: string }
  | { ok: false; stage: ImapFailureStage; message: string };

export interface NewMailEvent {
  folder: string;
  /** Message count after the change. */
  count: number;
  prevCount: number;
}

/**
 * An open, selected folder. All UIDs refer to that folder under the current UIDVALIDITY.
 * Act only on UIDs this session has listed: an IMAP session does not see messages that
 * arrived after its last command until the server tells it (Dovecot ignores unknown UIDs).
 */
export interface ImapMailboxSession {
  readonly folder: string;
  /** UIDVALIDITY as a decimal string (JSON- and key-safe); re-read it on every poll. */
  readonly uidValidity: string;
  /** UIDs above `sinceUid` (default 0), not \Deleted, inside the max-age window, ascending. */
  listUids(sinceUid?: number): Promise<number[]>;
  /** Raw RFC 822 bytes. Throws {@link MessageUnavailableError} when gone or over the size limit. */
  fetchRaw(uid: number): Promise<Buffer>;
  /** Internal (arrival) date and size without downloading the message; null when gone. */
  fetchMeta(uid: number): Promise<{ uid: number; internalDate?: Date; size: number; flags: string[] } | null>;
  markSeen(uid: number): Promise<void>;
  flag(uid: number): Promise<void>;
  /** Moves to `folder`, creating it first when missing. Returns the UID in the target when the server says (UIDPLUS). */
  move(uid: number, folder: string): Promise<number | undefined>;
  /** Sets \Deleted and expunges this UID only. */
  delete(uid: number): Promise<void>;
  /** New-mail push (IDLE EXISTS). Returns an unsubscribe function. */
  onNewMail(cb: (e: NewMailEvent) => void): () => void;
  /** Connection lost (server gone, network, server-side BYE); not called for close(). The session is unusable afterwards. */
  onClose(cb: () => void): () => void;
  readonly closed: boolean;
  close(): Promise<void>;
}
