// Mailbox leases shared out between pollers (worker processes): each holds at most
// ceil(mailboxes / live pollers), counted through the Redis heartbeat set, and the share moves
// when pollers come, leave cleanly or die. Every mailbox keeps exactly one holder throughout,
// and mail sent meanwhile is consumed once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MailPoller } from '../../../src/modules/integrations/mailbox/index.js';
import { createLeaseStore } from '../../../src/modules/integrations/mailbox/lease.js';
import { buildMessage, textPart, attachmentPart, multipart, tinyPdf } from '../../helpers/mail-fixtures.js';
import { createMailHarness, eventually, type MailHarness } from '../../helpers/mail-harness.js';

const USERS = ['bal1', 'bal2', 'bal3', 'bal4'];
let h: MailHarness;
const pollers: MailPoller[] = [];

beforeAll(async () => {
  h = await createMailHarness({ users: USERS });
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

const held = (p: MailPoller) => Object.keys(p.stats()).sort();

function message(user: string, n: number): Buffer {
  return buildMessage({
    subject: `${user} ${n}`,
    messageId: `${user}-${n}@balance.test`,
    body: multipart('mixed', [
      textPart(`message ${n}`),
      attachmentPart({
        filename: `${user}-${n}.pdf`,
        contentType: 'application/pdf',
        content: tinyPdf(`${user} ${n}`),
      }),
    ]),
  });
}

describe('mailbox lease balancing', () => {
  it('shares mailboxes out between pollers and re-balances as they come and go', { timeout: 90_000 }, async () => {
    const projectId = await h.createProject();
    const mailboxes = await Promise.all(USERS.map((u) => h.createMailbox(u, { project_id: projectId })));
    const ids = mailboxes.map((m) => m.id as string).sort();
    const leases = createLeaseStore(h.deps.redis, { prefix: h.config.REDIS_PREFIX, token: 'observer', ttlMs: 1_000 });
    /** Each mailbox's lease names exactly one of `ps`, which serves it. */
    const oneHolderEach = async (ps: MailPoller[]) => {
      for (const id of ids) {
        const holder = await leases.holder(id);
        const serving = ps.filter((p) => p.stats()[id]);
        if (serving.length !== 1 || holder !== serving[0].token) return false;
      }
      return true;
    };

    const a = await poller();
    await eventually(async () => held(a).length === 4, 'the only poller holds all four');
    const b = await poller();
    await eventually(
      async () => held(a).length === 2 && held(b).length === 2 && (await oneHolderEach([a, b])),
      'two pollers hold two each',
      15_000,
    );
    expect([...held(a), ...held(b)].sort()).toEqual(ids);

    // Mail for every mailbox while shared: each message consumed once, each mailbox served.
    for (const u of USERS) for (let i = 1; i <= 3; i++) await h.dovecot.appendMessage(u, 'INBOX', message(u, i));
    await eventually(
      async () => {
        for (const m of mailboxes)
          if ((await h.messages(m.id)).filter((r) => r.status === 'consumed').length !== 3) return false;
        return true;
      },
      'three messages consumed in every mailbox',
      30_000,
    );
    for (const m of mailboxes) {
      const rows = await h.messages(m.id);
      expect(rows).toHaveLength(3);
      expect(new Set(rows.map((r) => r.message_key)).size).toBe(3);
    }
    expect((await h.documents(projectId)).length).toBe(12);

    // A third poller: the share is ceil(4 / 3) = 2; nobody holds more than that.
    const c = await poller();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await oneHolderEach([a, b, c])).toBe(true);
    expect(Math.max(held(a).length, held(b).length, held(c).length)).toBeLessThanOrEqual(2);

    // b leaves cleanly (off the heartbeat set at once): a and c take its mailboxes, two each.
    await b.close();
    pollers.splice(pollers.indexOf(b), 1);
    await eventually(
      async () => held(a).length === 2 && held(c).length === 2 && (await oneHolderEach([a, c])),
      'a and c share after b left',
      15_000,
    );

    // c dies (leases and heartbeat left to expire): a takes everything.
    await c.crash();
    pollers.splice(pollers.indexOf(c), 1);
    await eventually(
      async () => held(a).length === 4 && (await oneHolderEach([a])),
      'a alone holds all four after c died',
      15_000,
    );
    for (const u of USERS) await h.dovecot.appendMessage(u, 'INBOX', message(u, 4));
    await eventually(
      async () => (await h.documents(projectId)).length === 16,
      'the fourth message of every mailbox',
      30_000,
    );
  });
});
