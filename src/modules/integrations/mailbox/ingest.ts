// Turns one IMAP message into documents: download, parse, claim its record, apply the rules,
// hand the files to document intake, record the outcome, and only then run the IMAP action.
// Every path ends in a recorded state (consumed, skipped or failed); only a lost connection
// escapes, so the runner can reconnect.
import type { ParsedMail } from 'mailparser';
import { PermanentError } from '../../../lib/errors.js';
import type { Logger } from '../../../lib/logger.js';
import type { Intake } from '../../documents/intake.js';
import { ImapConnectorError, MessageUnavailableError, type ImapMailboxSession } from './imap/index.js';
import {
  documentIdsOf,
  ingestMessageParts,
  parseMessage,
  type PartOutcome,
} from '../../documents/message-parts/index.js';
import { factsOf, messageMetadata } from './facts.js';
import type { MailboxRow, MailMessageRow } from './mailbox.types.js';
import type { MessageFacts, MessagesRepository } from './messages.repository.js';
import { checkMessage, type MailRuleConfig } from './rules/index.js';

export interface IngestDeps {
  messages: MessagesRepository;
  intake: Pick<Intake, 'fromBuffer'>;
  logger: Logger;
  /** This worker's claim token. */
  token: string;
  claimTtlMs: number;
  /** Delay before retry n (1-based) of a failed message; after the last one the failure is final. */
  retryDelaysMs: readonly number[];
  now: () => Date;
  /**
   * Records that the IMAP action succeeded. Default: an immediate write. The runner batches
   * these (the action is idempotent, so a batch lost in a crash only means running it again).
   */
  actionDone?: (recordId: string, action: string) => Promise<void>;
}

/** What a runner needs to know about its mailbox while processing. */
export interface MailboxContext {
  row: MailboxRow;
  rules: MailRuleConfig;
}

export type IngestOutcome = 'consumed' | 'skipped' | 'failed' | 'duplicate' | 'known' | 'busy' | 'gone';

/** True for errors meaning the IMAP connection is gone: the runner must reconnect. */
export function isConnectionLoss(err: unknown): boolean {
  return err instanceof ImapConnectorError && err.stage === 'connect';
}

export function rulesOf(m: MailboxRow): MailRuleConfig {
  return {
    allowedSenders: m.allowed_senders,
    subjectFilter: m.subject_filter,
    attachmentInclude: m.attachment_include,
    attachmentExclude: m.attachment_exclude,
    consume: m.consume,
    includeInline: m.include_inline,
    maxAgeDays: m.max_age_days,
  };
}

/** Runs the mailbox's after-processing action; a refusal is recorded, a lost connection thrown. */
export async function applyAction(
  deps: Pick<IngestDeps, 'messages' | 'logger' | 'actionDone'>,
  ctx: MailboxContext,
  session: ImapMailboxSession,
  uid: number,
  recordId: string,
): Promise<void> {
  const m = ctx.row;
  try {
    if (m.after_processing === 'move') await session.move(uid, m.processed_folder ?? 'Processed');
    else if (m.after_processing === 'mark_seen') await session.markSeen(uid);
    else if (m.after_processing === 'flag') await session.flag(uid);
    else await session.delete(uid);
    await (deps.actionDone ?? deps.messages.actionDone)(recordId, m.after_processing);
  } catch (err) {
    if (isConnectionLoss(err)) throw err;
    deps.logger.warn({ err, mailboxId: m.id, uid }, 'after-processing action failed');
    await deps.messages.actionFailed(recordId, m.after_processing, (err as Error).message);
  }
}

/** Hands the accepted files to intake through the path shared with the SMTP receiver. */
function deliver(
  deps: IngestDeps,
  ctx: MailboxContext,
  parsed: ParsedMail,
  raw: Buffer,
  facts: MessageFacts,
  row: MailMessageRow,
): Promise<PartOutcome[]> {
  const m = ctx.row;
  return ingestMessageParts(deps.intake, {
    parsed,
    raw,
    rules: ctx.rules,
    scope: { orgId: m.org_id, environment: m.environment },
    projectId: m.project_id,
    source: 'email',
    uploadedBy: null,
    metadataFor: (part) => ({
      ...messageMetadata(parsed, facts),
      mailbox_id: m.id,
      mailbox_message_id: row.id,
      part: part.kind,
    }),
    // A duplicate made from this very record is our own earlier, interrupted attempt.
    isOurs: (doc) => doc.source_metadata?.mailbox_message_id === row.id,
  });
}

async function recordFailure(
  deps: IngestDeps,
  ctx: MailboxContext,
  session: ImapMailboxSession,
  uid: number,
  row: MailMessageRow,
  err: unknown,
  parts?: PartOutcome[],
): Promise<IngestOutcome> {
  const attempts = row.attempts + 1;
  const final = err instanceof PermanentError || attempts > deps.retryDelaysMs.length;
  const next = final ? null : new Date(deps.now().getTime() + deps.retryDelaysMs[attempts - 1]);
  const reason = (err as Error).message || String(err);
  deps.logger.warn({ err, mailboxId: ctx.row.id, uid, attempts, final }, 'mail message failed');
  const done = await deps.messages.finish(row.id, deps.token, {
    status: 'failed',
    reason,
    attempts,
    nextAttemptAt: next,
    parts,
  });
  // Until the last attempt the message stays where it is (unseen) so the retry can read it.
  if (done && final && ctx.row.failed_folder) {
    const newUid = await session.move(uid, ctx.row.failed_folder);
    await deps.messages.setMoved(row.id, ctx.row.failed_folder, newUid ?? null);
  }
  return 'failed';
}

/** Processes the message at `uid` (under the session's current UIDVALIDITY). */
export async function ingestMessage(
  deps: IngestDeps,
  ctx: MailboxContext,
  session: ImapMailboxSession,
  uid: number,
): Promise<IngestOutcome> {
  const uidValidity = Number(session.uidValidity);
  const loc = { folder: session.folder, uidValidity, uid };
  let raw: Buffer;
  try {
    raw = await session.fetchRaw(uid);
  } catch (err) {
    if (!(err instanceof MessageUnavailableError)) throw err;
    if (err.reason === 'not_found') return 'gone';
    // Too large to download: recorded under a location-bound key (there is no Message-ID to read).
    const facts: MessageFacts = {
      messageKey: `too-large:${uidValidity}:${uid}`,
      messageId: null,
      sender: null,
      subject: null,
      sentAt: null,
      sizeBytes: err.size ?? null,
    };
    const claim = await deps.messages.claim(ctx.row.id, loc, facts, deps.token, deps.claimTtlMs, deps.now());
    if (claim.kind !== 'claimed') return claim.kind;
    return recordFailure(deps, ctx, session, uid, claim.row, new PermanentError('TOO_LARGE', err.message));
  }
  const { parsed, error } = await parseMessage(raw);
  const facts = factsOf(parsed, raw);
  const claim = await deps.messages.claim(ctx.row.id, loc, facts, deps.token, deps.claimTtlMs, deps.now());
  if (claim.kind === 'duplicate') {
    // A second copy of consumed mail is tidied away like the original was.
    if (claim.of.status === 'consumed') await applyAction(deps, ctx, session, uid, claim.row.id);
    return 'duplicate';
  }
  if (claim.kind !== 'claimed') return claim.kind;
  const row = claim.row;
  let parts: PartOutcome[] | undefined;
  try {
    // The bytes are what they are: no retry can fix them.
    if (!parsed) throw new PermanentError('UNPARSEABLE', error ?? 'message could not be parsed');
    const verdict = checkMessage(parsed, ctx.rules, deps.now());
    if (!verdict.ok) {
      // Mail the rules do not want is left untouched in the folder (it may be someone's mail).
      await deps.messages.finish(row.id, deps.token, { status: 'skipped', reason: verdict.reason, parts: [] });
      return 'skipped';
    }
    parts = await deliver(deps, ctx, parsed, raw, facts, row);
    const documentIds = documentIdsOf(parts);
    if (documentIds.length === 0) {
      const reason = parts.length === 0 ? 'no_attachments' : 'no_acceptable_attachments';
      await deps.messages.finish(row.id, deps.token, { status: 'skipped', reason, parts });
      return 'skipped';
    }
    const done = await deps.messages.finish(row.id, deps.token, {
      status: 'consumed',
      parts,
      documentIds,
      action: ctx.row.after_processing,
    });
    // Claim lost (another worker took over after our claim lapsed): it decides the action.
    if (!done) return 'busy';
    // The action comes strictly after the documents and the record are committed.
    await applyAction(deps, ctx, session, uid, row.id);
    return 'consumed';
  } catch (err) {
    if (isConnectionLoss(err)) {
      await deps.messages.release(row.id, deps.token).catch(() => undefined);
      throw err;
    }
    return recordFailure(deps, ctx, session, uid, row, err, parts);
  }
}
