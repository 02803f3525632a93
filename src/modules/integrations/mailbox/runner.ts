// One mailbox, one connection: connect (with backoff), catch up on everything in the folder,
// then wait for IDLE pushes, the fallback poll timer, retries falling due, or a nudge.
import type { SecretBox } from '../../../lib/crypto.js';
import type { Logger } from '../../../lib/logger.js';
import type { HostPolicy } from './host-policy.js';
import {
  ImapConnectorError,
  openMailbox,
  toConnectorError,
  type ImapConnectOptions,
  type ImapMailboxConfig,
  type ImapMailboxSession,
} from './imap/index.js';
import {
  applyAction,
  ingestMessage,
  isConnectionLoss,
  rulesOf,
  type IngestDeps,
  type IngestOutcome,
  type MailboxContext,
} from './ingest.js';
import { UNREADABLE_PASSWORD, type MailboxRow, type MailMessageRow } from './mailbox.types.js';
import type { MailboxesRepository } from './mailboxes.repository.js';
import type { MessagesRepository } from './messages.repository.js';
import { inParallel, Signal } from './async-utils.js';

/** Timing of one mailbox runner (see MailPollerOptions for the defaults). */
export interface RunnerTiming {
  pollIntervalMs: number;
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  errorRetryMs: number;
  transientErrorThreshold: number;
  /** Messages processed at the same time on one connection. */
  concurrency: number;
}

export interface RunnerDeps {
  mailboxes: MailboxesRepository;
  messages: MessagesRepository;
  ingest: IngestDeps;
  secretBox: SecretBox;
  hosts: HostPolicy;
  logger: Logger;
  connect: Omit<ImapConnectOptions, 'addressAllowed' | 'logger'>;
  timing: RunnerTiming;
}

export interface RunnerStats {
  connectAttempts: number;
  connected: number;
  outcomes: Partial<Record<IngestOutcome, number>>;
  /** An IMAP session is open right now. */
  online: boolean;
  /** When the folder was last looked through (ms since the epoch), null before the first time. */
  lastPollAt: number | null;
}

// Settings problems that will not fix themselves: wait for an update (or a long while).
const PERMANENT = new Set(['auth', 'tls', 'folder', 'blocked']);

export class MailboxRunner {
  readonly stats: RunnerStats = { connectAttempts: 0, connected: 0, outcomes: {}, online: false, lastPollAt: null };
  private stopping = false;
  /** Wakes the serving loop: new mail, a nudge, stop. */
  private readonly wake = new Signal();
  /** Ends a reconnect or error wait early: only stop (a nudge must not defeat the backoff). */
  private readonly halt = new Signal();
  private session: ImapMailboxSession | undefined;
  private highest = 0;
  private needFull = true;
  private done: Promise<void> | undefined;
  private readonly ctx: MailboxContext;
  private readonly ingestDeps: IngestDeps;
  /** Records whose IMAP action succeeded, written in batches (one UPDATE instead of one per message). */
  private actionsDone: string[] = [];

  constructor(
    private readonly deps: RunnerDeps,
    readonly mailbox: MailboxRow,
  ) {
    this.ctx = { row: mailbox, rules: rulesOf(mailbox) };
    this.ingestDeps = {
      ...deps.ingest,
      actionDone: async (id) => {
        this.actionsDone.push(id);
        if (this.actionsDone.length >= 25) await this.flushActions();
      },
    };
  }

  private async flushActions(): Promise<void> {
    const ids = this.actionsDone;
    if (ids.length === 0) return;
    this.actionsDone = [];
    try {
      await this.deps.messages.actionsDone(ids, this.mailbox.after_processing);
    } catch (err) {
      // Only the bookkeeping is lost: the actions themselves were done.
      this.deps.logger.warn(
        { err, mailboxId: this.mailbox.id, records: ids.length },
        'could not record finished IMAP actions',
      );
    }
  }

  get version(): number {
    return this.mailbox.config_version;
  }

  start(): void {
    this.done ??= this.run().catch((err) =>
      this.deps.logger.error({ err, mailboxId: this.mailbox.id }, 'mailbox runner crashed'),
    );
  }

  /** Something changed for this mailbox (a retry was requested): look again now. */
  nudge(): void {
    this.wake.set();
  }

  /** Finishes the message in hand, then disconnects. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.set();
    this.halt.set();
    await this.done;
  }

  /** Drops the connection at once without waiting for anything (a dying process). */
  abort(): void {
    this.stopping = true;
    this.wake.set();
    this.halt.set();
    void this.session?.close();
  }

  private imapConfig(folder = this.mailbox.folder): ImapMailboxConfig {
    const m = this.mailbox;
    let password: string;
    try {
      password = this.deps.secretBox.decrypt(m.password_sealed);
    } catch {
      throw new ImapConnectorError('auth', UNREADABLE_PASSWORD);
    }
    return {
      host: m.host,
      port: m.port,
      security: m.security,
      username: m.username,
      password,
      folder,
      maxAgeDays: m.max_age_days,
    };
  }

  private async open(folder?: string): Promise<ImapMailboxSession> {
    return openMailbox(this.imapConfig(folder), {
      ...this.deps.connect,
      addressAllowed: this.deps.hosts.addressAllowed(this.mailbox.host),
    });
  }

  private backoff(failures: number): number {
    const t = this.deps.timing;
    return Math.min(t.reconnectMaxMs, t.reconnectBaseMs * 2 ** Math.max(0, failures - 1));
  }

  private async run(): Promise<void> {
    const { id } = this.mailbox;
    const { mailboxes } = this.deps;
    let failures = 0;
    while (!this.stopping) {
      this.stats.connectAttempts++;
      let session: ImapMailboxSession;
      try {
        session = await this.open();
      } catch (err) {
        if (this.stopping) break;
        const e = toConnectorError(err, 'connect');
        const permanent = PERMANENT.has(e.stage) || (e.stage === 'dns' && e.code === 'ENOTFOUND');
        failures++;
        this.deps.logger.warn({ mailboxId: id, stage: e.stage, err: e.message }, 'mailbox connection failed');
        if (permanent || failures >= this.deps.timing.transientErrorThreshold)
          await mailboxes.setError(id, this.version, e.message).catch(() => undefined);
        else await mailboxes.noteError(id, this.version, e.message).catch(() => undefined);
        // A settings problem is not retried in a tight loop; an update restarts the runner at once.
        await this.halt.wait(permanent ? this.deps.timing.errorRetryMs : this.backoff(failures));
        continue;
      }
      if (this.stopping) {
        await session.close();
        break;
      }
      this.stats.connected++;
      this.stats.online = true;
      this.session = session;
      this.needFull = true;
      try {
        await this.serve(session);
        failures = 0;
      } catch (err) {
        if (this.stopping) break;
        failures++;
        this.deps.logger.warn({ err, mailboxId: id }, 'mailbox connection lost; reconnecting');
        await mailboxes
          .noteError(id, this.version, `connection lost: ${(err as Error).message}`)
          .catch(() => undefined);
      } finally {
        this.session = undefined;
        this.stats.online = false;
        await session.close().catch(() => undefined);
      }
      if (!this.stopping) await this.halt.wait(this.backoff(Math.max(1, failures)));
    }
  }

  private async serve(session: ImapMailboxSession): Promise<void> {
    const offNew = session.onNewMail(() => this.wake.set());
    const offClose = session.onClose(() => this.wake.set());
    let uidValidity = session.uidValidity;
    let lastDue: number | undefined;
    try {
      while (!this.stopping && !session.closed) {
        if (session.uidValidity !== uidValidity) {
          // Renumbered folder: every UID is new; message keys keep it from being consumed twice.
          uidValidity = session.uidValidity;
          this.needFull = true;
        }
        const full = this.needFull;
        this.needFull = false;
        if (full) this.highest = 0;
        await this.scan(session, full);
        if (this.stopping || session.closed) break;
        await this.retryDue(session);
        await this.flushActions();
        await this.deps.mailboxes.markChecked(this.mailbox.id, this.version);
        this.stats.lastPollAt = Date.now();
        const dueAt = (
          await this.deps.messages.nextDueAt(this.mailbox.id, session.folder, Number(session.uidValidity))
        )?.getTime();
        let waitMs = this.deps.timing.pollIntervalMs;
        if (dueAt !== undefined) {
          const inMs = dueAt - Date.now();
          // A record that stays overdue after a retry pass must not spin the loop.
          waitMs = Math.min(waitMs, inMs <= 0 && dueAt === lastDue ? 1_000 : Math.max(0, inMs) + 5);
        }
        lastDue = dueAt;
        // A message another claim held up (or a database hiccup) is looked at again soon.
        if (this.needFull) waitMs = Math.min(waitMs, 1_000);
        await this.wake.wait(waitMs);
      }
    } finally {
      offNew();
      offClose();
      await this.flushActions();
    }
    if (session.closed && !this.stopping) throw new Error('IMAP connection closed by the server');
  }

  private async ingest(session: ImapMailboxSession, uid: number): Promise<IngestOutcome | undefined> {
    try {
      const outcome = await ingestMessage(this.ingestDeps, this.ctx, session, uid);
      this.stats.outcomes[outcome] = (this.stats.outcomes[outcome] ?? 0) + 1;
      if (outcome === 'busy') this.needFull = true;
      return outcome;
    } catch (err) {
      if (isConnectionLoss(err) || this.stopping) throw err;
      // Database trouble and the like: this message is looked at again on the next full scan.
      this.deps.logger.error({ err, mailboxId: this.mailbox.id, uid }, 'could not process a mail message');
      this.needFull = true;
      return undefined;
    }
  }

  /** Full scan: everything in the folder; otherwise only UIDs above the highest seen. */
  private async scan(session: ImapMailboxSession, full: boolean): Promise<void> {
    const uids = await session.listUids(full ? 0 : this.highest);
    if (uids.length === 0) return;
    const known = await this.deps.messages.byLocation(
      this.mailbox.id,
      session.folder,
      Number(session.uidValidity),
      uids,
    );
    // Known records are skipped here; due ones are handled by retryDue.
    const fresh = uids.filter((uid) => !known.has(uid));
    if (full) await this.finishActions(session, new Set(uids));
    // Several messages in flight: one's IMAP round trips overlap another's database work.
    await inParallel(
      fresh,
      this.deps.timing.concurrency,
      (uid) => this.ingest(session, uid),
      () => this.stopping || session.closed,
    );
    this.highest = Math.max(this.highest, uids[uids.length - 1]);
  }

  /**
   * Documents committed but the action not recorded (crash, lost connection, a batch of
   * records not yet written): still in the folder, run the action again (all are idempotent);
   * gone from the folder, a move or delete evidently happened.
   */
  private async finishActions(session: ImapMailboxSession, listed: Set<number>): Promise<void> {
    const pending = await this.deps.messages.pendingActions(
      this.mailbox.id,
      session.folder,
      Number(session.uidValidity),
    );
    for (const r of pending) {
      if (this.stopping || session.closed) return;
      if (listed.has(Number(r.uid))) await applyAction(this.ingestDeps, this.ctx, session, Number(r.uid), r.id);
      else if (!r.action_error) this.actionsDone.push(r.id);
    }
  }

  private async retryDue(session: ImapMailboxSession): Promise<void> {
    const rows = await this.deps.messages.due(this.mailbox.id, session.folder, Number(session.uidValidity));
    for (const r of rows) {
      if (this.stopping || session.closed) return;
      let uid = Number(r.uid);
      if (r.moved_to) {
        const back = await this.moveBack(session, r);
        if (back === undefined) continue;
        uid = back;
      }
      const outcome = await this.ingest(session, uid);
      if (outcome === 'gone') await this.deps.messages.giveUp(r.id, 'message is no longer in the folder');
    }
  }

  /** A manual retry of a message parked in failed_folder: bring it back to the watched folder. */
  private async moveBack(session: ImapMailboxSession, r: MailMessageRow): Promise<number | undefined> {
    if (r.moved_uid === null) {
      await this.deps.messages.giveUp(
        r.id,
        `message is in ${r.moved_to} but its UID there is unknown; move it back to ${session.folder} by hand`,
      );
      return undefined;
    }
    let temp: ImapMailboxSession | undefined;
    try {
      temp = await this.open(r.moved_to!);
      const uid = await temp.move(Number(r.moved_uid), session.folder);
      if (uid === undefined) throw new Error('the server did not report the new UID');
      await this.deps.messages.relocate(r.id, {
        folder: session.folder,
        uidValidity: Number(session.uidValidity),
        uid,
      });
      // The main session must see the UID before acting on it.
      await session.listUids(Math.max(0, uid - 1));
      return uid;
    } catch (err) {
      if (isConnectionLoss(err) && session.closed) throw err;
      await this.deps.messages.giveUp(
        r.id,
        `could not move the message back from ${r.moved_to}: ${(err as Error).message}`,
      );
      return undefined;
    } finally {
      await temp?.close().catch(() => undefined);
    }
  }
}
