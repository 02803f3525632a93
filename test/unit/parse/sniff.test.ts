import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { matchesAllowedTypes, sniffType } from '../../../src/pipeline/parse/sniff.js';
import { makeManyPagePdf, makePng, makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { makeDocx, writeZip } from './fixtures/zip.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const b = (s: string): Buffer => Buffer.from(s, 'utf8');

function bmpHeader(): Buffer {
  const buf = Buffer.alloc(58);
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(58, 2);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(1, 18);
  buf.writeInt32LE(1, 22);
  return buf;
}

const MAIL = [
  'Return-Path: <billing@example.com>',
  'From: Billing <billing@example.com>',
  'To: you@example.org',
  'Subject: Invoice 42',
  'Date: Tue, 3 Mar 2026 10:00:00 +0100',
  'Message-ID: <abc@example.com>',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Please find the invoice attached.',
].join('\r\n');

describe('sniffType', () => {
  const cases: Array<[string, () => Buffer | Promise<Buffer>, string | undefined, string | null]> = [
    ['pdf', () => makeTextPdf({ pages: [['hello']] }), undefined, 'application/pdf'],
    [
      'pdf with junk before the header',
      () => Buffer.concat([b('garbage\n'), makeManyPagePdf(1)]),
      undefined,
      'application/pdf',
    ],
    ['png', () => makePng(4, 4), undefined, 'image/png'],
    ['jpeg', () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]), undefined, 'image/jpeg'],
    ['gif', () => b('GIF89a\x01\x00\x01\x00'), undefined, 'image/gif'],
    ['tiff (little endian)', () => Buffer.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]), undefined, 'image/tiff'],
    ['tiff (big endian)', () => Buffer.from([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8]), undefined, 'image/tiff'],
    ['webp', () => Buffer.concat([b('RIFF'), Buffer.alloc(4), b('WEBPVP8 ')]), undefined, 'image/webp'],
    ['bmp', bmpHeader, undefined, 'image/bmp'],
    ['docx (stored)', () => makeDocx(['Hello']), undefined, DOCX],
    ['docx (deflated)', () => makeDocx(['Hello'], { deflate: true }), 'report.zip', DOCX],
    ['generic zip', () => writeZip([{ name: 'a.txt', data: 'x' }]), 'file.docx', 'application/zip'],
    ['e-mail', () => b(MAIL), undefined, 'message/rfc822'],
    ['e-mail with a header wrapped without indentation', () => b(MAIL_BROKEN_FOLD), 'message.txt', 'message/rfc822'],
    [
      'typed "Key: value" lines followed by prose',
      () => b('From: Accounts\nTo: Bob\nSubject: Invoice 12\nDate: 1 May 2024\nthanks for the order\n'),
      'note.txt',
      'text/plain',
    ],
    ['html with doctype', () => b('<!DOCTYPE html><html><body><p>Hi</p></body></html>'), undefined, 'text/html'],
    ['html fragment', () => b('<div><p>Hello there</p></div>'), undefined, 'text/html'],
    ['json', () => b('{"invoice": 42, "items": [1, 2]}'), undefined, 'application/json'],
    ['csv', () => b('name,qty,price\nApples,3,1.20\nPears,"1,5",0.80\n'), undefined, 'text/csv'],
    ['semicolon csv', () => b('Name;Betrag\nMiete;1200,00\nStrom;80,50\n'), undefined, 'text/csv'],
    ['plain text', () => b('Dear customer,\nthank you for your order.\nRegards'), undefined, 'text/plain'],
    ['latin-1 text', () => Buffer.from('Grüße aus Köln, Straße 5\n', 'latin1'), undefined, 'text/plain'],
    [
      'utf-16 text with BOM',
      () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Hello world\n', 'utf16le')]),
      undefined,
      'text/plain',
    ],
    // The name never overrides the bytes.
    ['text named .pdf', () => b('just some notes\nabout a thing\n'), 'notes.pdf', 'text/plain'],
    ['pdf named .txt', () => makeManyPagePdf(1), 'notes.txt', 'application/pdf'],
    ['png named .csv', () => makePng(2, 2), 'data.csv', 'image/png'],
    // The name breaks ties among text types only.
    ['one-line csv named .csv', () => b('a,b,c'), 'x.csv', 'text/csv'],
    ['one-line csv without a name', () => b('a,b,c'), undefined, 'text/plain'],
    ['csv-like text named .txt', () => b('one, two\nthree, four\n'), 'x.txt', 'text/plain'],
    ['prose named .html', () => b('no markup here'), 'page.html', 'text/plain'],
    ['broken json named .json', () => b('{"a": 1,'), 'x.json', 'application/json'],
    ['text mentioning %PDF-', () => b('The file starts with %PDF-1.7 as its header.\n'), undefined, 'text/plain'],
    ['rtf', () => b('{\\rtf1\\ansi Hello}'), 'x.txt', 'application/rtf'],
    // Nothing to recognise.
    ['zero bytes', () => Buffer.alloc(0), 'empty.pdf', null],
    ['binary garbage named .txt', () => randomBytes(4096), 'notes.txt', null],
    ['NUL-laden bytes', () => Buffer.from('abc\0def\0ghi'), 'x.txt', null],
    ['gzip', () => Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 0, 0]), undefined, null],
    ['"BM" text is not a bitmap', () => b('BMW invoice for service\n'), undefined, 'text/plain'],
  ];

  /** A header block whose long value was wrapped onto a line without leading whitespace. */
  const MAIL_BROKEN_FOLD = [
    'Return-Path: <a@example.org>',
    'Received: from mx.example.org by mail.example.net; Mon, 6 May 2024 10:00:00 +0000',
    'Message-ID: <1@example.org>',
    'Date: Mon, 6 May 2024 10:00:00 +0000',
    'From: Ann <a@example.org>',
    'To: Bob <b@example.net>',
    'Subject: Report',
    'MIME-Version: 1.0',
    'X-Diagnostics: 1;AB12;6:xYz0AbC123dEf456gHi789jKl',
    'MnO0PqR1sTu2VwX3yZ4aB5cD6eF7gH8iJ9kL0mN1oP2qR3sT4uV5wX6yZ',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Here is the report.',
  ].join('\r\n');

  it.each(cases)('%s', async (_label, make, filename, expected) => {
    const bytes = await make();
    expect(sniffType(bytes, filename)?.mime ?? null).toBe(expected);
  });

  it('recognises docx from a head that ends before the central directory', () => {
    const docx = makeDocx(['x'.repeat(200_000)]);
    expect(sniffType(docx.subarray(0, 64 * 1024))?.ext).toBe('docx');
  });
});

describe('matchesAllowedTypes', () => {
  const pdf = { mime: 'application/pdf', ext: 'pdf' };
  const jpg = { mime: 'image/jpeg', ext: 'jpg' };

  it.each([
    [pdf, undefined, true],
    [pdf, [], true],
    [null, [], true],
    [null, ['pdf'], false],
    [pdf, ['pdf'], true],
    [pdf, ['.PDF'], true],
    [pdf, ['application/pdf'], true],
    [pdf, ['application/pdf; charset=binary'], true],
    [pdf, ['image/*'], false],
    [jpg, ['image/*'], true],
    [jpg, ['jpeg'], true],
    [jpg, ['.jpg'], true],
    [jpg, ['png', 'pdf'], false],
    [{ mime: 'text/html', ext: 'html' }, ['htm'], true],
    [{ mime: 'text/csv', ext: 'csv' }, ['text/*'], true],
    [pdf, ['*/*'], true],
  ] as const)('%j against %j → %s', (sniffed, allowed, expected) => {
    expect(matchesAllowedTypes(sniffed, allowed as readonly string[] | undefined)).toBe(expected);
  });
});
