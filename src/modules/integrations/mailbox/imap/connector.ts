import type { ImapFlow, SearchObject } from 'imapflow';
import { closeClient, createImapClient, DEFAULT_OPEN_TIMEOUT_MS, resolveTarget, withTimeout } from './client.js';
import { ImapConnectorError, MessageUnavailableError, toConnectorError } from './errors.js';
import type { ImapConnectOptions, ImapMailboxConfig, ImapMailboxSession, NewMailEvent } from './types.js';

export const DEFAULT_MAX_MESSAGE_BYTES = 100 * 1024 * 1024;
const DAY_MS = 86_400_000;

/**
 * Connects, logs in and SELECTs the configured folder (read-write: the after-processing
 * actions need it). Throws {@link ImapConnectorError} with the failing stage.
 * The session keeps the connection open and IDLEs between commands, so `onNewMail` fires
 * shortly after a message arrives.
 */
export async function openMailbox(cfg: ImapMailboxConfig, opts: ImapConnectOptions = {}): Promise<ImapMailboxSession> {
  const folder = cfg.folder || 'INBOX';
  const limit = opts.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;
  let client: ImapFlow | undefined;
  let during: 'connect' | 'folder' = 'connect';
  let timedOut = false;
  const open = async (): Promise<ImapMailboxSession> => {
    const target = await resolveTarget(cfg.host, opts);
    const c = await createImapClient(cfg, target, opts, true);
    // The deadline may have passed during DNS or the import; do not open a socket nobody will close.
    if (timedOut) throw new ImapConnectorError('connect', 'timed out');
    client = c;
    await client.connect();
    during = 'folder';
    const box = await client.mailboxOpen(folder);
    return new Session(client, folder, box.uidValidity, cfg, opts);
  };
  try {
    return await withTimeout(open(), limit, () => {
      timedOut = true;
      return new ImapConnectorError(during, `no answer from the server within ${limit} ms`, 'ETIMEOUT');
    });
  } catch (err) {
    if (client) await closeClient(client, 2_000);
    throw toConnectorError(err, during);
  }
}

class Session implements ImapMailboxSession {
  private readonly newMail = new Set<(e: NewMailEvent) => void>();
  private readonly closeCbs = new Set<() => void>();
  private readonly knownFolders = new Set<string>();
  private isClosed = false;

  constructor(
    private readonly client: ImapFlow,
    readonly folder: string,
    private readonly initialUidValidity: bigint,
    private readonly cfg: ImapMailboxConfig,
    private readonly opts: ImapConnectOptions,
  ) {
    client.on('exists', (e: { path: string; count: number; prevCount: number }) => {
      if (e.path !== folder || e.count <= e.prevCount) return;
      for (const cb of this.newMail) this.safe(() => cb({ folder, count: e.count, prevCount: e.prevCount }));
    });
    client.on('close', () => {
      this.isClosed = true;
      for (const cb of this.closeCbs) this.safe(cb);
      this.closeCbs.clear();
    });
  }

  /** A listener that throws must not break imapflow's event dispatch. */
  private safe(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.opts.logger?.error({ msg: 'mailbox session listener threw', err });
    }
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get uidValidity(): string {
    const current = this.client.mailbox ? this.client.mailbox.uidValidity : undefined;
    return String(current ?? this.initialUidValidity);
  }

  /**
   * imapflow reports many failures as a `false`/`undefined` result instead of throwing (and a
   * dropped connection the same way). Treating that as "nothing found" would make a poller
   * believe the inbox is empty or an action succeeded, so it becomes an error here.
   */
  private must<T>(res: T | false | undefined, what: string): T {
    if (res !== false && res !== undefined) return res;
    if (!this.client.usable || this.isClosed)
      throw new ImapConnectorError('connect', `${what}: IMAP connection lost`, 'NoConnection');
    throw new ImapConnectorError('protocol', `${what}: server refused the command`);
  }

  private async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.isClosed) throw new ImapConnectorError('connect', 'IMAP connection is closed', 'NoConnection');
    try {
      return await fn();
    } catch (err) {
      if (err instanceof MessageUnavailableError) throw err;
      throw toConnectorError(err, 'command');
    }
  }

  listUids(sinceUid = 0): Promise<number[]> {
    return this.run(async () => {
      const query: SearchObject = { deleted: false };
      // UID range n:* always contains the highest UID even when it is below n, hence the filter.
      if (sinceUid > 0) query.uid = `${sinceUid + 1}:*`;
      const maxAge = this.cfg.maxAgeDays;
      if (maxAge && maxAge > 0) query.since = new Date((this.opts.now?.() ?? new Date()).getTime() - maxAge * DAY_MS);
      // SEARCH answers from the session's current view; a NOOP first lets the server report
      // mail delivered since the last command (Dovecot otherwise omits it until the next one).
      await this.client.noop();
      const res = this.must(await this.client.search(query, { uid: true }), 'UID SEARCH');
      return res.filter((u) => u > sinceUid).sort((a, b) => a - b);
    });
  }

  fetchMeta(uid: number): ReturnType<ImapMailboxSession['fetchMeta']> {
    return this.run(async () => {
      const m = await this.client.fetchOne(
        String(uid),
        { uid: true, size: true, internalDate: true, flags: true },
        { uid: true },
      );
      if (!m) {
        if (!this.client.usable) this.must(m, 'UID FETCH');
        return null;
      }
      if (m.uid !== uid) return null;
      const internalDate =
        m.internalDate instanceof Date ? m.internalDate : m.internalDate ? new Date(m.internalDate) : undefined;
      return { uid, internalDate, size: m.size ?? 0, flags: [...(m.flags ?? [])] };
    });
  }

  async fetchRaw(uid: number): Promise<Buffer> {
    const meta = await this.fetchMeta(uid);
    if (!meta) throw new MessageUnavailableError(uid, 'not_found');
    const limit = this.opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (meta.size > limit) throw new MessageUnavailableError(uid, 'too_large', meta.size);
    return this.run(async () => {
      const m = await this.client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
      if (!m || !m.source) {
        if (!this.client.usable) this.must(undefined, 'UID FETCH');
        throw new MessageUnavailableError(uid, 'not_found');
      }
      return m.source;
    });
  }

  markSeen(uid: number): Promise<void> {
    return this.run(async () => {
      this.must(await this.client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true }), 'UID STORE +\\Seen');
    });
  }

  flag(uid: number): Promise<void> {
    return this.run(async () => {
      this.must(await this.client.messageFlagsAdd(String(uid), ['\\Flagged'], { uid: true }), 'UID STORE +\\Flagged');
    });
  }

  private async ensureFolder(path: string): Promise<void> {
    if (this.knownFolders.has(path)) return;
    try {
      await this.client.mailboxCreate(path);
    } catch (err) {
      // Servers that do not send ALREADYEXISTS answer a plain NO; it is fine if the folder is there.
      const st = await this.client.status(path, { messages: true }).catch(() => false as const);
      if (!st) throw toConnectorError(err, 'folder');
    }
    this.knownFolders.add(path);
  }

  move(uid: number, target: string): Promise<number | undefined> {
    return this.run(async () => {
      await this.ensureFolder(target);
      // A UID that is already gone moves nothing and succeeds: retries after a crash stay harmless.
      const res = this.must(await this.client.messageMove(String(uid), target, { uid: true }), 'UID MOVE');
      return res.uidMap?.get(uid);
    });
  }

  delete(uid: number): Promise<void> {
    return this.run(async () => {
      this.must(await this.client.messageDelete(String(uid), { uid: true }), 'UID EXPUNGE');
    });
  }

  onNewMail(cb: (e: NewMailEvent) => void): () => void {
    this.newMail.add(cb);
    return () => this.newMail.delete(cb);
  }

  onClose(cb: () => void): () => void {
    if (this.isClosed) {
      queueMicrotask(cb);
      return () => undefined;
    }
    this.closeCbs.add(cb);
    return () => this.closeCbs.delete(cb);
  }

  async close(): Promise<void> {
    // onClose reports connections lost from outside; our own close must not trigger a reconnect.
    this.newMail.clear();
    this.closeCbs.clear();
    if (this.isClosed) return;
    await closeClient(this.client);
    this.isClosed = true;
  }
}
