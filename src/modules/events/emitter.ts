// The one way events enter the outbox: written with the change that caused them, inside its
// transaction. Statements that write a row and its event together use the events repository's
// SQL (insertEventFromRowSql). Nobody announces them by hand: the process's database tells the
// relay once a transaction that wrote to the outbox has committed (announce.ts).
import type { Queryable } from '../../db/client.js';
import { insertEvent, type NewEvent } from './events.repository.js';

export interface EventEmitter {
  /** Stores `e` in the outbox with the caller's transaction; returns its id. */
  insert(q: Queryable, e: NewEvent): Promise<string>;
}

export function createEventEmitter(): EventEmitter {
  return { insert: insertEvent };
}
