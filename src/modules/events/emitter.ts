// The one way events enter the outbox: written with the change that caused them, inside its
// transaction, then announced once that transaction committed, so the relays pick them up at
// once instead of on their next pass. Statements that write a row and its event together use
// the events repository's SQL (insertEventFromRowSql) and announce through `committed` the same way.
import type { Queryable } from '../../db/client.js';
import { insertEvent, type NewEvent } from './events.repository.js';

export interface EventEmitter {
  /** Stores `e` in the outbox with the caller's transaction; returns its id. */
  insert(q: Queryable, e: NewEvent): Promise<string>;
  /** After commit: events were stored. Never throws. */
  committed(): void;
}

/** `onCommitted`: who wants to know (the webhook relay's nudge). */
export function createEventEmitter(onCommitted: () => void = () => undefined): EventEmitter {
  return {
    insert: insertEvent,
    committed() {
      try {
        onCommitted();
      } catch {
        // A nudge is an optimisation: the relays' timers find the events anyway.
      }
    },
  };
}
