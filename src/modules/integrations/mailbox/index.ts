// Wiring of e-mail intake: the /integrations/mailboxes API and the `mail` worker role (poller).
// The container creates one module per process; the API registers the routes, workers start
// the poller. Both sides talk through the database and a Redis pub/sub nudge.
import type { Redis } from 'ioredis';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import type { SecretBox } from '../../../lib/crypto.js';
import type { Logger } from '../../../lib/logger.js';
import { createAllowList } from '../../../lib/http-client/index.js';
import { registerMailboxRoutes } from '../../../http/routes/mailboxes/index.js';
import type { Intake } from '../../documents/intake.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import { createHostPolicy, type HostLookup } from './host-policy.js';
import { createMailboxService, type MailboxService } from './mailbox.service.js';
import { createMailboxesRepository } from './mailboxes.repository.js';
import { createMessagesRepository } from './messages.repository.js';
import { startMailPoller, type MailPoller, type MailPollerOptions } from './poller.js';

export type { MailboxService } from './mailbox.service.js';
export type { MailPoller, MailPollerOptions } from './poller.js';
export { DEFAULT_RETRY_DELAYS_MS } from './poller.js';

export interface MailModuleDeps {
  db: Db;
  /** Command connection; the poller duplicates it for its pub/sub subscription. */
  redis: Redis;
  secretBox: SecretBox;
  config: Pick<Config, 'MAIL_ALLOWED_HOSTS' | 'REDIS_PREFIX'>;
  logger: Logger;
  /** Document intake (deps.documents.intake). */
  intake: Pick<Intake, 'fromBuffer'>;
  /** Projects repository (deps.repos.projects), to check project_id in scope. */
  projects: Pick<ProjectsRepository, 'get'>;
}

export interface MailModuleOptions {
  /** Defaults for {@link MailModule.startPoller}; its own argument wins field by field. */
  poller?: MailPollerOptions;
  /** Name resolution for IMAP hosts (save-time checks, test and poller connects). Default: the system resolver. */
  lookup?: HostLookup;
}

export interface MailModule {
  service: MailboxService;
  /** Registers /integrations/mailboxes… (call inside the /api/v1 prefix, e.g. via deps.extraRoutes). */
  registerRoutes(api: Parameters<typeof registerMailboxRoutes>[0]): void;
  /** Starts the `mail` worker role in this process. */
  startPoller(opts?: MailPollerOptions): Promise<MailPoller>;
  /** Tells every running poller (this process and others) that a mailbox changed. Never throws. */
  nudge(mailboxId: string): void;
}

export function createMailModule(deps: MailModuleDeps, opts: MailModuleOptions = {}): MailModule {
  const channel = `${deps.config.REDIS_PREFIX}:mail:changed`;
  const hosts = createHostPolicy(createAllowList(deps.config.MAIL_ALLOWED_HOSTS), { lookup: opts.lookup });
  const mailboxes = createMailboxesRepository(deps.db);
  const messages = createMessagesRepository(deps.db);
  const local = new Set<MailPoller>();

  const nudge = (mailboxId: string): void => {
    for (const p of local) p.nudge(mailboxId);
    deps.redis.publish(channel, mailboxId).catch((err: unknown) => deps.logger.warn({ err }, 'could not publish the mailbox change nudge'));
  };

  const service = createMailboxService({
    mailboxes, messages, projects: deps.projects, secretBox: deps.secretBox, hosts, notify: nudge,
    connect: { ...opts.poller?.connect, lookup: opts.lookup ?? opts.poller?.connect?.lookup },
  });

  return {
    service,
    nudge,
    registerRoutes: (api) => registerMailboxRoutes(api, service),
    async startPoller(o = {}) {
      const merged: MailPollerOptions = { ...opts.poller, ...o, connect: { lookup: opts.lookup, ...opts.poller?.connect, ...o.connect } };
      const poller = await startMailPoller({
        mailboxes, messages, intake: deps.intake, redis: deps.redis, secretBox: deps.secretBox, hosts, logger: deps.logger,
        prefix: deps.config.REDIS_PREFIX, channel,
      }, merged);
      local.add(poller);
      const close = poller.close.bind(poller);
      const crash = poller.crash.bind(poller);
      return Object.assign(poller, {
        async close(timeoutMs?: number) {
          local.delete(poller);
          await close(timeoutMs);
        },
        async crash() {
          local.delete(poller);
          await crash();
        },
      });
    },
  };
}
