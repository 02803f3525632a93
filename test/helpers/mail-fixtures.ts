// A small MIME writer for tests: builds raw RFC 5322 messages (CRLF line ends, base64 wrapped
// at 76 characters, RFC 2047 headers, RFC 2231 filenames) plus ready-made fixture messages.
// Deterministic output: boundaries come from a counter, "random" bytes from a seeded PRNG.

const CRLF = '\r\n';

export interface MimeLeaf {
  kind: 'leaf';
  headers: Array<[string, string]>;
  /** Body bytes exactly as they go on the wire (already transfer-encoded). */
  body: Buffer;
}
export interface MimeMultipart {
  kind: 'multipart';
  subtype: 'mixed' | 'related' | 'alternative' | 'signed' | string;
  parts: MimeNode[];
  headers?: Array<[string, string]>;
}
export type MimeNode = MimeLeaf | MimeMultipart;
export type TransferEncoding = '7bit' | '8bit' | 'quoted-printable' | 'base64';

let boundaryCounter = 0;

/** base64 in lines of at most 76 characters, CRLF separated (RFC 2045 6.8). */
export function base64Lines(buf: Buffer): string {
  const b64 = buf.toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return lines.join(CRLF);
}

/** Quoted-printable with soft line breaks so no line exceeds 76 characters. */
export function quotedPrintable(buf: Buffer): string {
  const out: string[] = [];
  let line = '';
  const push = (tok: string): void => {
    if (line.length + tok.length > 75) {
      out.push(line + '=');
      line = '';
    }
    line += tok;
  };
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (c === 0x0d && buf[i + 1] === 0x0a) {
      out.push(line);
      line = '';
      i++;
    } else if ((c >= 33 && c <= 126 && c !== 61) || (c === 32 && buf[i + 1] !== 0x0d && i + 1 < buf.length)) {
      push(String.fromCharCode(c));
    } else {
      push('=' + c.toString(16).toUpperCase().padStart(2, '0'));
    }
  }
  out.push(line);
  return out.join(CRLF);
}

function encodeBody(bytes: Buffer, enc: TransferEncoding): Buffer {
  if (enc === 'base64') return Buffer.from(base64Lines(bytes), 'latin1');
  if (enc === 'quoted-printable') return Buffer.from(quotedPrintable(bytes), 'latin1');
  return bytes;
}

/** One RFC 2047 encoded-word over bytes already in `charset`. */
export function encodedWord(bytes: Buffer, charset: string, enc: 'B' | 'Q' = 'B'): string {
  if (enc === 'B') return `=?${charset}?B?${bytes.toString('base64')}?=`;
  let q = '';
  for (const c of bytes) {
    q +=
      c === 32
        ? '_'
        : /[A-Za-z0-9!*+\-/]/.test(String.fromCharCode(c)) && c < 128
          ? String.fromCharCode(c)
          : '=' + c.toString(16).toUpperCase().padStart(2, '0');
  }
  return `=?${charset}?Q?${q}?=`;
}

/** Header text: ASCII as is, anything else as UTF-8 encoded-words folded onto continuation lines. */
export function encodeHeaderText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  const words: string[] = [];
  let chunk = '';
  for (const ch of text) {
    if (Buffer.byteLength(chunk + ch) > 42) {
      words.push(encodedWord(Buffer.from(chunk), 'utf-8'));
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk) words.push(encodedWord(Buffer.from(chunk), 'utf-8'));
  return words.join(CRLF + ' ');
}

/** Windows-1252 bytes for a string (Latin-1 plus the 0x80–0x9F punctuation block). */
export function encodeWindows1252(text: string): Buffer {
  const extra: Record<string, number> = {
    '€': 0x80,
    '‚': 0x82,
    '„': 0x84,
    '…': 0x85,
    '‘': 0x91,
    '’': 0x92,
    '“': 0x93,
    '”': 0x94,
    '–': 0x96,
    '—': 0x97,
    '™': 0x99,
  };
  return Buffer.from(Array.from(text, (ch) => extra[ch] ?? (ch.charCodeAt(0) <= 0xff ? ch.charCodeAt(0) : 0x3f)));
}

/** A text body part. Strings are UTF-8; pass bytes to use another charset. */
export function textPart(
  text: string | Buffer,
  opts: { subtype?: 'plain' | 'html'; charset?: string; encoding?: TransferEncoding; disposition?: string } = {},
): MimeLeaf {
  const enc = opts.encoding ?? 'quoted-printable';
  const headers: Array<[string, string]> = [
    ['Content-Type', `text/${opts.subtype ?? 'plain'}; charset="${opts.charset ?? 'utf-8'}"`],
    ['Content-Transfer-Encoding', enc],
  ];
  if (opts.disposition) headers.push(['Content-Disposition', opts.disposition]);
  return { kind: 'leaf', headers, body: encodeBody(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), enc) };
}

function filenameParam(param: 'filename' | 'name', name: string, style: 'rfc2231' | 'rfc2047'): string {
  if (/^[\x20-\x7e]*$/.test(name)) return `${param}="${name.replace(/["\\]/g, '\\$&')}"`;
  if (style === 'rfc2047') return `${param}="${encodedWord(Buffer.from(name), 'utf-8')}"`;
  return `${param}*=utf-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())}`;
}

export interface AttachmentOptions {
  content: Buffer;
  contentType: string;
  /** Omit for an unnamed part. */
  filename?: string;
  /** `null` writes no Content-Disposition header at all. Default `attachment`. */
  disposition?: 'attachment' | 'inline' | null;
  /** Content-ID without angle brackets. */
  contentId?: string;
  /** How a non-ASCII filename is written. Default rfc2231. */
  filenameStyle?: 'rfc2231' | 'rfc2047';
  /** Filename already encoded in some charset (written as an RFC 2047 word in that charset). */
  filenameBytes?: { bytes: Buffer; charset: string };
  encoding?: TransferEncoding;
}

/** A (usually binary) part: a file attachment or an inline image. */
export function attachmentPart(o: AttachmentOptions): MimeLeaf {
  const style = o.filenameStyle ?? 'rfc2231';
  const nameParams = (param: 'filename' | 'name'): string => {
    if (o.filenameBytes) return `; ${param}="${encodedWord(o.filenameBytes.bytes, o.filenameBytes.charset, 'Q')}"`;
    return o.filename === undefined ? '' : `; ${filenameParam(param, o.filename, style)}`;
  };
  const headers: Array<[string, string]> = [['Content-Type', `${o.contentType}${nameParams('name')}`]];
  const enc = o.encoding ?? 'base64';
  headers.push(['Content-Transfer-Encoding', enc]);
  const disposition = o.disposition === undefined ? 'attachment' : o.disposition;
  if (disposition) headers.push(['Content-Disposition', `${disposition}${nameParams('filename')}`]);
  if (o.contentId) headers.push(['Content-ID', `<${o.contentId}>`]);
  return { kind: 'leaf', headers, body: encodeBody(o.content, enc) };
}

/** A forwarded message as a message/rfc822 part. */
export function messagePart(raw: Buffer, filename?: string): MimeLeaf {
  const headers: Array<[string, string]> = [
    ['Content-Type', 'message/rfc822'],
    ['Content-Transfer-Encoding', '8bit'],
  ];
  headers.push(['Content-Disposition', filename ? `attachment; filename="${filename}"` : 'attachment']);
  return { kind: 'leaf', headers, body: raw };
}

export function multipart(subtype: MimeMultipart['subtype'], parts: MimeNode[]): MimeMultipart {
  return { kind: 'multipart', subtype, parts };
}

function renderHeaders(headers: Array<[string, string]>): string {
  return headers.map(([k, v]) => `${k}: ${v}${CRLF}`).join('');
}

/** Serialises a MIME tree (headers, blank line, body). */
export function renderNode(node: MimeNode): Buffer {
  if (node.kind === 'leaf')
    return Buffer.concat([Buffer.from(renderHeaders(node.headers) + CRLF, 'latin1'), node.body]);
  const boundary = `----=_docpipe_${++boundaryCounter}_${node.subtype}`;
  const head = renderHeaders([
    ['Content-Type', `multipart/${node.subtype}; boundary="${boundary}"`],
    ...(node.headers ?? []),
  ]);
  const chunks: Buffer[] = [Buffer.from(head + CRLF + 'This is a multi-part message in MIME format.' + CRLF, 'latin1')];
  for (const p of node.parts) {
    chunks.push(Buffer.from(`--${boundary}${CRLF}`), renderNode(p), Buffer.from(CRLF));
  }
  chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return Buffer.concat(chunks);
}

export interface MessageOptions {
  from?: string;
  to?: string;
  /** Plain subject; non-ASCII becomes UTF-8 encoded-words. */
  subject?: string;
  /** Subject header exactly as written (for charset fixtures); wins over `subject`. */
  rawSubject?: string;
  date?: Date;
  /** Without angle brackets. `null` writes no Message-ID. */
  messageId?: string | null;
  headers?: Array<[string, string]>;
  body: MimeNode;
}

let messageCounter = 0;

/** A complete message as raw bytes. */
export function buildMessage(o: MessageOptions): Buffer {
  const n = ++messageCounter;
  const headers: Array<[string, string]> = [
    ['From', o.from ?? 'Sender <sender@example.com>'],
    ['To', o.to ?? 'docs@example.org'],
    ['Subject', o.rawSubject ?? encodeHeaderText(o.subject ?? `Test message ${n}`)],
    ['Date', (o.date ?? new Date()).toUTCString().replace('GMT', '+0000')],
  ];
  if (o.messageId !== null)
    headers.push(['Message-ID', `<${o.messageId ?? `fixture-${n}-${process.pid}@docpipe.test`}>`]);
  headers.push(['MIME-Version', '1.0'], ...(o.headers ?? []));
  return Buffer.concat([Buffer.from(renderHeaders(headers), 'latin1'), renderNode(o.body)]);
}

/** Deterministic pseudo-random bytes (xorshift32), so big fixtures do not compress away. */
export function pseudoRandomBytes(size: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.allocUnsafe(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** A minimal valid one-page PDF whose page shows `text` (ASCII). */
export function tinyPdf(text = 'Invoice 2024-001 Total 119.00 EUR'): Buffer {
  const safe = text.replace(/[()\\]/g, '');
  const stream = `BT /F1 12 Tf 72 720 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A 1×1 transparent PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

// ---- ready-made messages -------------------------------------------------------------------

export interface FixtureOptions {
  from?: string;
  subject?: string;
  messageId?: string | null;
  date?: Date;
}

/** multipart/mixed: text body, `invoice-2024-001.pdf`, `notes.txt`. */
export function invoiceMessage(o: FixtureOptions = {}): Buffer {
  return buildMessage({
    from: o.from ?? 'Billing <billing@vendor.example>',
    subject: o.subject ?? 'Invoice 2024-001',
    messageId: o.messageId,
    date: o.date,
    body: multipart('mixed', [
      textPart('Please find our invoice attached.\r\n'),
      attachmentPart({ filename: 'invoice-2024-001.pdf', contentType: 'application/pdf', content: tinyPdf() }),
      attachmentPart({
        filename: 'notes.txt',
        contentType: 'text/plain',
        content: Buffer.from('Payment due in 30 days.\n'),
      }),
    ]),
  });
}

/** HTML newsletter: multipart/related with an inline cid logo, plus one real PDF attachment. */
export function inlineImageMessage(o: FixtureOptions = {}): Buffer {
  const html = '<html><body><img src="cid:logo@vendor"><p>Your statement is attached.</p></body></html>';
  return buildMessage({
    ...o,
    subject: o.subject ?? 'Monthly statement',
    body: multipart('mixed', [
      multipart('related', [
        textPart(html, { subtype: 'html' }),
        attachmentPart({
          filename: 'logo.png',
          contentType: 'image/png',
          content: TINY_PNG,
          disposition: 'inline',
          contentId: 'logo@vendor',
        }),
      ]),
      attachmentPart({ filename: 'statement.pdf', contentType: 'application/pdf', content: tinyPdf('Statement') }),
    ]),
  });
}

/**
 * Nesting: mixed > [alternative > [plain, related > [html, png]], report.pdf,
 * forwarded message/rfc822 that itself carries `inner.pdf`].
 */
export function nestedMessage(o: FixtureOptions = {}): Buffer {
  const inner = buildMessage({
    subject: 'Inner message',
    body: multipart('mixed', [
      textPart('inner body'),
      attachmentPart({ filename: 'inner.pdf', contentType: 'application/pdf', content: tinyPdf('Inner') }),
    ]),
  });
  return buildMessage({
    ...o,
    subject: o.subject ?? 'Nested parts',
    body: multipart('mixed', [
      multipart('alternative', [
        textPart('plain version'),
        multipart('related', [
          textPart('<p><img src="cid:sig"></p>', { subtype: 'html' }),
          attachmentPart({ contentType: 'image/png', content: TINY_PNG, disposition: 'inline', contentId: 'sig' }),
        ]),
      ]),
      attachmentPart({ filename: 'report.pdf', contentType: 'application/pdf', content: tinyPdf('Report') }),
      messagePart(inner, 'forwarded.eml'),
    ]),
  });
}

/** Expected decoded values of {@link charsetMessages}. */
export const CHARSET_EXPECTED = {
  latin1: { subject: 'Rechnung März für Müller', filename: 'Rechnung_März.pdf' },
  cp1252: { subject: '“Quote” – 50 € total', filename: 'Angebot – Entwurf.pdf' },
  shiftJis: { subject: '請求書', filename: '見積書.pdf' },
} as const;

/** Subjects and filenames in iso-8859-1 (Q), windows-1252 (Q) and Shift_JIS (B) encoded-words, 8-bit bodies. */
export function charsetMessages(): { latin1: Buffer; cp1252: Buffer; shiftJis: Buffer } {
  const e = CHARSET_EXPECTED;
  const latin = (s: string): Buffer => Buffer.from(s, 'latin1');
  const sjis = (hex: string): Buffer => Buffer.from(hex, 'hex');
  const pdf = (filenameBytes: { bytes: Buffer; charset: string }): MimeLeaf =>
    // Distinct bytes per message: identical attachments would be duplicates of whichever message
    // the poller happened to take first.
    attachmentPart({
      contentType: 'application/pdf',
      content: tinyPdf(`Attachment in ${filenameBytes.charset}`),
      filenameBytes,
    });
  return {
    latin1: buildMessage({
      rawSubject: encodedWord(latin(e.latin1.subject), 'iso-8859-1', 'Q'),
      body: multipart('mixed', [
        textPart(latin('Grüße aus Köln\r\n'), { charset: 'iso-8859-1', encoding: '8bit' }),
        pdf({ bytes: latin(e.latin1.filename), charset: 'iso-8859-1' }),
      ]),
    }),
    cp1252: buildMessage({
      rawSubject: encodedWord(encodeWindows1252(e.cp1252.subject), 'windows-1252', 'Q'),
      body: multipart('mixed', [
        textPart(encodeWindows1252('Preis: 50 € – “netto”\r\n'), {
          charset: 'windows-1252',
          encoding: 'quoted-printable',
        }),
        pdf({ bytes: encodeWindows1252(e.cp1252.filename), charset: 'windows-1252' }),
      ]),
    }),
    shiftJis: buildMessage({
      // 請求書 (invoice) and 見積書 (estimate) in Shift_JIS.
      rawSubject: encodedWord(sjis('90bf8b818f91'), 'shift_jis', 'B'),
      body: multipart('mixed', [
        textPart(sjis('90bf8b818f910d0a'), { charset: 'shift_jis', encoding: 'base64' }),
        pdf({ bytes: Buffer.concat([sjis('8ca990cf8f91'), Buffer.from('.pdf')]), charset: 'shift_jis' }),
      ]),
    }),
  };
}

/** `count` attachments named `doc-001.pdf` … (every fifth one a `.txt`). */
export function manyAttachmentsMessage(count = 50, o: FixtureOptions = {}): Buffer {
  const parts: MimeNode[] = [textPart(`${count} files attached`)];
  for (let i = 1; i <= count; i++) {
    const n = String(i).padStart(3, '0');
    parts.push(
      i % 5 === 0
        ? attachmentPart({ filename: `doc-${n}.txt`, contentType: 'text/plain', content: Buffer.from(`file ${n}\n`) })
        : attachmentPart({
            filename: `doc-${n}.pdf`,
            contentType: 'application/pdf',
            content: tinyPdf(`Document ${n}`),
          }),
    );
  }
  return buildMessage({ ...o, subject: o.subject ?? `${count} attachments`, body: multipart('mixed', parts) });
}

/** A message of roughly `totalBytes` (within ~1 KiB): one `blob.bin` attachment of pseudo-random bytes. */
export function bigMessage(totalBytes: number, o: FixtureOptions = {}): Buffer {
  const probe = (payload: number): Buffer =>
    buildMessage({
      ...o,
      messageId: o.messageId ?? 'big-fixture@docpipe.test',
      subject: o.subject ?? 'Big message',
      body: multipart('mixed', [
        textPart('big attachment follows'),
        attachmentPart({
          filename: 'blob.bin',
          contentType: 'application/octet-stream',
          content: pseudoRandomBytes(payload),
        }),
      ]),
    });
  const overhead = probe(0).length;
  // base64 grows 4/3 plus CRLF every 76 chars.
  const payload = Math.max(0, Math.floor(((totalBytes - overhead) * 3 * 76) / (4 * 78)));
  return probe(payload);
}

/** Edge cases for part selection: unnamed PDF, empty file, S/MIME signature, Apple-style inline PDF. */
export function edgeCaseMessage(o: FixtureOptions = {}): Buffer {
  return buildMessage({
    ...o,
    subject: o.subject ?? 'Edge cases',
    body: multipart('mixed', [
      textPart('see attachments'),
      attachmentPart({ contentType: 'application/pdf', content: tinyPdf('Unnamed') }),
      attachmentPart({ filename: 'empty.pdf', contentType: 'application/pdf', content: Buffer.alloc(0) }),
      attachmentPart({
        filename: 'smime.p7s',
        contentType: 'application/pkcs7-signature',
        content: Buffer.from([0x30, 0x82, 0x01]),
      }),
      attachmentPart({
        filename: 'scan.pdf',
        contentType: 'application/pdf',
        content: tinyPdf('Scan'),
        disposition: 'inline',
      }),
      attachmentPart({ filename: '../../etc/passwd', contentType: 'text/plain', content: Buffer.from('x\n') }),
      attachmentPart({ filename: 'Überweisung €.pdf', contentType: 'application/pdf', content: tinyPdf('Transfer') }),
    ]),
  });
}
