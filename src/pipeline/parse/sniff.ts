import { detectDelimiter } from './csv.js';
import { isZip, listZipEntries } from './zip.js';
import { TEXT_SAMPLE_BYTES, bomEncoding, decodeText, isValidUtf8, looksLikeText } from './text.js';

/** A type judged from the bytes. `ext` is the canonical extension, without a dot. */
export interface SniffedType {
  mime: string;
  ext: string;
}

export const MIME = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  zip: 'application/zip',
  eml: 'message/rfc822',
  html: 'text/html',
  csv: 'text/csv',
  txt: 'text/plain',
  json: 'application/json',
  rtf: 'application/rtf',
} as const;

const t = (mime: string, ext: string): SniffedType => ({ mime, ext });

function startsWith(buf: Buffer, bytes: number[], at = 0): boolean {
  if (buf.length < at + bytes.length) return false;
  return bytes.every((b, i) => buf[at + i] === b);
}

function sniffImage(b: Buffer): SniffedType | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return t('image/png', 'png');
  if (startsWith(b, [0xff, 0xd8, 0xff])) return t('image/jpeg', 'jpg');
  const ascii6 = b.toString('latin1', 0, 6);
  if (ascii6 === 'GIF87a' || ascii6 === 'GIF89a') return t('image/gif', 'gif');
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]))
    return t('image/tiff', 'tiff');
  if (b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return t('image/webp', 'webp');
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) {
    // "BM" alone is too weak (text can start with it): also require a known DIB header size
    // and a pixel-data offset that lies after the headers.
    const dib = b.readUInt32LE(14);
    const dataOffset = b.readUInt32LE(10);
    if ([12, 40, 52, 56, 64, 108, 124].includes(dib) && dataOffset >= 14 + dib && dataOffset < 1 << 24) {
      return t('image/bmp', 'bmp');
    }
  }
  return null;
}

function sniffZip(b: Buffer): SniffedType {
  const names = listZipEntries(b).map((e) => e.name);
  const has = (prefix: string): boolean => names.some((n) => n.startsWith(prefix));
  // When a head ends before the directory is readable, the entry names still appear in plain bytes.
  const raw = names.length > 1 ? '' : b.toString('latin1', 0, Math.min(b.length, TEXT_SAMPLE_BYTES));
  if (has('word/') || raw.includes('word/document.xml')) return t(MIME.docx, 'docx');
  if (has('xl/') || raw.includes('xl/workbook.xml')) return t(MIME.xlsx, 'xlsx');
  if (has('ppt/') || raw.includes('ppt/presentation.xml')) return t(MIME.pptx, 'pptx');
  return t(MIME.zip, 'zip');
}

const MAIL_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'received',
  'return-path',
  'content-type',
  'content-transfer-encoding',
  'reply-to',
  'delivered-to',
  'sender',
  'x-mailer',
  'dkim-signature',
  'authentication-results',
  'in-reply-to',
  'references',
  'user-agent',
  'thread-topic',
]);
const STRONG_MAIL_HEADERS = ['from', 'subject', 'message-id', 'received', 'mime-version', 'date'];

/** RFC 822 message: a header block of `Name: value` lines, mostly well-known names. */
function looksLikeMail(text: string): boolean {
  const lines = text.split(/\r?\n/, 200);
  let i = lines[0]?.startsWith('From ') ? 1 : 0; // mbox separator line
  const seen = new Set<string>();
  let headerLines = 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line === '') break;
    if (/^[ \t]/.test(line) && headerLines > 0) continue; // folded continuation
    const m = /^([!-9;-~]{1,76}):/.exec(line);
    if (!m) {
      // Some mailers wrap a long header value without indenting the next line. Past a block
      // that can only be mail (transport headers and most of the strong ones), such a line is
      // read as a broken continuation, as mail parsers do, rather than as the end of the mail.
      if (
        headerLines >= 8 &&
        (seen.has('received') || seen.has('message-id')) &&
        STRONG_MAIL_HEADERS.filter((h) => seen.has(h)).length >= 3
      )
        continue;
      return false;
    }
    headerLines++;
    const name = m[1].toLowerCase();
    if (MAIL_HEADERS.has(name)) seen.add(name);
  }
  const strong = STRONG_MAIL_HEADERS.filter((h) => seen.has(h)).length;
  return headerLines >= 2 && seen.size >= 2 && strong >= 2;
}

const HTML_START = /^(?:<!--[\s\S]*?-->\s*)*(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i;
const HTML_TAG =
  /<(?:p|div|br|table|span|a\s|b|i|h[1-6]|ul|ol|li|img|body|head|html|meta|title|strong|em|font|center)[\s/>]/i;

function extOf(filename?: string): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(filename ?? '');
  return m ? m[1].toLowerCase() : '';
}

function sniffText(b: Buffer, filename?: string): SniffedType | null {
  const sample = b.subarray(0, TEXT_SAMPLE_BYTES);
  const truncated = b.length > sample.length;
  if (!looksLikeText(sample)) return null;
  const bom = bomEncoding(sample);
  if (!bom && !isValidUtf8(sample, truncated)) {
    // Legacy 8-bit text is read as Windows-1252, where only these five bytes mean nothing.
    let undefinedBytes = 0;
    for (const byte of sample)
      if (byte === 0x81 || byte === 0x8d || byte === 0x8f || byte === 0x90 || byte === 0x9d) undefinedBytes++;
    if (undefinedBytes > 1 + sample.length * 0.01) return null;
  }
  const text = decodeText(sample).text;
  const head = text.trimStart();
  const ext = extOf(filename);
  if (head.startsWith('{\\rtf')) return t(MIME.rtf, 'rtf');
  if (HTML_START.test(head.slice(0, 4096))) return t(MIME.html, 'html');
  if (head.startsWith('<?xml') && /<html[\s>]/i.test(head.slice(0, 4096))) return t(MIME.html, 'html');
  if (head.startsWith('{') || head.startsWith('[')) {
    if (!truncated && isJson(text)) return t(MIME.json, 'json');
    if (ext === 'json') return t(MIME.json, 'json');
  }
  if (looksLikeMail(text)) return t(MIME.eml, 'eml');
  if (head.startsWith('<') && HTML_TAG.test(head.slice(0, 1024))) return t(MIME.html, 'html');
  // Among text types the name breaks ties: only ambiguous content reaches this point.
  if (ext === 'htm' || ext === 'html') return HTML_TAG.test(text) ? t(MIME.html, 'html') : t(MIME.txt, 'txt');
  if (ext === 'csv' || ext === 'tsv') {
    return detectDelimiter(text, { minLines: 1, truncated }) ? t(MIME.csv, 'csv') : t(MIME.txt, 'txt');
  }
  if (['txt', 'text', 'md', 'log'].includes(ext)) return t(MIME.txt, 'txt');
  if (detectDelimiter(text, { minLines: 2, truncated })) return t(MIME.csv, 'csv');
  return t(MIME.txt, 'txt');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Judges a file's real type from its bytes (magic numbers, container structure, text
 * heuristics). The filename only breaks ties among text types; it never overrides bytes.
 * Pass the whole file when available (a zip's directory sits at its end); a head of at least
 * 64 KiB works for everything else. Returns null for empty, unknown or binary-garbage input.
 */
export function sniffType(head: Buffer, filename?: string): SniffedType | null {
  if (head.length === 0) return null;
  // pdf.js accepts a header preceded by junk within the first kilobyte, so do we; text that merely
  // mentions the header is told apart by the object syntax every PDF has.
  const pdfAt = head.subarray(0, 1024).indexOf('%PDF-', 0, 'latin1');
  if (pdfAt === 0) return t(MIME.pdf, 'pdf');
  if (pdfAt > 0 && /^%PDF-\d\.\d/.test(head.toString('latin1', pdfAt, pdfAt + 8))) {
    if (/\d+\s+\d+\s+obj\b/.test(head.toString('latin1', pdfAt, Math.min(head.length, pdfAt + 8192)))) {
      return t(MIME.pdf, 'pdf');
    }
  }
  const image = sniffImage(head);
  if (image) return image;
  if (isZip(head)) return sniffZip(head);
  return sniffText(head, filename);
}

export { matchesAllowedTypes } from './allowed-types.js';
