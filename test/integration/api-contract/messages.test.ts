// The API says what it expects: an update sent without a body is an empty update (routes that
// need fields name them), 413 names the maximum, 415 names the accepted types, a webhook URL to
// a private address names WEBHOOK_ALLOWED_HOSTS, an expired token has its own code, and files
// that can never be processed (executables, archives) are refused at upload with nothing kept.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { upload } from '../../helpers/pipeline.js';
import { buildMessage, attachmentPart, multipart as mimeMultipart, textPart } from '../../helpers/mail-fixtures.js';
import { docxEntries, writeZip } from '../../unit/parse/fixtures/zip.js';
import {
  API,
  call,
  dataOf,
  expectError,
  makeKey,
  makeProject,
  quickActor,
  tokenFor,
  bearer,
  type QuickActor,
} from '../foundation/support.js';

let t: TestApp;
let owner: QuickActor;
let projectId: string;

beforeAll(async () => {
  // A 1 MiB upload limit, so the 413 is cheap to reach.
  t = await createTestApp('pglite', { MAX_UPLOAD_MB: '1' });
  owner = await quickActor(t, { role: 'owner' });
  projectId = (await makeProject(t.app, owner.auth, { name: 'Intake' })).id;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const raw = (
  method: 'PUT' | 'PATCH' | 'POST',
  url: string,
  headers: Record<string, string> = {},
  payload?: string | Buffer,
) =>
  t.app.inject({
    method,
    url: `${API}${url}`,
    headers: { ...owner.auth, ...headers },
    ...(payload === undefined ? {} : { payload }),
  });

describe('an update without a body', () => {
  it('is an empty update where the body is optional (API key, project, webhook, mailbox)', async () => {
    const key = await makeKey(t.app, owner, { name: 'keep me', rate_limit_per_minute: 7 });
    const hook = dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/webhooks',
        headers: owner.auth,
        payload: { url: 'https://93.184.216.34/h', events: ['*'] },
      }),
      201,
    );
    const mbx = dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/integrations/mailboxes',
        headers: owner.auth,
        payload: {
          name: 'In',
          host: '93.184.216.34',
          port: 993,
          security: 'tls',
          username: 'u',
          password: 'p',
          project_id: projectId,
          is_active: false,
        },
      }),
      201,
    );
    const cases: [string, Record<string, unknown>][] = [
      [`/api-keys/${key.id}`, { name: 'keep me', rate_limit_per_minute: 7 }],
      [`/projects/${projectId}`, { name: 'Intake' }],
      [`/webhooks/${hook.id}`, { url: 'https://93.184.216.34/h' }],
      [`/integrations/mailboxes/${mbx.id}`, { name: 'In' }],
    ];
    for (const [url, unchanged] of cases) {
      // No Content-Type and no body; and an empty body sent as JSON.
      for (const headers of [{}, { 'content-type': 'application/json' }] as Record<string, string>[]) {
        const res = await raw('PUT', url, headers);
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}: ${res.body}`).toBe(200);
        expect(res.json().data, url).toMatchObject(unchanged);
      }
    }
  });

  it('is a 400 naming the fields where the route needs some (not a parser error)', async () => {
    const tpl = dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/templates',
        headers: owner.auth,
        payload: { issuer: 'ACME', keywords: ['ACME'], fields: { n: 'No (\\d+)' } },
      }),
      201,
    );
    const doc = dataOf(await upload(t, owner, projectId, 'note.txt', Buffer.from('Invoice 7\nTotal 10\n')), 201);
    const member = await quickActor(t, { orgId: owner.orgId, role: 'viewer' });

    const needsOne = [
      [`/documents/${doc.id}`, 'PATCH', 'classification'],
      [`/members/${member.userId}`, 'PUT', 'role'],
    ] as const;
    for (const [url, method, field] of needsOne) {
      const err = expectError(await raw(method, url), 400, 'VALIDATION_ERROR');
      expect(err.message, url).toMatch(/must contain at least one field of: /);
      expect(err.message, url).toContain(field);
      expect(err.message, url).not.toMatch(/must be object/);
    }
    const err = expectError(await raw('PUT', `/templates/${tpl.id}`), 400, 'VALIDATION_ERROR');
    expect(err.details?.map((d) => d.field).sort()).toEqual(['fields', 'issuer', 'keywords']);
    expect(err.details?.every((d) => d.message === 'is required')).toBe(true);
  });

  it('a body with a Content-Type that is not JSON is still a 415', async () => {
    const key = await makeKey(t.app, owner, { name: 'k' });
    const err = expectError(
      await raw('PUT', `/api-keys/${key.id}`, { 'content-type': 'text/plain' }, 'name=x'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(err.message).toContain('"text/plain"');
    expect(err.message).toContain('application/json');
  });
});

describe('limits and expectations named in errors', () => {
  it('413 on a JSON body names the maximum in bytes and in MiB', async () => {
    const body = JSON.stringify({ name: 'big', description: 'x'.repeat(1024 * 1024 + 10) });
    const err = expectError(
      await raw('POST', '/projects', { 'content-type': 'application/json' }, body),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expect(err.message).toBe('Request body is larger than the maximum of 1 MiB (1048576 bytes) for this endpoint');
  });

  it('413 on an upload names MAX_UPLOAD_MB in bytes and in MiB', async () => {
    const res = await upload(t, owner, projectId, 'big.txt', Buffer.alloc(1024 * 1024 + 100, 'a'));
    const err = expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(err.message).toMatch(/maximum of 1 MiB \(1048576 bytes\)/);
    expect(err.message).toContain('MAX_UPLOAD_MB');
  });

  it('415 names what is accepted: JSON for bodies, multipart for uploads', async () => {
    const json = expectError(
      await raw('POST', '/projects', { 'content-type': 'application/xml' }, '<p/>'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(json.message).toBe(
      'Content-Type "application/xml" is not accepted; send application/json (uploads to POST /documents: multipart/form-data)',
    );
    const up = expectError(
      await raw('POST', '/documents', { 'content-type': 'application/json' }, '{"file":"x"}'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(up.message).toContain('multipart/form-data');
  });

  it('a webhook URL to a loopback, private or localhost target names WEBHOOK_ALLOWED_HOSTS', async () => {
    for (const url of ['http://127.0.0.1:9000/h', 'http://10.1.2.3/h', 'http://[::1]/h', 'http://localhost:8080/h']) {
      const err = expectError(
        await call(t.app, { method: 'POST', url: '/webhooks', headers: owner.auth, payload: { url, events: ['*'] } }),
        400,
        'VALIDATION_ERROR',
      );
      expect(err.message, url).toContain('WEBHOOK_ALLOWED_HOSTS');
      expect(err.details?.[0]).toMatchObject({ field: 'url' });
    }
  });

  it('an expired access token is 401 TOKEN_EXPIRED; a forged or malformed one stays UNAUTHORIZED', async () => {
    const expired = expectError(
      await call(t.app, {
        url: '/projects',
        headers: bearer(tokenFor(t, owner.userId, owner.orgId, owner.sessionId, -5)),
      }),
      401,
      'TOKEN_EXPIRED',
    );
    expect(expired.message).toMatch(/expired/);
    const forged = tokenFor(
      { ...t, config: { ...t.config, JWT_SECRET: 'y'.repeat(64) } } as TestApp,
      owner.userId,
      owner.orgId,
      owner.sessionId,
      -5,
    );
    expectError(await call(t.app, { url: '/projects', headers: bearer(forged) }), 401, 'UNAUTHORIZED');
    expectError(await call(t.app, { url: '/projects', headers: bearer('a.b.c') }), 401, 'UNAUTHORIZED');
  });
});

describe('files that can never be processed', () => {
  const filesDir = () => join(t.config.dataDir, 'files');
  // Stored files (directories stay behind when their last file goes; they are not counted).
  const storedFiles = () => {
    try {
      return readdirSync(filesDir(), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    } catch {
      return 0;
    }
  };
  const docCount = async () =>
    (
      await t.testDb.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents WHERE project_id = $1', [
        projectId,
      ])
    ).rows[0].n;

  const pe = Buffer.alloc(512);
  pe.write('MZ', 0, 'latin1');
  pe.writeUInt32LE(0x80, 0x3c);
  pe.write('PE\0\0', 0x80, 'latin1');
  const tar = Buffer.alloc(1024);
  tar.write('invoice.pdf', 0, 'latin1');
  tar.write('ustar\u000000', 257, 'latin1');
  const refused: [string, Buffer, RegExp][] = [
    [
      'tool',
      Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(200, 1)]),
      /ELF executable/,
    ],
    ['setup.exe', pe, /Windows executable/],
    ['app', Buffer.concat([Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), Buffer.alloc(200, 7)]), /Mach-O executable/],
    [
      'invoices.zip',
      writeZip([
        { name: 'a.pdf', data: '%PDF-1.4 not really' },
        { name: 'b.txt', data: 'hello' },
      ]),
      /zip archive/,
    ],
    ['a.rar', Buffer.concat([Buffer.from('Rar!\x1a\x07\x01\x00', 'latin1'), Buffer.alloc(100, 3)]), /RAR archive/],
    [
      'a.7z',
      Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]), Buffer.alloc(100, 5)]),
      /7z archive/,
    ],
    ['a.tar', tar, /tar archive/],
    ['a.txt.gz', Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.alloc(100, 9)]), /gzip archive/],
  ];

  it('executables and archives are refused with 415 naming the accepted types; no file and no row stays', async () => {
    const filesBefore = storedFiles();
    const docsBefore = await docCount();
    for (const [name, data, kind] of refused) {
      const err = expectError(await upload(t, owner, projectId, name, data), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(err.message, name).toMatch(kind);
      expect(err.message, name).toMatch(/accepted types: PDF .*DOCX.*plain text/);
    }
    expect(storedFiles()).toBe(filesBefore);
    expect(await docCount()).toBe(docsBefore);
  });

  it('look-alikes are still accepted: DOCX (a zip with [Content_Types].xml), text starting with "MZ", an .eml', async () => {
    const docx = writeZip(docxEntries('<w:p><w:r><w:t>Invoice 12</w:t></w:r></w:p>'));
    expect((await upload(t, owner, projectId, 'letter.docx', docx)).statusCode).toBe(201);
    expect(
      (await upload(t, owner, projectId, 'mz.txt', Buffer.from('MZ Transport GmbH\nInvoice 99\nTotal 12.00 EUR\n')))
        .statusCode,
    ).toBe(201);
    // An e-mail is accepted even when it carries an archive; its attachments are handled at parse.
    const eml = buildMessage({
      from: 'Ann <ann@supplier.example>',
      subject: 'Invoice',
      body: mimeMultipart('mixed', [
        textPart('Invoice attached'),
        attachmentPart({
          content: writeZip([{ name: 'x.txt', data: 'x' }]),
          contentType: 'application/zip',
          filename: 'x.zip',
        }),
      ]),
    });
    const res = await upload(t, owner, projectId, 'mail.eml', eml);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.mime_type).toBe('message/rfc822');
  });
});
