// Commits announce their events: every statement that writes to the outbox carries the events
// repository's OUTBOX_WRITE mark, and the database handed to the rest of the process is wrapped
// here so that a transaction (or an autocommitted statement) that ran one tells the relay once it
// has committed. Writers therefore never nudge by hand, and cannot forget to.
import type { Db, Queryable } from '../../db/client.js';
import { writesOutbox } from './events.repository.js';

/**
 * `db` whose commits that wrote outbox events call `announce` (after COMMIT, never inside the
 * transaction, so the relay can see the rows). A rolled-back transaction announces nothing.
 * `announce` must not throw; a nudge is an optimisation the relay's timer backs up.
 */
export function announceOutboxWrites(db: Db, announce: () => void): Db {
  const safely = (): void => {
    try {
      announce();
    } catch {
      // The relay's periodic pass finds the events anyway.
    }
  };
  const wrapped: Db = {
    kind: db.kind,
    async query<T>(sql: string, params?: unknown[]) {
      const res = await db.query<T>(sql, params);
      if (writesOutbox(sql)) safely();
      return res;
    },
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      let wrote = false;
      const result = await db.tx((q) =>
        fn({
          query<R>(sql: string, params?: unknown[]) {
            if (writesOutbox(sql)) wrote = true;
            return q.query<R>(sql, params);
          },
        }),
      );
      if (wrote) safely();
      return result;
    },
    ping: () => db.ping(),
    close: () => db.close(),
  };
  if (db.dumpDataDir) wrapped.dumpDataDir = () => db.dumpDataDir!();
  return wrapped;
}
