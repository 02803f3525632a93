// Exactly-once consumption: a poller stopped or killed mid-batch, two pollers ("workers") on the
// same mailbox, and a folder whose UIDVALIDITY changes. Counted in documents and records.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attachmentPart, buildMessage, multipart, textPart, tinyPdf } from '../../helpers/mail-fixtures.js';
import { createMailHarness, eventually, TEST_POLLER_OPTIONS, type MailHarness } from '../../helpers/mail-harness.js';
import { createMailModule, type MailPoller } from '../../../src/modules/integrations/mailbox/index.js';
import { startMailWorker } from '../../../workers/mail.js';

let h: MailHarness;
const pollers: MailPoller[] = [];

beforeAll(async () => {
  h = await createMailHarness({ users: ['restart', 'pair', 'uidv'] });
});
afterEach(async () => {
  for (const p of pollers.splice(0)) await p.close(2_000);
});
afterAll(async () => {
  await h?.close();
});

async function poller(): Promise<MailPoller> {
  const p = await h.startPoller();
  pollers.push(p);
  return p;
}

/** A message with two attachments whose bytes are unique to (`tag`, n). */
function message(tag: string, n: number, withId = true): Buffer {
  return buildMessage({
    subject: `${tag} ${n}`,
    messageId: withId ? `${tag}-${n}@idempotency.test` : null,
    body: multipart('mixed', [
      textPart(`message ${n}`),
      attachmentPart({
        filename: `${tag}-${n}-a.pdf`,
        contentType: 'application/pdf',
        content: tinyPdf(`${tag} ${n} first`),
      }),
      attachmentPart({
        filename: `${tag}-${n}-b.pdf`,
        contentType: 'application/pdf',
        content: tinyPdf(`${tag} ${n} second`),
      }),
    ]),
  });
}

async function consumed(mailboxId: string): Promise<number> {
  return (await h.messages(mailboxId)).filter((r) => r.status === 'consumed').length;
}

/** Every attachment exactly once: documents, records and the links between them agree. */
async function expectExactlyOnce(mailboxId: string, projectId: string, messages: number): Promise<void> {
  const rows = await h.messages(mailboxId);
  const docs = await h.documents(projectId);
  expect(rows.filter((r) => r.status === 'consumed')).toHaveLength(messages);
  expect(new Set(rows.map((r) => r.message_key)).size).toBe(rows.length);
  expect(docs).toHaveLength(messages * 2);
  expect(new Set(docs.map((d) => d.sha256)).size).toBe(messages * 2);
  expect(new Set(docs.map((d) => d.filename)).size).toBe(messages * 2);
  const linked = rows.flatMap((r) => r.document_ids).sort();
  expect(linked).toEqual(docs.map((d) => d.id).sort());
  for (const d of docs)
    expect(rows.find((r) => r.id === d.source_metadata.mailbox_message_id)?.document_ids).toContain(d.id);
}

describe('exactly once', () => {
  it('survives a graceful restart and a crash in the middle of a batch', async () => {
    const projectId = await h.createProject();
    const mailbox = await h.createMailbox('restart', {
      project_id: projectId,
      after_processing: 'move',
      processed_folder: 'Done',
    });
    for (let i = 1; i <= 24; i++) await h.dovecot.appendMessage('restart', 'INBOX', message('restart', i));

    const a = await poller();
    await eventually(async () => (await consumed(mailbox.id)) >= 3, 'first messages');
    await a.close();
    // A second "worker" whose intake stalls after the first file of message 12, then dies there:
    // no claim released, no lease handed back, one of two documents committed.
    let stalled!: () => void;
    const atStall = new Promise<void>((r) => {
      stalled = r;
    });
    const stalling = createMailModule(
      {
        db: h.deps.db,
        redis: h.deps.redis,
        secretBox: h.deps.secretBox,
        config: h.config,
        logger: h.deps.logger,
        projects: h.deps.repos.projects,
        intake: {
          fromBuffer: async (data, input) => {
            if (input.filename === 'restart-12-b.pdf') {
              stalled();
              await new Promise(() => undefined);
            }
            return h.deps.documents.intake.fromBuffer(data, input);
          },
        },
      },
      { poller: TEST_POLLER_OPTIONS },
    );
    const b = await startMailWorker(stalling.worker);
    await atStall;
    await b.crash();
    const mid = (await h.messages(mailbox.id)).find((r) => r.subject === 'restart 12')!;
    expect(mid.status).toBe('processing');
    expect((await h.documents(projectId)).filter((d) => d.filename.startsWith('restart-12-'))).toHaveLength(1);
    await poller();
    await eventually(
      async () => (await consumed(mailbox.id)) === 24 && (await h.messages(mailbox.id)).every((r) => r.action_done_at),
      'all 24 consumed and moved',
      20_000,
    );

    await expectExactlyOnce(mailbox.id, projectId, 24);
    const twelve = (await h.messages(mailbox.id)).find((r) => r.subject === 'restart 12')!;
    expect(twelve.parts.map((x) => [x.filename, x.outcome])).toEqual([
      ['restart-12-a.pdf', 'created'],
      ['restart-12-b.pdf', 'created'],
    ]);
    expect(await h.dovecot.listFolder('restart', 'INBOX')).toEqual([]);
    expect(await h.dovecot.listFolder('restart', 'Done')).toHaveLength(24);
  });

  it('two pollers on one mailbox: one connection, each message once, takeover when the holder leaves', async () => {
    const [p1, p2] = await Promise.all([poller(), poller()]);
    const projectId = await h.createProject();
    const mailbox = await h.createMailbox('pair', { project_id: projectId });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => h.dovecot.appendMessage('pair', 'INBOX', message('pair', i + 1))),
    );
    await eventually(async () => (await consumed(mailbox.id)) === 20, '20 consumed');
    const holders = [p1, p2].filter((p) => p.stats()[mailbox.id]);
    expect(holders).toHaveLength(1);
    const [holder] = holders;
    const other = holder === p1 ? p2 : p1;

    await holder.close();
    for (let i = 21; i <= 25; i++) await h.dovecot.appendMessage('pair', 'INBOX', message('pair', i));
    await eventually(async () => (await consumed(mailbox.id)) === 25, 'the other poller takes over');
    expect(other.stats()[mailbox.id]).toBeDefined();
    await expectExactlyOnce(mailbox.id, projectId, 25);
  });

  it('a new UIDVALIDITY does not consume anything again (Message-ID or raw hash)', async () => {
    const projectId = await h.createProject();
    const mailbox = await h.createMailbox('uidv', { project_id: projectId, after_processing: 'mark_seen' });
    for (let i = 1; i <= 6; i++) await h.dovecot.appendMessage('uidv', 'INBOX', message('uidv', i, i % 3 !== 0));
    const p = await poller();
    await eventually(async () => (await consumed(mailbox.id)) === 6, '6 consumed');
    await p.close();

    const first = await h.dovecot.setUidValidity('uidv', 'INBOX');
    const q = await poller();
    await h.dovecot.appendMessage('uidv', 'INBOX', message('uidv', 7));
    await eventually(async () => (await consumed(mailbox.id)) === 7, 'the new message');
    let rows = await h.messages(mailbox.id);
    // The old records moved to the new numbering instead of being consumed again.
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((r) => Number(r.uid_validity)))).toEqual(new Set([first]));

    // Renumbered again while the poller is connected.
    const second = await h.dovecot.setUidValidity('uidv', 'INBOX');
    await h.dovecot.appendMessage('uidv', 'INBOX', message('uidv', 8, false));
    await eventually(async () => (await consumed(mailbox.id)) === 8, 'message 8');
    await eventually(
      async () => (await h.messages(mailbox.id)).every((r) => Number(r.uid_validity) === second),
      'records renumbered',
    );
    rows = await h.messages(mailbox.id);
    expect(rows).toHaveLength(8);
    expect(q.stats()[mailbox.id].outcomes.duplicate ?? 0).toBe(0);
    await expectExactlyOnce(mailbox.id, projectId, 8);
  });
});
