import type { Db, Queryable } from '../../../db/client.js';
import { newId } from '../../../lib/ids.js';
import type { PartOutcome } from '../../documents/message-parts/index.js';
import type { ListMessagesQuery, MailMessageRow } from './mailbox.types.js';

/** Where IMAP says a message is. */
export interface MessageLocation {
  folder: string;
  uidValidity: number;
  uid: number;
}

/** Header facts recorded with the message (all optional: mail can lack any of them). */
export interface MessageFacts {
  messageKey: string;
  messageId: string | null;
  sender: string | null;
  subject: string | null;
  sentAt: Date | null;
  sizeBytes: number | null;
}

export type ClaimResult =
  /** This worker now owns the message until `claimed_until`. */
  | { kind: 'claimed'; row: MailMessageRow }
  /** Already recorded and not due: nothing to do (a consumed one may still need its action). */
  | { kind: 'known'; row: MailMessageRow }
  /** A second copy of a message recorded before; recorded as skipped. */
  | { kind: 'duplicate'; row: MailMessageRow; of: MailMessageRow }
  /** Someone else is processing it right now. */
  | { kind: 'busy' };

export interface FinishPatch {
  status: 'consumed' | 'skipped' | 'failed';
  reason?: string | null;
  parts?: PartOutcome[];
  documentIds?: string[];
  attempts?: number;
  nextAttemptAt?: Date | null;
  action?: string | null;
}

const STATUS_RANK: Record<string, number> = { consumed: 0, processing: 1, failed: 2, skipped: 3 };

/** True when a record may be (re)processed now: due for retry, or claimed by a worker whose claim lapsed. */
export function claimable(r: Pick<MailMessageRow, 'status' | 'next_attempt_at' | 'claimed_until'>, now: Date): boolean {
  if (r.status === 'processing') return !r.claimed_until || r.claimed_until.getTime() <= now.getTime();
  if (r.status === 'failed' || r.status === 'skipped')
    return r.next_attempt_at !== null && r.next_attempt_at.getTime() <= now.getTime();
  return false;
}

const isUniqueViolation = (err: unknown): boolean => (err as { code?: string }).code === '23505';

export function createMessagesRepository(db: Db) {
  const takeClaim = async (
    q: Queryable,
    id: string,
    token: string,
    until: Date,
    loc?: MessageLocation,
  ): Promise<MailMessageRow> => {
    const { rows } = await q.query<MailMessageRow>(
      `UPDATE mail_messages SET status = 'processing', claimed_by = $2, claimed_until = $3,
         folder = coalesce($4, folder), uid_validity = coalesce($5, uid_validity), uid = coalesce($6, uid), updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, token, until, loc?.folder ?? null, loc?.uidValidity ?? null, loc?.uid ?? null],
    );
    return rows[0];
  };

  const insert = async (
    q: Queryable,
    mailboxId: string,
    loc: MessageLocation,
    f: MessageFacts,
    extra: Record<string, unknown>,
  ): Promise<MailMessageRow> => {
    const base: Record<string, unknown> = {
      id: newId('msg'),
      mailbox_id: mailboxId,
      folder: loc.folder,
      uid_validity: loc.uidValidity,
      uid: loc.uid,
      message_key: f.messageKey,
      message_id: f.messageId,
      sender: f.sender,
      subject: f.subject,
      sent_at: f.sentAt,
      size_bytes: f.sizeBytes,
      ...extra,
    };
    const cols = Object.keys(base);
    const { rows } = await q.query<MailMessageRow>(
      `INSERT INTO mail_messages (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
      cols.map((c) => base[c]),
    );
    return rows[0];
  };

  return {
    /** Records of the listed UIDs (one query per scan, so known mail is never downloaded again). */
    async byLocation(
      mailboxId: string,
      folder: string,
      uidValidity: number,
      uids: number[],
    ): Promise<Map<number, MailMessageRow>> {
      if (uids.length === 0) return new Map();
      const { rows } = await db.query<MailMessageRow>(
        'SELECT * FROM mail_messages WHERE mailbox_id = $1 AND folder = $2 AND uid_validity = $3 AND uid = ANY($4::bigint[])',
        [mailboxId, folder, uidValidity, uids],
      );
      return new Map(rows.map((r) => [Number(r.uid), r]));
    },

    /**
     * Decides, atomically, who handles the message at `loc` with identity `facts.messageKey`:
     * - location recorded: claim it when it is due (failed/skipped with next_attempt_at passed, or
     *   a lapsed claim of a crashed worker), else report it as known;
     * - the same message recorded at a location that is no longer valid (UIDVALIDITY changed):
     *   that record moves to the new location (one record per message, never a second consumption);
     * - a second copy next to a consumed/in-progress one: recorded as a skipped duplicate;
     * - otherwise a new record, claimed.
     * The partial unique index on (mailbox, message_key) for processing/consumed rows backs this
     * up against races; a violation means someone else got there first (`busy`).
     */
    async claim(
      mailboxId: string,
      loc: MessageLocation,
      facts: MessageFacts,
      token: string,
      claimTtlMs: number,
      now = new Date(),
    ): Promise<ClaimResult> {
      const until = new Date(now.getTime() + claimTtlMs);
      // Fast path, one statement: mail never seen before (neither its location nor its key).
      // Anything else, or a race lost on a unique index, goes through the careful path below.
      const fresh = await db.query<MailMessageRow>(
        `INSERT INTO mail_messages (id, mailbox_id, folder, uid_validity, uid, message_key, message_id, sender, subject, sent_at, size_bytes,
           status, claimed_by, claimed_until)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'processing', $12, $13
         WHERE NOT EXISTS (SELECT 1 FROM mail_messages WHERE mailbox_id = $2 AND message_key = $6)
         ON CONFLICT DO NOTHING RETURNING *`,
        [
          newId('msg'),
          mailboxId,
          loc.folder,
          loc.uidValidity,
          loc.uid,
          facts.messageKey,
          facts.messageId,
          facts.sender,
          facts.subject,
          facts.sentAt,
          facts.sizeBytes,
          token,
          until,
        ],
      );
      if (fresh.rows[0]) return { kind: 'claimed', row: fresh.rows[0] };
      try {
        return await db.tx(async (q): Promise<ClaimResult> => {
          const at = await q.query<MailMessageRow>(
            'SELECT * FROM mail_messages WHERE mailbox_id = $1 AND folder = $2 AND uid_validity = $3 AND uid = $4 FOR UPDATE',
            [mailboxId, loc.folder, loc.uidValidity, loc.uid],
          );
          const here = at.rows[0];
          if (here) {
            if (!claimable(here, now)) return { kind: 'known', row: here };
            const other = await q.query<MailMessageRow>(
              `SELECT * FROM mail_messages WHERE mailbox_id = $1 AND message_key = $2 AND id <> $3 AND status IN ('processing', 'consumed')`,
              [mailboxId, here.message_key, here.id],
            );
            const twin = other.rows[0];
            if (twin?.status === 'consumed') {
              // Retrying a copy of mail consumed meanwhile: it is a duplicate now, not a retry.
              const dup = await q.query<MailMessageRow>(
                `UPDATE mail_messages SET status = 'skipped', reason = 'duplicate', duplicate_of = $2, next_attempt_at = NULL,
                   claimed_by = NULL, claimed_until = NULL, processed_at = $3, updated_at = now() WHERE id = $1 RETURNING *`,
                [here.id, twin.id, now],
              );
              return { kind: 'duplicate', row: dup.rows[0], of: twin };
            }
            if (twin) return { kind: 'busy' };
            return { kind: 'claimed', row: await takeClaim(q, here.id, token, until) };
          }
          const same = await q.query<MailMessageRow>(
            'SELECT * FROM mail_messages WHERE mailbox_id = $1 AND message_key = $2 FOR UPDATE',
            [mailboxId, facts.messageKey],
          );
          const prev = same.rows.sort(
            (a, b) => STATUS_RANK[a.status] - STATUS_RANK[b.status] || b.created_at.getTime() - a.created_at.getTime(),
          )[0];
          if (!prev)
            return {
              kind: 'claimed',
              row: await insert(q, mailboxId, loc, facts, {
                status: 'processing',
                claimed_by: token,
                claimed_until: until,
              }),
            };
          const stale = prev.folder === loc.folder && Number(prev.uid_validity) !== loc.uidValidity && !prev.moved_to;
          if (stale) {
            // The folder was renumbered: this is the same mail, not new mail.
            if (claimable(prev, now)) return { kind: 'claimed', row: await takeClaim(q, prev.id, token, until, loc) };
            const moved = await q.query<MailMessageRow>(
              'UPDATE mail_messages SET uid_validity = $2, uid = $3, updated_at = now() WHERE id = $1 RETURNING *',
              [prev.id, loc.uidValidity, loc.uid],
            );
            return { kind: 'known', row: moved.rows[0] };
          }
          if (prev.status === 'processing' && !claimable(prev, now)) return { kind: 'busy' };
          if (prev.status === 'consumed' || prev.status === 'processing') {
            const row = await insert(q, mailboxId, loc, facts, {
              status: 'skipped',
              reason: 'duplicate',
              duplicate_of: prev.id,
              processed_at: now,
            });
            return { kind: 'duplicate', row, of: prev };
          }
          // A copy of a failed or skipped message is judged on its own.
          return {
            kind: 'claimed',
            row: await insert(q, mailboxId, loc, facts, {
              status: 'processing',
              claimed_by: token,
              claimed_until: until,
            }),
          };
        });
      } catch (err) {
        if (isUniqueViolation(err)) return { kind: 'busy' };
        throw err;
      }
    },

    /** Records the outcome; returns null when the claim was lost meanwhile (another worker took over). */
    async finish(id: string, token: string, p: FinishPatch): Promise<MailMessageRow | null> {
      const { rows } = await db.query<MailMessageRow>(
        `UPDATE mail_messages SET status = $3, reason = $4, parts = coalesce($5::jsonb, parts), document_ids = coalesce($6::jsonb, document_ids),
           attempts = coalesce($7, attempts), next_attempt_at = $8, action = coalesce($9, action),
           claimed_by = NULL, claimed_until = NULL, processed_at = now(), updated_at = now()
         WHERE id = $1 AND claimed_by = $2 AND status = 'processing' RETURNING *`,
        [
          id,
          token,
          p.status,
          p.reason ?? null,
          p.parts ? JSON.stringify(p.parts) : null,
          p.documentIds ? JSON.stringify(p.documentIds) : null,
          p.attempts ?? null,
          p.nextAttemptAt ?? null,
          p.action ?? null,
        ],
      );
      return rows[0] ?? null;
    },

    /** Gives a claim back at once (connection lost mid-message): the next scan takes it again. */
    async release(id: string, token: string): Promise<void> {
      await db.query(
        `UPDATE mail_messages SET claimed_until = now(), updated_at = now() WHERE id = $1 AND claimed_by = $2 AND status = 'processing'`,
        [id, token],
      );
    },

    async actionDone(id: string, action: string): Promise<void> {
      await db.query(
        'UPDATE mail_messages SET action = $2, action_done_at = now(), action_error = NULL, updated_at = now() WHERE id = $1',
        [id, action],
      );
    },

    /** Consumed records in this folder whose IMAP action has not been recorded as done. */
    async pendingActions(mailboxId: string, folder: string, uidValidity: number): Promise<MailMessageRow[]> {
      const { rows } = await db.query<MailMessageRow>(
        `SELECT * FROM mail_messages WHERE mailbox_id = $1 AND folder = $2 AND uid_validity = $3 AND status = 'consumed' AND action_done_at IS NULL ORDER BY uid`,
        [mailboxId, folder, uidValidity],
      );
      return rows;
    },

    /** {@link actionDone} for many records at once. */
    async actionsDone(ids: string[], action: string): Promise<void> {
      if (ids.length === 0) return;
      await db.query(
        'UPDATE mail_messages SET action = $2, action_done_at = now(), action_error = NULL, updated_at = now() WHERE id = ANY($1::text[])',
        [ids, action],
      );
    },

    async actionFailed(id: string, action: string, message: string): Promise<void> {
      await db.query('UPDATE mail_messages SET action = $2, action_error = $3, updated_at = now() WHERE id = $1', [
        id,
        action,
        message,
      ]);
    },

    async setMoved(id: string, folder: string | null, uid: number | null): Promise<void> {
      await db.query('UPDATE mail_messages SET moved_to = $2, moved_uid = $3, updated_at = now() WHERE id = $1', [
        id,
        folder,
        uid,
      ]);
    },

    /** After a failed message was moved back from failed_folder: it lives at `loc` again. */
    async relocate(id: string, loc: MessageLocation): Promise<void> {
      await db.query(
        'UPDATE mail_messages SET folder = $2, uid_validity = $3, uid = $4, moved_to = NULL, moved_uid = NULL, updated_at = now() WHERE id = $1',
        [id, loc.folder, loc.uidValidity, loc.uid],
      );
    },

    /** Stops retrying a due record (its message is gone or cannot be brought back), saying why. */
    async giveUp(id: string, reason: string): Promise<void> {
      await db.query(
        `UPDATE mail_messages SET status = CASE WHEN status = 'processing' THEN 'failed' ELSE status END, reason = $2,
           next_attempt_at = NULL, claimed_by = NULL, claimed_until = NULL, updated_at = now() WHERE id = $1`,
        [id, reason],
      );
    },

    /**
     * Records due now in this folder under the current UIDVALIDITY (those under an old one are
     * found again, by message key, by the next full scan), plus failed ones parked in a folder.
     */
    async due(mailboxId: string, folder: string, uidValidity: number, now = new Date()): Promise<MailMessageRow[]> {
      const { rows } = await db.query<MailMessageRow>(
        `SELECT * FROM mail_messages WHERE mailbox_id = $1
           AND ((status IN ('failed', 'skipped') AND next_attempt_at <= $4) OR (status = 'processing' AND claimed_until <= $4))
           AND ((folder = $2 AND uid_validity = $3) OR moved_to IS NOT NULL)
         ORDER BY uid LIMIT 500`,
        [mailboxId, folder, uidValidity, now],
      );
      return rows;
    },

    /** When the next record of this mailbox becomes due (same selection as {@link due}). */
    async nextDueAt(mailboxId: string, folder: string, uidValidity: number): Promise<Date | null> {
      const { rows } = await db.query<{ at: Date | null }>(
        `SELECT min(CASE WHEN status = 'processing' THEN claimed_until ELSE next_attempt_at END) AS at FROM mail_messages
         WHERE mailbox_id = $1 AND ((status IN ('failed', 'skipped') AND next_attempt_at IS NOT NULL) OR status = 'processing')
           AND ((folder = $2 AND uid_validity = $3) OR moved_to IS NOT NULL)`,
        [mailboxId, folder, uidValidity],
      );
      return rows[0]?.at ?? null;
    },

    async list(mailboxId: string, query: ListMessagesQuery): Promise<{ rows: MailMessageRow[]; total: number }> {
      const params: unknown[] = [mailboxId];
      let where = 'mailbox_id = $1';
      if (query.status) {
        params.push(query.status);
        where += ` AND status = $${params.length}`;
      }
      const [page, count] = await Promise.all([
        db.query<MailMessageRow>(
          `SELECT * FROM mail_messages WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, query.limit, query.offset],
        ),
        db.query<{ n: number }>(`SELECT count(*) AS n FROM mail_messages WHERE ${where}`, params),
      ]);
      return { rows: page.rows, total: count.rows[0].n };
    },

    async get(mailboxId: string, id: string): Promise<MailMessageRow | null> {
      const { rows } = await db.query<MailMessageRow>('SELECT * FROM mail_messages WHERE mailbox_id = $1 AND id = $2', [
        mailboxId,
        id,
      ]);
      return rows[0] ?? null;
    },

    /** Makes a failed or skipped (non-duplicate) record due now; null when it is not retryable. */
    async requestRetry(mailboxId: string, id: string): Promise<MailMessageRow | null> {
      const { rows } = await db.query<MailMessageRow>(
        `UPDATE mail_messages SET next_attempt_at = now(), updated_at = now()
         WHERE mailbox_id = $1 AND id = $2 AND status IN ('failed', 'skipped') AND duplicate_of IS NULL RETURNING *`,
        [mailboxId, id],
      );
      return rows[0] ?? null;
    },
  };
}

export type MessagesRepository = ReturnType<typeof createMessagesRepository>;
