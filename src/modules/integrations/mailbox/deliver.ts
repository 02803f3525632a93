// The one path from a received message to documents, shared by the IMAP poller and the SMTP
// receiver: parse, identify (Message-ID, else a hash of the bytes), select parts by the rules,
// and hand each file to document intake. Per-file refusals (type, size, empty) become skipped
// parts; anything else (project gone, database down) is thrown for the caller to decide.
import { createHash } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import {
  PayloadTooLargeError,
  PermanentError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../../lib/errors.js';
import type { Scope } from '../../../lib/scope.js';
import type { DocumentRow } from '../../documents/documents.types.js';
import type { Intake } from '../../documents/intake.js';
import type { PartOutcome } from './mailbox.types.js';
import type { MessageFacts } from './messages.repository.js';
import { selectParts, senderOf, type AcceptedPart, type MailRuleConfig } from './rules/index.js';

const PARSE_OPTIONS = {
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipImageLinks: true,
  skipTextLinks: true,
} as const;

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

export async function parseMessage(raw: Buffer): Promise<{ parsed: ParsedMail | null; error?: string }> {
  try {
    return { parsed: await simpleParser(raw, PARSE_OPTIONS) };
  } catch (err) {
    return { parsed: null, error: `message could not be parsed: ${(err as Error).message}` };
  }
}

function isTnef(p: AcceptedPart): boolean {
  return p.kind === 'attachment' && (p.contentType === 'application/ms-tnef' || /^winmail\.dat$/i.test(p.filename));
}

export interface DeliverInput {
  parsed: ParsedMail;
  raw: Buffer;
  facts: MessageFacts;
  rules: MailRuleConfig;
  scope: Scope;
  projectId: string;
  /** Written on every document made (the part's kind is added). */
  sourceMetadata: Record<string, unknown>;
  /** True when an existing duplicate was made by an earlier, interrupted attempt at this very message. */
  isOurs(doc: DocumentRow): boolean;
}

/** Hands the accepted files to intake; returns one outcome per part (created, duplicate or skipped). */
export async function deliverParts(intake: Pick<Intake, 'fromBuffer'>, input: DeliverInput): Promise<PartOutcome[]> {
  let selection;
  try {
    selection = selectParts(input.parsed, input.rules, { raw: input.raw });
  } catch (err) {
    throw new PermanentError('UNREADABLE_PARTS', `message parts could not be read: ${(err as Error).message}`);
  }
  const out: PartOutcome[] = [];
  for (const part of selection.accepted) {
    const base = { filename: part.filename, content_type: part.contentType, size_bytes: part.size };
    if (isTnef(part)) {
      out.push({ ...base, outcome: 'skipped', reason: 'tnef_not_supported' });
      continue;
    }
    try {
      const res = await intake.fromBuffer(part.content, {
        scope: input.scope,
        projectId: input.projectId,
        filename: part.filename,
        source: 'email',
        sourceMetadata: { ...input.sourceMetadata, part: part.kind },
        uploadedBy: null,
      });
      const ours = res.kind === 'created' || input.isOurs(res.document);
      out.push({ ...base, outcome: ours ? 'created' : 'duplicate', document_id: res.document.id });
    } catch (err) {
      if (err instanceof UnsupportedMediaTypeError)
        out.push({ ...base, outcome: 'skipped', reason: 'type_not_allowed' });
      else if (err instanceof PayloadTooLargeError) out.push({ ...base, outcome: 'skipped', reason: 'too_large' });
      else if (err instanceof ValidationError) out.push({ ...base, outcome: 'skipped', reason: 'empty' });
      // Project missing or archived: worth retrying later (it may be restored).
      else throw err;
    }
  }
  for (const s of selection.skipped)
    out.push({
      filename: s.filename,
      content_type: s.contentType,
      size_bytes: s.size,
      outcome: 'skipped',
      reason: s.reason,
    });
  return out;
}

/** The document ids a delivery made or found, each once. */
export function documentIdsOf(parts: PartOutcome[]): string[] {
  return [...new Set(parts.flatMap((p) => (p.document_id ? [p.document_id] : [])))];
}
