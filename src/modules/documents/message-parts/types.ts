/** What a message turns into documents: its attachments, the message itself, or both. */
export type ConsumeMode = 'attachments' | 'eml' | 'both';

/**
 * The part-selection settings of a message source (a mailbox, a project's SMTP address, an
 * uploaded .eml); product field names in brackets. Missing fields mean "no restriction"
 * unless a default is given.
 */
export interface PartRules {
  /** [attachment_include] Filename globs (`*`, `?`); a file must match one. Default: none = all. */
  attachmentInclude?: string | readonly string[] | null;
  /** [attachment_exclude] Filename globs; a matching file is skipped. Default: none. */
  attachmentExclude?: string | readonly string[] | null;
  /** [consume] Default `attachments`. */
  consume?: ConsumeMode;
  /** [include_inline] Also take images embedded in the HTML body (logos, signatures). Default false. */
  includeInline?: boolean;
  /** Skip attachments larger than this many bytes (`too_large`). Default: no limit. */
  maxAttachmentBytes?: number | null;
  /** Take at most this many files per message; the rest are skipped `too_many`. Default 100. */
  maxPartsPerMessage?: number;
}

/** A file to hand to document intake. Content is passed through untouched (types are sniffed later). */
export interface AcceptedPart {
  filename: string;
  content: Buffer;
  /** Content type as declared by the sender (not trusted; informational). */
  contentType: string;
  size: number;
  /** `eml` for the whole message, `attachment` for a MIME part. */
  kind: 'attachment' | 'eml';
}

export type SkipReason =
  /** embedded in the HTML body (multipart/related, cid) while include_inline is off */
  | 'inline'
  /** matched attachment_exclude */
  | 'excluded_by_filter'
  /** attachment_include is set and nothing matched */
  | 'not_included_by_filter'
  /** zero bytes */
  | 'empty'
  /** detached S/MIME or PGP signature, never a document */
  | 'signature'
  /** over maxAttachmentBytes */
  | 'too_large'
  /** over maxPartsPerMessage */
  | 'too_many'
  /** message/partial fragment (split messages are not reassembled) */
  | 'partial_message';

export interface SkippedPart {
  filename: string;
  reason: SkipReason;
  contentType: string;
  size: number;
}

export interface PartSelection {
  accepted: AcceptedPart[];
  skipped: SkippedPart[];
}
