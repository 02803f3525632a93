// An uploaded e-mail (.eml) is handled like mail intake: its attachments become documents of
// their own, chosen by the same part selection a mailbox uses (inline images, signatures,
// fragments and empty parts skipped; uuencoded files decoded; names sanitised and made unique)
// and handed to the same intake (type, size and duplicate checks). The message stays a document
// whose text is the message itself; every attachment document names it in its source metadata.
import { simpleParser } from 'mailparser';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../lib/errors.js';
import { MIME, sniffType } from '../../pipeline/parse/sniff.js';
import { selectParts, senderOf, type AcceptedPart } from '../integrations/mailbox/rules/index.js';
import type { PartOutcome } from '../integrations/mailbox/mailbox.types.js';
import type { DocumentRow } from './documents.types.js';
import type { Intake } from './intake.js';

/**
 * Messages inside messages inside messages: an attached .eml is itself a message whose
 * attachments are taken, down to this depth. Deeper ones stay single documents, so a message
 * nested a thousand times over cannot fan out into a thousand documents.
 */
export const MAX_ATTACHMENT_DEPTH = 3;

/**
 * Documents one uploaded message may turn into, nested messages' attachments included: a
 * message takes at most its budget of attachments (the rest are skipped `too_many`, as in mail
 * intake) and shares what is left between the messages among them. The bound depends only on
 * the bytes, so it holds however the nested messages are scheduled, and a re-run takes the same
 * parts again.
 */
export const ATTACHMENT_BUDGET = 100;

const PARSE_OPTIONS = {
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipImageLinks: true,
  skipTextLinks: true,
} as const;

function isTnef(p: AcceptedPart): boolean {
  return p.contentType === 'application/ms-tnef' || /^winmail\.dat$/i.test(p.filename);
}

/**
 * A header value as stored: control characters dropped (an encoded word can decode to NUL,
 * which PostgreSQL's jsonb refuses), null when nothing is left.
 */
function headerText(v: string | undefined | null): string | null {
  const s = (v ?? '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trim();
  return s || null;
}

type Parent = Pick<
  DocumentRow,
  'id' | 'org_id' | 'environment' | 'project_id' | 'source' | 'source_metadata' | 'uploaded_by'
>;

/** Attachments this message may still make into documents (its share of the upload's budget). */
export function attachmentBudget(doc: Pick<DocumentRow, 'source_metadata'>): number {
  const b = doc.source_metadata?.attachment_budget;
  return typeof b === 'number' && Number.isInteger(b) && b >= 0
    ? Math.min(b, ATTACHMENT_BUDGET)
    : attachmentDepth(doc) === 0
      ? ATTACHMENT_BUDGET
      : 0;
}

/** How deep in a chain of attached messages a document sits (0: uploaded itself). */
export function attachmentDepth(doc: Pick<DocumentRow, 'source_metadata'>): number {
  const d = doc.source_metadata?.attachment_depth;
  return typeof d === 'number' && Number.isInteger(d) && d >= 0 ? d : 0;
}

/**
 * Creates a document for every attachment of the message `raw` (the parent document's file).
 * Idempotent: a retried parse finds the documents it made before (same bytes in the project,
 * made from this parent) and reports them as created again. Returns one outcome per part.
 */
export async function createAttachmentDocuments(
  deps: { intake: Pick<Intake, 'fromBuffer'> },
  parent: Parent,
  raw: Buffer,
): Promise<PartOutcome[]> {
  let parsed;
  try {
    parsed = await simpleParser(raw, PARSE_OPTIONS);
  } catch {
    // The message text was read by the parser already; attachments it cannot reach are none.
    return [];
  }
  const depth = attachmentDepth(parent) + 1;
  const budget = attachmentBudget(parent);
  const selection = selectParts(parsed, { consume: 'attachments', includeInline: false, maxPartsPerMessage: budget });
  const taken = depth > MAX_ATTACHMENT_DEPTH ? [] : selection.accepted.filter((p) => !isTnef(p));
  const messages = taken.filter((p) => sniffType(p.content, p.filename)?.mime === MIME.eml).length;
  const share = messages > 0 ? Math.floor((budget - taken.length) / messages) : 0;
  const sourceMetadata = {
    parent_document_id: parent.id,
    attachment_depth: depth,
    sender: headerText(senderOf(parsed)),
    sender_name: headerText(parsed.from?.value?.[0]?.name),
    subject: headerText(parsed.subject?.slice(0, 1000)),
    message_id: headerText(parsed.messageId),
    date: parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.toISOString() : null,
    part: 'attachment',
  };
  const out: PartOutcome[] = [];
  for (const part of selection.accepted) {
    const base = { filename: part.filename, content_type: part.contentType, size_bytes: part.size };
    if (depth > MAX_ATTACHMENT_DEPTH) {
      out.push({ ...base, outcome: 'skipped', reason: 'nested_too_deep' });
      continue;
    }
    if (isTnef(part)) {
      out.push({ ...base, outcome: 'skipped', reason: 'tnef_not_supported' });
      continue;
    }
    const isMessage = sniffType(part.content, part.filename)?.mime === MIME.eml;
    try {
      const res = await deps.intake.fromBuffer(part.content, {
        scope: { orgId: parent.org_id, environment: parent.environment },
        projectId: parent.project_id,
        filename: part.filename,
        source: parent.source,
        sourceMetadata: isMessage ? { ...sourceMetadata, attachment_budget: share } : sourceMetadata,
        uploadedBy: parent.uploaded_by ?? null,
      });
      // A duplicate made from this very parent is our own earlier, interrupted attempt.
      const ours = res.kind === 'created' || res.document.source_metadata?.parent_document_id === parent.id;
      out.push({ ...base, outcome: ours ? 'created' : 'duplicate', document_id: res.document.id });
    } catch (err) {
      const reason =
        err instanceof UnsupportedMediaTypeError
          ? 'type_not_allowed'
          : err instanceof PayloadTooLargeError
            ? 'too_large'
            : err instanceof ValidationError
              ? 'empty'
              : // The project went away or was archived while the message was parsed.
                err instanceof NotFoundError || err instanceof ConflictError
                ? 'project_unavailable'
                : null;
      if (!reason) throw err;
      out.push({ ...base, outcome: 'skipped', reason });
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
