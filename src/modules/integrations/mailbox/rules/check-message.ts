import type { ParsedMail } from 'mailparser';
import { senderOf } from '../../../documents/message-parts/index.js';
import { messageTooOld } from './age.js';
import { matchesSender } from './sender.js';
import { compileSubjectFilter, InvalidSubjectFilterError } from './subject.js';
import type { MailRuleConfig } from './types.js';

export type MessageRejection = 'sender_not_allowed' | 'subject_not_matched' | 'too_old';

/**
 * Message-level filters, in the order a user would reason about them. `date` defaults to the
 * message's Date header; pass the IMAP internal date when the header is missing or untrusted.
 */
export function checkMessage(
  parsed: Pick<ParsedMail, 'from' | 'subject' | 'date'>,
  cfg: MailRuleConfig,
  now: Date,
  date: Date | undefined = parsed.date,
): { ok: true } | { ok: false; reason: MessageRejection } {
  if (!matchesSender(senderOf(parsed), cfg.allowedSenders)) return { ok: false, reason: 'sender_not_allowed' };
  if (!subjectMatches(cfg.subjectFilter, parsed.subject)) return { ok: false, reason: 'subject_not_matched' };
  if (messageTooOld(date, cfg.maxAgeDays, now)) return { ok: false, reason: 'too_old' };
  return { ok: true };
}

/**
 * A filter saved before patterns had to fit the linear-time engine may no longer compile:
 * it then matches nothing (the message is skipped and left in the folder) rather than failing
 * the whole poll; saving the mailbox settings again reports the reason.
 */
function subjectMatches(filter: string | null | undefined, subject: string | undefined): boolean {
  try {
    return compileSubjectFilter(filter)(subject);
  } catch (err) {
    if (err instanceof InvalidSubjectFilterError) return false;
    throw err;
  }
}
