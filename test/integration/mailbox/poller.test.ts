// The poller against a real Dovecot (no pipeline workers: documents stay `uploaded`, which is all
// these tests look at): rules and skip reasons, eml consumption, failures with backoff and the
// failed folder, a bad password, a server that goes away, and hostile mail.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attachmentPart,
  bigMessage,
  buildMessage,
  charsetMessages,
  edgeCaseMessage,
  inlineImageMessage,
  invoiceMessage,
  manyAttachmentsMessage,
  multipart,
  nestedMessage,
  textPart,
  tinyPdf,
  TINY_PNG,
} from '../../helpers/mail-fixtures.js';
import { createMailHarness, eventually, TEST_POLLER_OPTIONS, type MailHarness } from '../../helpers/mail-harness.js';
import type { MailPoller } from '../../../src/modules/integrations/mailbox/index.js';
import type { MailMessageRow } from '../../../src/modules/integrations/mailbox/mailbox.types.js';

const USERS = ['rules', 'eml', 'life', 'fail', 'auth', 'outage', 'hostile', 'corpus'];
// Real-world hostile mail kept outside the repository (evaluation data, see its README).
const CORPUS = fileURLToPath(new URL('../../../../shared/corpora/robustness/eml', import.meta.url));
const corpusPresent = existsSync(CORPUS);
if (!corpusPresent) console.warn(`robustness corpus not found at ${CORPUS}: the corpus test is skipped`);
let h: MailHarness;
let poller: MailPoller;

beforeAll(async () => {
  h = await createMailHarness({ users: USERS });
  poller = await h.startPoller();
});
afterAll(async () => {
  await h?.close();
});

/** Waits until `n` records of the mailbox are in a final state, and returns them. */
async function settled(mailboxId: string, n: number, timeoutMs = 15_000): Promise<MailMessageRow[]> {
  return eventually(
    async () => {
      const rows = await h.messages(mailboxId);
      return rows.length >= n && rows.every((r) => r.status !== 'processing') && rows;
    },
    `${n} settled messages in ${mailboxId}`,
    timeoutMs,
  );
}

const pdf = (text: string) => tinyPdf(text);
const bySubject = (rows: MailMessageRow[]) => Object.fromEntries(rows.map((r) => [r.subject ?? '', r] as const));

describe('rules and skip reasons', () => {
  it('records consumed, skipped and why; skipped mail is left untouched', async () => {
    const projectId = await h.createProject({ allowed_file_types: ['pdf'] });
    const mailbox = await h.createMailbox('rules', {
      project_id: projectId,
      allowed_senders: ['@vendor.example'],
      subject_filter: 'invoice',
      attachment_exclude: ['*-draft.pdf'],
    });
    const from = 'Billing <billing@vendor.example>';
    const mk = (subject: string, parts: ReturnType<typeof attachmentPart>[], sender = from) =>
      buildMessage({ from: sender, subject, body: multipart('mixed', [textPart('hello'), ...parts]) });
    await h.dovecot.appendMessage(
      'rules',
      'INBOX',
      mk('Invoice 1', [
        attachmentPart({ filename: 'inv-1.pdf', contentType: 'application/pdf', content: pdf('Invoice one') }),
        attachmentPart({
          filename: 'inv-1-draft.pdf',
          contentType: 'application/pdf',
          content: pdf('Invoice one draft'),
        }),
        attachmentPart({ filename: 'notes.txt', contentType: 'text/plain', content: Buffer.from('plain notes\n') }),
      ]),
    );
    await h.dovecot.appendMessage(
      'rules',
      'INBOX',
      mk(
        'Invoice 2',
        [attachmentPart({ filename: 'x.pdf', contentType: 'application/pdf', content: pdf('Stranger') })],
        'Eve <eve@other.example>',
      ),
    );
    await h.dovecot.appendMessage(
      'rules',
      'INBOX',
      mk('Newsletter', [attachmentPart({ filename: 'n.pdf', contentType: 'application/pdf', content: pdf('News') })]),
    );
    await h.dovecot.appendMessage(
      'rules',
      'INBOX',
      mk('Invoice photo', [attachmentPart({ filename: 'photo.png', contentType: 'image/png', content: TINY_PNG })]),
    );
    await h.dovecot.appendMessage('rules', 'INBOX', inlineImageMessage({ from, subject: 'Invoice statement' }));
    await h.dovecot.appendMessage('rules', 'INBOX', mk('Invoice without files', []));

    const rows = bySubject(await settled(mailbox.id, 6));
    expect(rows['Invoice 1']).toMatchObject({ status: 'consumed', action: 'mark_seen' });
    const parts1 = Object.fromEntries(rows['Invoice 1'].parts.map((p) => [p.filename, [p.outcome, p.reason ?? null]]));
    expect(parts1).toEqual({
      'inv-1.pdf': ['created', null],
      'inv-1-draft.pdf': ['skipped', 'excluded_by_filter'],
      'notes.txt': ['skipped', 'type_not_allowed'],
    });
    expect(rows['Invoice 2']).toMatchObject({
      status: 'skipped',
      reason: 'sender_not_allowed',
      sender: 'eve@other.example',
    });
    expect(rows['Newsletter']).toMatchObject({ status: 'skipped', reason: 'subject_not_matched' });
    expect(rows['Invoice photo']).toMatchObject({ status: 'skipped', reason: 'no_acceptable_attachments' });
    expect(rows['Invoice photo'].parts).toMatchObject([
      { filename: 'photo.png', outcome: 'skipped', reason: 'type_not_allowed' },
    ]);
    expect(rows['Invoice statement'].status).toBe('consumed');
    expect(rows['Invoice statement'].parts.map((p) => [p.filename, p.outcome, p.reason ?? null])).toEqual([
      ['statement.pdf', 'created', null],
      ['logo.png', 'skipped', 'inline'],
    ]);
    expect(rows['Invoice without files']).toMatchObject({ status: 'skipped', reason: 'no_attachments' });

    const docs = await h.documents(projectId);
    expect(docs.map((d) => d.filename).sort()).toEqual(['inv-1.pdf', 'statement.pdf']);
    // mark_seen only for consumed mail, after the fact; skipped mail stays unread.
    await eventually(
      async () => (await h.messages(mailbox.id)).filter((r) => r.action_done_at).length === 2,
      'actions',
    );
    const flags = Object.fromEntries(
      (await h.dovecot.listFolder('rules', 'INBOX')).map((m) => [m.subject, m.flags.includes('\\Seen')]),
    );
    expect(flags).toEqual({
      'Invoice 1': true,
      'Invoice 2': false,
      Newsletter: false,
      'Invoice photo': false,
      'Invoice statement': true,
      'Invoice without files': false,
    });
    const api = (await h.api('GET', `/integrations/mailboxes/${mailbox.id}/messages?status=skipped&limit=10`)).body;
    expect(api.pagination.total).toBe(4);
    expect(api.data.map((m: { reason: string }) => m.reason).sort()).toEqual([
      'no_acceptable_attachments',
      'no_attachments',
      'sender_not_allowed',
      'subject_not_matched',
    ]);
  });

  it('a skipped message can be retried after the rules change', async () => {
    const mailbox = (await h.api('GET', '/integrations/mailboxes')).body.data.find(
      (m: { username: string }) => m.username === 'rules',
    );
    const newsletter = (await h.messages(mailbox.id)).find((r) => r.subject === 'Newsletter')!;
    expect((await h.api('PUT', `/integrations/mailboxes/${mailbox.id}`, { subject_filter: null })).status).toBe(200);
    const res = await h.api('POST', `/integrations/mailboxes/${mailbox.id}/messages/${newsletter.id}/retry`);
    expect(res.status).toBe(202);
    const row = await eventually(
      async () => (await h.messages(mailbox.id)).find((r) => r.id === newsletter.id && r.status === 'consumed'),
      'newsletter consumed',
    );
    expect(row.document_ids).toHaveLength(1);
  });
});

describe('consume modes', () => {
  it('eml stores the whole message as one .eml document; both adds the attachments', async () => {
    const projectId = await h.createProject();
    const mailbox = await h.createMailbox('eml', { project_id: projectId, consume: 'eml', after_processing: 'flag' });
    await h.dovecot.appendMessage(
      'eml',
      'INBOX',
      invoiceMessage({ subject: 'Quarterly report', messageId: 'eml-1@test' }),
    );
    const [row] = await settled(mailbox.id, 1);
    expect(row.status).toBe('consumed');
    const docs = await h.documents(projectId);
    expect(docs.map((d) => d.filename)).toEqual(['Quarterly report.eml']);
    expect(docs[0].source_metadata.message_id).toBe('<eml-1@test>');
    await eventually(
      async () => (await h.dovecot.listFolder('eml', 'INBOX'))[0].flags.includes('\\Flagged'),
      'flagged',
    );

    await h.api('PUT', `/integrations/mailboxes/${mailbox.id}`, { consume: 'both' });
    await h.dovecot.appendMessage(
      'eml',
      'INBOX',
      invoiceMessage({ subject: 'Second report', messageId: 'eml-2@test' }),
    );
    await settled(mailbox.id, 2);
    const names = (await h.documents(projectId)).map((d) => d.filename).sort();
    // The attachments of the second message have the same bytes as the first one's: duplicates, not new documents.
    expect(names).toEqual(['Quarterly report.eml', 'Second report.eml', 'invoice-2024-001.pdf', 'notes.txt']);
  });
});

describe('mailbox lifecycle', () => {
  it('deactivating or deleting a mailbox closes its connection and frees the lease; reactivating resumes', async () => {
    const projectId = await h.createProject();
    const mailbox = await h.createMailbox('life', { project_id: projectId });
    const lease = () => h.deps.redis.get(`${h.config.REDIS_PREFIX}:mail:lease:${mailbox.id}`);
    await eventually(async () => poller.stats()[mailbox.id]?.connected, 'connected');
    expect(await lease()).toBe(poller.token);

    expect((await h.api('PUT', `/integrations/mailboxes/${mailbox.id}`, { is_active: false })).body.data.status).toBe(
      'inactive',
    );
    await eventually(
      async () => !poller.stats()[mailbox.id] && (await lease()) === null,
      'runner stopped, lease released',
    );
    await h.dovecot.appendMessage('life', 'INBOX', invoiceMessage({ messageId: 'life-1@test' }));
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.messages(mailbox.id)).toEqual([]);

    await h.api('PUT', `/integrations/mailboxes/${mailbox.id}`, { is_active: true });
    // Mail that arrived meanwhile is caught up at connect.
    await settled(mailbox.id, 1);
    expect((await h.messages(mailbox.id))[0].status).toBe('consumed');

    await h.api('DELETE', `/integrations/mailboxes/${mailbox.id}`);
    await eventually(
      async () => !poller.stats()[mailbox.id] && (await lease()) === null,
      'runner stopped after delete',
    );
    expect(await h.messages(mailbox.id)).toEqual([]);
    expect(await h.documents(projectId)).toHaveLength(2);
  });
});

describe('failures', () => {
  it('retries with backoff, then parks the message in failed_folder; a manual retry brings it back', async () => {
    const projectId = await h.createProject();
    const mailbox = await h.createMailbox('fail', {
      project_id: projectId,
      failed_folder: 'Failed',
      after_processing: 'move',
      processed_folder: 'Done',
    });
    // An archived project refuses documents: a failure that a later retry can get past.
    await h.api('POST', `/projects/${projectId}/archive`);
    await h.dovecot.appendMessage('fail', 'INBOX', invoiceMessage({ subject: 'Will fail', messageId: 'fail-1@test' }));
    const row = await eventually(
      async () => (await h.messages(mailbox.id)).find((r) => r.moved_to === 'Failed'),
      'message parked in Failed',
    );
    expect(row).toMatchObject({ status: 'failed', attempts: 3, next_attempt_at: null });
    expect(row.reason).toMatch(/archived/);
    expect(await h.dovecot.listFolder('fail', 'INBOX')).toEqual([]);
    const parked = await h.dovecot.listFolder('fail', 'Failed');
    expect(parked.map((m) => [m.subject, m.flags.includes('\\Seen')])).toEqual([['Will fail', false]]);
    expect(await h.documents(projectId)).toEqual([]);

    await h.api('POST', `/projects/${projectId}/unarchive`);
    expect((await h.api('POST', `/integrations/mailboxes/${mailbox.id}/messages/${row.id}/retry`)).status).toBe(202);
    const done = await eventually(
      async () => (await h.messages(mailbox.id)).find((r) => r.id === row.id && r.action_done_at),
      'retried message consumed',
    );
    expect(done).toMatchObject({ status: 'consumed', moved_to: null, attempts: 3 });
    expect((await h.documents(projectId)).map((d) => d.filename).sort()).toEqual(['invoice-2024-001.pdf', 'notes.txt']);
    expect(await h.dovecot.listFolder('fail', 'Failed')).toEqual([]);
    expect((await h.dovecot.listFolder('fail', 'Done')).map((m) => m.subject)).toEqual(['Will fail']);
  });

  it('a message over the size limit is recorded as failed and parked, not downloaded', async () => {
    await poller.close();
    const small = await h.startPoller({ connect: { ...TEST_POLLER_OPTIONS.connect, maxMessageBytes: 200_000 } });
    try {
      const projectId = await h.createProject();
      await h.dovecot.createFolder('fail', 'Big');
      const mailbox = await h.createMailbox('fail', { project_id: projectId, failed_folder: 'TooBig', folder: 'Big' });
      await h.dovecot.appendMessage('fail', 'Big', bigMessage(300_000, { subject: 'huge', messageId: 'huge@test' }));
      const row = await eventually(
        async () => (await h.messages(mailbox.id)).find((r) => r.moved_to),
        'the parked record',
      );
      expect(row).toMatchObject({ status: 'failed', moved_to: 'TooBig', next_attempt_at: null, attempts: 1 });
      expect(row.reason).toMatch(/too large/);
      expect((await h.dovecot.listFolder('fail', 'TooBig')).map((m) => m.subject)).toEqual(['huge']);
      await h.api('DELETE', `/integrations/mailboxes/${mailbox.id}`);
    } finally {
      await small.close();
      poller = await h.startPoller();
    }
  });

  it('bad password: status error once, no tight loop; a PUT with the right one resumes', async () => {
    const projectId = await h.createProject();
    await h.dovecot.appendMessage('auth', 'INBOX', invoiceMessage({ messageId: 'auth-1@test' }));
    const mailbox = await h.createMailbox('auth', { project_id: projectId, password: 'wrong' });
    const box = await eventually(async () => {
      const b = (await h.api('GET', `/integrations/mailboxes/${mailbox.id}`)).body.data;
      return b.status === 'error' && b;
    }, 'status error');
    expect(box.last_error).toMatch(/authentication failed/);
    // Several reconnect periods later there was still only the one login attempt.
    await new Promise((r) => setTimeout(r, 800));
    expect(poller.stats()[mailbox.id].connectAttempts).toBe(1);
    expect(await h.messages(mailbox.id)).toEqual([]);

    const res = await h.api('PUT', `/integrations/mailboxes/${mailbox.id}`, { password: 'pw-auth' });
    expect(res.body.data).toMatchObject({ status: 'active', last_error: null });
    const [row] = await settled(mailbox.id, 1);
    expect(row.status).toBe('consumed');
    expect((await h.api('GET', `/integrations/mailboxes/${mailbox.id}`)).body.data).toMatchObject({
      status: 'active',
      last_error: null,
    });
  });

  it('keeps going when the server stops and comes back', async () => {
    const projectId = await h.createProject();
    const mailbox = await h.createMailbox('outage', { project_id: projectId });
    await h.dovecot.appendMessage('outage', 'INBOX', invoiceMessage({ messageId: 'outage-1@test', subject: 'before' }));
    await settled(mailbox.id, 1);
    const connects = () => poller.stats()[mailbox.id].connectAttempts;
    const before = connects();
    await h.dovecot.stop(true);
    await eventually(async () => connects() >= before + 2, 'reconnect attempts while the server is down');
    const down = (await h.api('GET', `/integrations/mailboxes/${mailbox.id}`)).body.data;
    expect(down.last_error).toMatch(/connect|closed|lost/i);
    await h.dovecot.restart();
    await h.dovecot.appendMessage('outage', 'INBOX', invoiceMessage({ messageId: 'outage-2@test', subject: 'after' }));
    // Within the test's budget, and saying what the mailbox last reported if the runner did not
    // come back (a connection failure taken for a settings error waits errorRetryMs, 60 s here).
    const rows = await settled(mailbox.id, 2, 30_000).catch(async (err: Error) => {
      const m = (await h.api('GET', `/integrations/mailboxes/${mailbox.id}`)).body.data;
      throw new Error(`${err.message}; mailbox status ${m.status}, last_error ${JSON.stringify(m.last_error)}`);
    });
    expect(rows.map((r) => [r.subject, r.status])).toEqual([
      ['before', 'consumed'],
      ['after', 'consumed'],
    ]);
    await eventually(
      async () => (await h.api('GET', `/integrations/mailboxes/${mailbox.id}`)).body.data.last_error === null,
      'error cleared',
    );
  });
});

describe('hostile mail', () => {
  it('nested parts, odd charsets, 50 attachments, edge cases and a 40 MB message all end recorded', async () => {
    const projectId = await h.createProject({ allowed_file_types: ['pdf', 'text/plain'] });
    const mailbox = await h.createMailbox('hostile', { project_id: projectId });
    const cs = charsetMessages();
    const broken = Buffer.from(
      'From: x@y.example\r\nSubject: broken\r\nContent-Type: multipart/mixed; boundary="nope"\r\n\r\n--other\r\ngarbage\r\n',
    );
    const tnef = buildMessage({
      subject: 'tnef',
      body: multipart('mixed', [
        textPart('rtf'),
        attachmentPart({
          filename: 'winmail.dat',
          contentType: 'application/ms-tnef',
          content: Buffer.from('x\x9f>"\x12\x34'.repeat(20), 'latin1'),
        }),
      ]),
    });
    for (const raw of [
      nestedMessage({ subject: 'nested' }),
      cs.latin1,
      cs.cp1252,
      cs.shiftJis,
      manyAttachmentsMessage(50, { subject: 'fifty' }),
      edgeCaseMessage({ subject: 'edge' }),
      broken,
      tnef,
    ]) {
      await h.dovecot.appendMessage('hostile', 'INBOX', raw);
    }
    await h.dovecot.appendMessage(
      'hostile',
      'INBOX',
      bigMessage(40 * 1024 * 1024, { subject: 'forty megabytes', messageId: 'big-40@test' }),
    );
    const rows = bySubject(await settled(mailbox.id, 9, 45_000));
    expect(rows['nested'].parts.map((p) => [p.filename, p.outcome, p.reason ?? null])).toEqual([
      ['report.pdf', 'created', null],
      ['forwarded.eml', 'skipped', 'type_not_allowed'],
      ['attachment-1.png', 'skipped', 'inline'],
    ]);
    expect(rows['fifty']).toMatchObject({ status: 'consumed' });
    expect(rows['fifty'].parts.filter((p) => p.outcome === 'created')).toHaveLength(50);
    expect(rows['edge'].status).toBe('consumed');
    expect(rows['Rechnung März für Müller'].parts[0]).toMatchObject({
      filename: 'Rechnung_März.pdf',
      outcome: 'created',
    });
    expect(rows['請求書'].parts[0]).toMatchObject({ filename: '見積書.pdf' });
    expect(rows['tnef']).toMatchObject({ status: 'skipped', reason: 'no_acceptable_attachments' });
    expect(rows['tnef'].parts[0]).toMatchObject({ filename: 'winmail.dat', reason: 'tnef_not_supported' });
    expect(rows['forty megabytes']).toMatchObject({ status: 'skipped', reason: 'no_acceptable_attachments' });
    expect(rows['forty megabytes'].parts[0]).toMatchObject({ filename: 'blob.bin', reason: 'type_not_allowed' });
    expect(Number(rows['forty megabytes'].size_bytes)).toBeGreaterThan(40_000_000);
    expect(['consumed', 'skipped', 'failed']).toContain(rows['broken'].status);
    // The poller is still alive and serving.
    await h.dovecot.appendMessage('hostile', 'INBOX', invoiceMessage({ subject: 'after the storm' }));
    await eventually(
      async () =>
        (await h.messages(mailbox.id)).find((r) => r.subject === 'after the storm' && r.status === 'consumed'),
      'next message',
    );
  });

  it.skipIf(!corpusPresent)(
    'every file of the real-world robustness corpus ends consumed, skipped or failed',
    async () => {
      const files = readdirSync(CORPUS)
        .filter((f) => f.endsWith('.eml'))
        .sort();
      const projectId = await h.createProject();
      const mailbox = await h.createMailbox('corpus', { project_id: projectId });
      for (const f of files) await h.dovecot.appendMessage('corpus', 'INBOX', readFileSync(join(CORPUS, f)));
      const rows = await settled(mailbox.id, files.length, 30_000);
      expect(rows).toHaveLength(files.length);
      for (const r of rows) {
        expect(['consumed', 'skipped', 'failed']).toContain(r.status);
        if (r.status !== 'consumed') expect(r.reason).toBeTruthy();
      }
      const docs = await h.documents(projectId);
      expect(docs.length).toBeGreaterThan(5);
      expect(new Set(rows.flatMap((r) => r.document_ids))).toEqual(new Set(docs.map((d) => d.id)));
    },
  );
});
