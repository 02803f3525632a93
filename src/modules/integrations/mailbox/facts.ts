// What identifies a received message (Message-ID, else a hash of the bytes) and describes it,
// shared by the IMAP poller and the SMTP receiver.
import { createHash } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { senderOf } from '../../documents/message-parts/index.js';
import type { MessageFacts } from './messages.repository.js';

/** Message-ID from the raw header block, for mail mailparser cannot read. */
function rawMessageId(raw: Buffer): string | null {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, end === -1 ? Math.min(raw.length, 65_536) : end).toString('latin1');
  const m = /^message-id:[ \t]*(.+(?:\r?\n[ \t].+)*)/im.exec(head);
  return m ? m[1].replace(/\s+/g, ' ').trim() : null;
}

/** What identifies and describes a message (all optional but the key: mail can lack any header). */
export function factsOf(parsed: ParsedMail | null, raw: Buffer): MessageFacts {
  const messageId = (parsed?.messageId ?? rawMessageId(raw))?.trim() || null;
  const sentAt = parsed?.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date : null;
  return {
    messageKey: messageId
      ? `mid:${messageId.replace(/^<|>$/g, '')}`
      : `sha256:${createHash('sha256').update(raw).digest('hex')}`,
    messageId,
    sender: parsed ? senderOf(parsed) || null : null,
    subject: parsed?.subject?.slice(0, 1000) ?? null,
    sentAt,
    sizeBytes: raw.length,
  };
}

/** Source metadata every document made from a received message carries. */
export function messageMetadata(parsed: ParsedMail, facts: MessageFacts): Record<string, unknown> {
  return {
    sender: facts.sender,
    sender_name: parsed.from?.value?.[0]?.name || null,
    subject: facts.subject,
    message_id: facts.messageId,
    date: facts.sentAt?.toISOString() ?? null,
  };
}
