// An uploaded e-mail (.eml) is handled like mail intake: its attachments become documents of
// their own through the same ingestMessageParts a mailbox uses (inline images, signatures,
// fragments, empty parts and TNEF skipped; uuencoded files decoded; names sanitised and made
// unique; the same intake type, size and duplicate checks). The message stays a document
// whose text is the message itself; every attachment document names it in its source metadata.
import { MIME, sniffType } from '../../pipeline/parse/sniff.js';
import type { DocumentRow } from './documents.types.js';
import type { Intake } from './intake.js';
import {
  ingestMessageParts,
  parseMessage,
  senderOf,
  type AcceptedPart,
  type PartOutcome,
} from './message-parts/index.js';

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
  const { parsed } = await parseMessage(raw);
  // The message text was read by the parser already; attachments it cannot reach are none.
  if (!parsed) return [];
  const depth = attachmentDepth(parent) + 1;
  const budget = attachmentBudget(parent);
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
  let share: number | undefined;
  const isMessage = (p: AcceptedPart): boolean => sniffType(p.content, p.filename)?.mime === MIME.eml;
  return ingestMessageParts(deps.intake, {
    parsed,
    rules: { consume: 'attachments', includeInline: false, maxPartsPerMessage: budget },
    scope: { orgId: parent.org_id, environment: parent.environment },
    projectId: parent.project_id,
    source: parent.source,
    uploadedBy: parent.uploaded_by ?? null,
    refuseAll: depth > MAX_ATTACHMENT_DEPTH ? 'nested_too_deep' : undefined,
    // A nested message gets an equal share of what the budget leaves after this message's parts.
    metadataFor: (part, taken) => {
      if (!isMessage(part)) return sourceMetadata;
      share ??= Math.floor((budget - taken.length) / taken.filter(isMessage).length);
      return { ...sourceMetadata, attachment_budget: share };
    },
    // A duplicate made from this very parent is our own earlier, interrupted attempt.
    isOurs: (doc) => doc.source_metadata?.parent_document_id === parent.id,
    // The project went away or was archived while the message was parsed.
    projectGone: 'skip',
  });
}
