// The one path from a message's parts to documents, shared by every way mail arrives: the IMAP
// poller, the SMTP receiver and an uploaded .eml (whose attachments become documents of their
// own). It selects the parts by the rules, and hands each file to document intake. Per-file
// refusals (type, size, empty, TNEF) become skipped parts; anything else (project gone,
// database down) is thrown for the caller to decide, unless the caller asks for a gone project
// to be a skipped part too.
import type { ParsedMail } from 'mailparser';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  PermanentError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../../lib/errors.js';
import type { Scope } from '../../../lib/scope.js';
import type { DocumentRow } from '../documents.types.js';
import type { Intake } from '../intake.js';
import { selectParts } from './select-parts.js';
import type { AcceptedPart, PartRules } from './types.js';

/** What happened to one file of a message. */
export interface PartOutcome {
  filename: string;
  content_type: string;
  size_bytes: number;
  /** created: a new document; duplicate: the project already had these bytes; skipped: see reason. */
  outcome: 'created' | 'duplicate' | 'skipped';
  reason?: string;
  document_id?: string;
}

/** winmail.dat: Outlook's wrapper format, which nothing downstream can read. */
export function isTnef(p: AcceptedPart): boolean {
  return p.kind === 'attachment' && (p.contentType === 'application/ms-tnef' || /^winmail\.dat$/i.test(p.filename));
}

export interface IngestPartsInput {
  parsed: ParsedMail;
  /** The raw message bytes; needed when the rules take the whole message (`consume` eml or both). */
  raw?: Buffer;
  rules: PartRules;
  scope: Scope;
  projectId: string;
  source: DocumentRow['source'];
  uploadedBy: string | null;
  /**
   * The source metadata of the document made from `part`. `taken` lists every part that will
   * be handed to intake (accepted, not TNEF), for callers that share something out among them.
   */
  metadataFor(part: AcceptedPart, taken: readonly AcceptedPart[]): Record<string, unknown>;
  /** True when an existing duplicate was made by an earlier, interrupted attempt at this very message. */
  isOurs(doc: DocumentRow): boolean;
  /** Set when no part may become a document (a message nested too deep): each is skipped with this reason. */
  refuseAll?: string;
  /**
   * A project archived or deleted meanwhile: `throw` (default) leaves the decision to the caller
   * (mail is retried later, the project may come back); `skip` records `project_unavailable`.
   */
  projectGone?: 'throw' | 'skip';
}

function refusalOf(err: unknown, projectGone: 'throw' | 'skip'): string | null {
  if (err instanceof UnsupportedMediaTypeError) return 'type_not_allowed';
  if (err instanceof PayloadTooLargeError) return 'too_large';
  if (err instanceof ValidationError) return 'empty';
  if (projectGone === 'skip' && (err instanceof NotFoundError || err instanceof ConflictError))
    return 'project_unavailable';
  return null;
}

/** Hands the accepted files to intake; returns one outcome per part (created, duplicate or skipped). */
export async function ingestMessageParts(
  intake: Pick<Intake, 'fromBuffer'>,
  input: IngestPartsInput,
): Promise<PartOutcome[]> {
  let selection;
  try {
    selection = selectParts(input.parsed, input.rules, { raw: input.raw });
  } catch (err) {
    // The bytes are what they are: no retry can make these parts readable.
    throw new PermanentError('UNREADABLE_PARTS', `message parts could not be read: ${(err as Error).message}`);
  }
  const taken = input.refuseAll ? [] : selection.accepted.filter((p) => !isTnef(p));
  const out: PartOutcome[] = [];
  for (const part of selection.accepted) {
    const base = { filename: part.filename, content_type: part.contentType, size_bytes: part.size };
    if (input.refuseAll) {
      out.push({ ...base, outcome: 'skipped', reason: input.refuseAll });
      continue;
    }
    if (isTnef(part)) {
      out.push({ ...base, outcome: 'skipped', reason: 'tnef_not_supported' });
      continue;
    }
    try {
      const res = await intake.fromBuffer(part.content, {
        scope: input.scope,
        projectId: input.projectId,
        filename: part.filename,
        source: input.source,
        sourceMetadata: input.metadataFor(part, taken),
        uploadedBy: input.uploadedBy,
      });
      const ours = res.kind === 'created' || input.isOurs(res.document);
      out.push({ ...base, outcome: ours ? 'created' : 'duplicate', document_id: res.document.id });
    } catch (err) {
      const reason = refusalOf(err, input.projectGone ?? 'throw');
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

/** The document ids a delivery made or found, each once. */
export function documentIdsOf(parts: PartOutcome[]): string[] {
  return [...new Set(parts.flatMap((p) => (p.document_id ? [p.document_id] : [])))];
}
