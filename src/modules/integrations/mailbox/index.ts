// Wiring of e-mail intake: the mailbox service (behind /integrations/mailboxes) and what the `mail`
// worker role (the poller) needs. The container creates one module per process; the route index
// registers the routes, the worker table starts the poller. Both sides talk through the database
// and a Redis pub/sub nudge.
import type { Redis } from 'ioredis';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import type { SecretBox } from '../../../lib/crypto.js';
import type { Logger } from '../../../lib/logger.js';
import { createAllowList } from '../../../lib/http-client/index.js';
import type { Intake } from '../../documents/intake.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import { createHostPolicy, type HostLookup } from './host-policy.js';
import { createMailboxService, type MailboxService } from './mailbox.service.js';
import { createMailboxesRepository } from './mailboxes.repository.js';
import { createMessagesRepository } from './messages.repository.js';
import type { MailPoller, MailPollerDeps, MailPollerOptions } from './poller.js';

export type { MailboxService } from './mailbox.service.js';
export { startMailPoller, type MailPoller, type MailPollerOptions } from './poller.js';
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
  /** Defaults for the poller; the worker's own options win field by field. */
  poller?: MailPollerOptions;
  /** Name resolution for IMAP hosts (save-time checks, test and poller connects). Default: the system resolver. */
  lookup?: HostLookup;
}

/** What the `mail` worker role needs; workers/mail.ts starts it. */
export interface MailWorkerDeps {
  poller: MailPollerDeps;
  /** The module's poller defaults (tests shorten intervals). */
  defaults: MailPollerOptions;
  /** Name resolution for IMAP hosts, if not the system's. */
  lookup?: HostLookup;
  /** Makes `nudge` reach a poller started in this process directly; returns the undo. */
  attach(poller: MailPoller): () => void;
}

export interface MailModule {
  service: MailboxService;
  /** Tells every running poller (this process and others) that a mailbox changed. Never throws. */
  nudge(mailboxId: string): void;
  worker: MailWorkerDeps;
}

export function createMailModule(deps: MailModuleDeps, opts: MailModuleOptions = {}): MailModule {
  const channel = `${deps.config.REDIS_PREFIX}:mail:changed`;
  const hosts = createHostPolicy(createAllowList(deps.config.MAIL_ALLOWED_HOSTS), { lookup: opts.lookup });
  const mailboxes = createMailboxesRepository(deps.db);
  const messages = createMessagesRepository(deps.db);
  const local = new Set<MailPoller>();

  const nudge = (mailboxId: string): void => {
    for (const p of local) p.nudge(mailboxId);
    deps.redis
      .publish(channel, mailboxId)
      .catch((err: unknown) => deps.logger.warn({ err }, 'could not publish the mailbox change nudge'));
  };

  const service = createMailboxService({
    mailboxes,
    messages,
    projects: deps.projects,
    secretBox: deps.secretBox,
    hosts,
    notify: nudge,
    connect: { ...opts.poller?.connect, lookup: opts.lookup ?? opts.poller?.connect?.lookup },
  });

  return {
    service,
    nudge,
    worker: {
      poller: {
        mailboxes,
        messages,
        intake: deps.intake,
        redis: deps.redis,
        secretBox: deps.secretBox,
        hosts,
        logger: deps.logger,
        prefix: deps.config.REDIS_PREFIX,
        channel,
      },
      defaults: opts.poller ?? {},
      lookup: opts.lookup,
      attach(poller) {
        local.add(poller);
        return () => {
          local.delete(poller);
        };
      },
    },
  };
}
