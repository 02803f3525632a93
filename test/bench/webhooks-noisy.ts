// The "noisy neighbour" rows of `npm run bench -- webhooks`: one organization has three
// subscriptions to a server that accepts connections and never answers, and keeps producing
// events; meanwhile another organization's events are paced as in the quiet run, and its
// commit → receiver latency is compared with the quiet run's.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Db } from '../../src/db/client.js';
import { insertEvent } from '../../src/modules/events/events.repository.js';

/** A TCP server that accepts and reads but never answers; counts the connections it holds. */
export interface DeadServer {
  url: string;
  open(): number;
  maxOpen(): number;
  close(): Promise<void>;
}

export async function startDeadServer(): Promise<DeadServer> {
  const sockets = new Set<Socket>();
  let max = 0;
  const server: Server = createServer((s) => {
    sockets.add(s);
    max = Math.max(max, sockets.size);
    s.on('data', () => undefined);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    open: () => sockets.size,
    maxOpen: () => max,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * Emits `document.processed` events for `orgId` at `perSec` until stopped (one per transaction,
 * as a pipeline stage would); returns how many it wrote.
 */
export function startNoise(db: Db, orgId: string, perSec: number, nudge: () => void): { stop(): Promise<number> } {
  let n = 0;
  let stopped = false;
  const loop = (async () => {
    const started = Date.now();
    while (!stopped) {
      await db.tx((q) =>
        insertEvent(q, {
          orgId,
          environment: 'live',
          type: 'document.processed',
          data: { documentId: `doc_noise_${n}` },
        }),
      );
      n++;
      nudge();
      const wait = started + (n / perSec) * 1000 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return n;
    },
  };
}
