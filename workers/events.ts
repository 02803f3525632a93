// The `events` worker role: the outbox relay. It hands every committed event to the consumers the
// container registered (webhook deliveries, workflow triggers, Sheets exports), woken by the
// nudge a commit sends and by a timer. Any number of processes may run it (they share the backlog).
import type { EventsWorkerDeps } from '../src/modules/events/index.js';
import { startOutboxRelay } from './outbox-relay.js';

export interface RunningEventsWorker {
  close(): Promise<void>;
}

export async function startEventsWorker(deps: EventsWorkerDeps): Promise<RunningEventsWorker> {
  const relay = await startOutboxRelay({
    db: deps.db,
    redis: deps.redis,
    channel: deps.channel,
    consumers: deps.consumers,
    intervalMs: deps.options.relayIntervalMs,
    batchSize: deps.options.relayBatchSize,
    logger: deps.logger,
  });
  const detach = deps.attachRelay(relay);
  return {
    async close() {
      detach();
      await relay.close();
    },
  };
}
