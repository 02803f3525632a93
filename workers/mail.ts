// The `mail` worker role: the IMAP poller of the e-mail intake module (one per process; mailboxes
// are shared out between the processes that run it through leases in Redis).
import {
  startMailPoller,
  type MailPoller,
  type MailPollerOptions,
  type MailWorkerDeps,
} from '../src/modules/integrations/mailbox/index.js';
import type { Metrics } from '../src/modules/metrics/index.js';

/** Starts the `mail` worker role: a poller with the module's defaults under `opts`; its mailboxes are reported in `metrics`. */
export async function startMailWorker(
  m: MailWorkerDeps,
  opts: MailPollerOptions = {},
  metrics?: Pick<Metrics, 'trackMailPoller'>,
): Promise<MailPoller> {
  const merged: MailPollerOptions = {
    ...m.defaults,
    ...opts,
    connect: { lookup: m.lookup, ...m.defaults.connect, ...opts.connect },
  };
  const poller = await startMailPoller(m.poller, merged);
  const untrack = metrics?.trackMailPoller(poller);
  const attached = m.attach(poller);
  const detach = () => {
    attached();
    untrack?.();
  };
  const close = poller.close.bind(poller);
  const crash = poller.crash.bind(poller);
  return Object.assign(poller, {
    async close(timeoutMs?: number) {
      detach();
      await close(timeoutMs);
    },
    async crash() {
      detach();
      await crash();
    },
  });
}
