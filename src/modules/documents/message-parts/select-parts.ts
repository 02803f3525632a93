import type { Attachment, ParsedMail } from 'mailparser';
import { matchesAnyGlob, parsePatternList } from './glob.js';
import { extensionFor, sanitizeFilename, uniqueName } from './filenames.js';
import type { AcceptedPart, PartRules, PartSelection, SkipReason } from './types.js';
import { isUuencodedTransfer, uudecode } from './uudecode.js';

/** Default for {@link PartRules.maxPartsPerMessage}. */
export const DEFAULT_MAX_PARTS_PER_MESSAGE = 100;

const SIGNATURE_TYPES = new Set([
  'application/pkcs7-signature',
  'application/x-pkcs7-signature',
  'application/pgp-signature',
]);

export interface SelectPartsInput {
  /** The raw RFC 822 bytes; required when consume is `eml` or `both`. */
  raw?: Buffer;
}

function baseType(ct: string | undefined): string {
  return (ct ?? 'application/octet-stream').split(';')[0].trim().toLowerCase();
}

/**
 * Decoration embedded in the HTML body: parts of a multipart/related (what `cid:` images live
 * in), or unnamed parts that carry a Content-ID and are not marked as attachments. A *named*
 * inline part outside multipart/related is treated as a file: phones and Apple Mail send
 * photographed receipts and PDFs that way.
 */
function isEmbedded(a: Attachment, named: boolean): boolean {
  if (a.related === true) return true;
  if (named) return false;
  return a.cid ? a.contentDisposition !== 'attachment' : a.contentDisposition === 'inline';
}

/**
 * Name for the whole-message file: the subject, else the Message-ID, else `message`.
 */
export function emlFilename(parsed: Pick<ParsedMail, 'subject' | 'messageId'>): string {
  // A subject is text, not a path: "Report 29/11/2015" must not shrink to "2015".
  const fromSubject = sanitizeFilename(parsed.subject?.slice(0, 100).replace(/[\\/]/g, '-'));
  const fromId = sanitizeFilename(parsed.messageId?.replace(/^<|>$/g, '').replace(/@/g, '_'));
  return `${fromSubject || fromId || 'message'}.eml`;
}

/**
 * Decides which files of a parsed message become documents and records why the rest do not.
 *
 * Inline rule: images and fragments embedded in the HTML body (logos, signature pictures;
 * see isEmbedded) are skipped unless `includeInline`. Named inline parts are kept: some
 * clients send real PDFs and photos with `Content-Disposition: inline`.
 * Attachment filters apply to attachments only, never to the `.eml` of the whole message.
 */
export function selectParts(parsed: ParsedMail, cfg: PartRules, input: SelectPartsInput = {}): PartSelection {
  const consume = cfg.consume ?? 'attachments';
  const include = parsePatternList(cfg.attachmentInclude);
  const exclude = parsePatternList(cfg.attachmentExclude);
  const maxParts = cfg.maxPartsPerMessage ?? DEFAULT_MAX_PARTS_PER_MESSAGE;
  const maxBytes = cfg.maxAttachmentBytes ?? null;
  const out: PartSelection = { accepted: [], skipped: [] };
  const taken = new Set<string>();

  if (consume === 'eml' || consume === 'both') {
    if (!input.raw) throw new Error(`selectParts: consume=${consume} needs the raw message bytes`);
    const filename = uniqueName(emlFilename(parsed), taken);
    out.accepted.push({
      filename,
      content: input.raw,
      contentType: 'message/rfc822',
      size: input.raw.length,
      kind: 'eml',
    });
  }
  if (consume === 'eml') return out;

  parsed.attachments.forEach((a, i) => {
    const contentType = baseType(a.contentType);
    let content: Buffer = a.content ?? Buffer.alloc(0);
    let rawName = a.filename;
    if (isUuencodedTransfer(a.headers?.get('content-transfer-encoding'))) {
      const decoded = uudecode(content);
      if (decoded) {
        content = decoded.data;
        rawName = rawName || decoded.name;
      }
    }
    const named = sanitizeFilename(rawName);
    const filename = named || `attachment-${i + 1}.${extensionFor(contentType)}`;
    const size = content.length;
    const skip = (reason: SkipReason): void => {
      out.skipped.push({ filename, reason, contentType, size });
    };

    if (!cfg.includeInline && isEmbedded(a, Boolean(named))) return skip('inline');
    if (SIGNATURE_TYPES.has(contentType)) return skip('signature');
    // One fragment of a split message is useless alone; reassembly is not supported.
    if (contentType === 'message/partial') return skip('partial_message');
    if (size === 0) return skip('empty');
    if (include.length > 0 && !matchesAnyGlob(filename, include)) return skip('not_included_by_filter');
    if (exclude.length > 0 && matchesAnyGlob(filename, exclude)) return skip('excluded_by_filter');
    if (maxBytes !== null && size > maxBytes) return skip('too_large');
    if (out.accepted.length >= maxParts) return skip('too_many');
    const part: AcceptedPart = {
      filename: uniqueName(filename, taken),
      content,
      contentType,
      size,
      kind: 'attachment',
    };
    out.accepted.push(part);
  });
  return out;
}
