import { describe, expect, it } from 'vitest';
import { eventsRelayWarning } from '../../../workers/index.js';

describe('a worker started without the events queue', () => {
  it('is told that nothing reaches webhooks, workflows or Sheets unless some process relays events', () => {
    expect(eventsRelayWarning(['parse', 'embed'])).toMatch(
      /does not relay events \(--queues parse,embed\).*docpipe worker --queues events/,
    );
    expect(eventsRelayWarning(['parse', 'events'])).toBeNull();
    // The default set includes events.
    expect(eventsRelayWarning(undefined)).toBeNull();
  });
});
