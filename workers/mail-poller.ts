// The `mail` worker role: the IMAP poller of the e-mail intake module, started by startWorkers
// like any other role (`docpipe worker --queues mail`, `docpipe start`).
import type { Deps } from '../src/container.js';
import type { MailModule, MailPollerOptions } from '../src/modules/integrations/mailbox/index.js';
import type { WorkerStarter } from './index.js';

/**
 * An entry for startWorkers' `extra` list. `module` picks the process's mail module out of the
 * deps (for example `(deps) => deps.mail`); `opts` tunes the poller (production defaults otherwise).
 */
export function mailWorker(module: (deps: Deps) => Pick<MailModule, 'startPoller'>, opts?: MailPollerOptions): { name: 'mail'; start: WorkerStarter } {
  return {
    name: 'mail',
    start: async (deps) => module(deps).startPoller(opts),
  };
}
