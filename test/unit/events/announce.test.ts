// Commits announce their events: the events module's database nudges the relay once per committed
// transaction (or autocommitted statement) that wrote to the outbox, after the commit, and never
// for a rollback or a statement that did not write an outbox row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../../src/db/client.js';
import { announceOutboxWrites } from '../../../src/modules/events/announce.js';
import { insertEvent, insertEventFromRowSql } from '../../../src/modules/events/events.repository.js';

describe('announceOutboxWrites', () => {
  let raw: Db;
  let db: Db;
  // Each announcement records how many events were visible outside the transaction at that moment.
  const seen: number[] = [];
  let calls = 0;
  const countEvents = async () => (await raw.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0].n;

  beforeAll(async () => {
    raw = await createDb({});
    await raw.query(
      `CREATE TABLE events (id text PRIMARY KEY, org_id text, environment text, type text, data jsonb,
         created_at timestamptz DEFAULT now(), relayed_at timestamptz)`,
    );
    await raw.query('CREATE TABLE things (id text PRIMARY KEY, org_id text, environment text)');
    db = announceOutboxWrites(raw, () => {
      calls++;
      void countEvents().then((n) => seen.push(n));
    });
  });
  afterAll(async () => {
    await raw.close();
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const flush = async (n: number) => {
    // The announcement's own read runs after it; wait for the ones expected.
    for (let i = 0; i < 100 && seen.length < n; i++) await settle();
  };

  it('announces once per committed transaction that wrote events, after the commit', async () => {
    seen.length = 0;
    await db.tx(async (q) => {
      await insertEvent(q, { orgId: 'o', environment: 'live', type: 'document.uploaded', data: {} });
      await insertEvent(q, { orgId: 'o', environment: 'live', type: 'document.deleted', data: {} });
    });
    await flush(1);
    expect(seen).toEqual([2]);
  });

  it('announces a statement that writes a row and its event together', async () => {
    seen.length = 0;
    await db.query(
      `WITH t AS (INSERT INTO things (id, org_id, environment) VALUES ('t1', 'o', 'live') RETURNING *),
       e AS (${insertEventFromRowSql('t', { id: `'evt_t1'`, type: `'document.uploaded'`, data: `'{}'::jsonb` })})
       SELECT id FROM t`,
    );
    await flush(1);
    expect(seen).toEqual([3]);
  });

  it('announces nothing for a rollback or for writes that are not outbox events', async () => {
    const before = calls;
    await expect(
      db.tx(async (q) => {
        await insertEvent(q, { orgId: 'o', environment: 'live', type: 'document.uploaded', data: {} });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await db.tx(async (q) => {
      await q.query(`INSERT INTO things (id, org_id, environment) VALUES ('t2', 'o', 'live')`);
    });
    // Already relayed (a webhook test event): no mark, no nudge.
    await db.query(
      `INSERT INTO events (id, org_id, environment, type, data, relayed_at) VALUES ('evt_x', 'o', 'live', 'webhook.test', '{}', now())`,
    );
    // The announcement is made synchronously at the end of the commit: none was made.
    expect(calls).toBe(before);
    expect(await countEvents()).toBe(4);
  });
});
