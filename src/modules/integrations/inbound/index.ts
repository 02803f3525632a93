// Wiring of inbound intake without a mailbox: the SMTP receiver (worker role `smtp`) and what it
// needs. The container creates one module per process; the worker table starts the receiver.
import { promises as dns } from 'node:dns';
import type { Redis } from 'ioredis';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import type { Logger } from '../../../lib/logger.js';
import type { DocumentRow } from '../../documents/documents.types.js';
import type { Intake } from '../../documents/intake.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { DnsResolver } from './authentication.js';
import { cachingResolver } from './dns-cache.js';
import { createInboundMessagesRepository } from './messages.repository.js';
import { createRateLimiter } from './rate-limit.js';
import { createReplier, type Replier } from './replies.js';
import { startSmtpReceiver, type SmtpReceiver, type SmtpReceiverOptions } from './smtp-receiver.js';

export type { DnsResolver, SmtpVerdicts } from './authentication.js';
export type { SmtpReceiver, SmtpReceiverOptions } from './smtp-receiver.js';
export { localPartAt } from './smtp-receiver.js';

export interface InboundModuleOptions {
  /** DNS for SPF/DKIM/DMARC/ARC (tests answer from a table). Default: the system resolver behind a short cache (dns-cache.ts). */
  resolver?: DnsResolver;
  /** Receiver settings over the configuration's (tests: port 0, hooks). */
  smtp?: Partial<SmtpReceiverOptions>;
  /** Quiet time per sender between two replies, ms (default one hour). */
  replyIntervalMs?: number;
}

type InboundConfig = Pick<
  Config,
  | 'SMTP_PORT'
  | 'SMTP_HOST'
  | 'INBOUND_DOMAIN'
  | 'SMTP_TLS_CERT'
  | 'SMTP_TLS_KEY'
  | 'SMTP_MAX_MESSAGE_BYTES'
  | 'MAX_UPLOAD_MB'
  | 'SMTP_CONNECTIONS_PER_IP_PER_MINUTE'
  | 'SMTP_MESSAGES_PER_IP_PER_MINUTE'
  | 'SMTP_RELAY_URL'
  | 'SMTP_REPLY_FROM'
  | 'REDIS_PREFIX'
>;

export interface InboundModule {
  /** True when SMTP_PORT is set: the `smtp` role is in the default set. */
  readonly enabled: boolean;
  /** Starts a receiver (the `smtp` worker role); throws when SMTP_PORT or INBOUND_DOMAIN is missing. */
  startReceiver(overrides?: Partial<SmtpReceiverOptions>): Promise<SmtpReceiver>;
  /** Tells the sender of a mailed document that it failed in the pipeline (with a relay configured). */
  onDocumentFailed(doc: DocumentRow, error: { stage: string; code: string; message: string }): Promise<void>;
  close(): void;
}

export function createInboundModule(
  deps: {
    db: Db;
    redis: Redis;
    config: InboundConfig;
    logger: Logger;
    intake: Pick<Intake, 'fromBuffer'>;
    projects: Pick<ProjectsRepository, 'byInboundLocalPart' | 'byId'>;
  },
  opts: InboundModuleOptions = {},
): InboundModule {
  const c = deps.config;
  // One cache per process, shared by its receivers.
  // mailauth's resolver type names only string answers, though it also asks for MX records.
  const system: DnsResolver = (name, rrtype) => dns.resolve(name, rrtype) as ReturnType<DnsResolver>;
  const resolver: DnsResolver = opts.resolver ?? cachingResolver(system);
  // One per process, made on first use: receivers and pipeline workers (failed documents) share it.
  let replier: Replier | undefined;
  const getReplier = (): Replier | undefined => {
    if (!c.SMTP_RELAY_URL) return undefined;
    replier ??= createReplier({
      relayUrl: c.SMTP_RELAY_URL,
      from: c.SMTP_REPLY_FROM ?? `noreply@${c.INBOUND_DOMAIN ?? 'localhost'}`,
      redis: deps.redis,
      prefix: c.REDIS_PREFIX,
      logger: deps.logger,
      perSenderMs: opts.replyIntervalMs,
    });
    return replier;
  };
  return {
    enabled: c.SMTP_PORT !== undefined,
    close() {
      replier?.close();
    },
    async onDocumentFailed(doc, error) {
      const smtp = doc.source_metadata?.smtp as { from?: string | null; automatic?: boolean } | undefined;
      const r = getReplier();
      if (!r || doc.source !== 'email' || !smtp) return;
      const project = await deps.projects.byId(doc.project_id);
      const meta = doc.source_metadata as { subject?: string | null; message_id?: string | null };
      await r.send({
        envelopeFrom: smtp.from ?? '',
        headers: { autoSubmitted: smtp.automatic ? 'auto-generated' : undefined },
        subject: meta.subject ?? null,
        messageId: meta.message_id ?? null,
        problems: [`${doc.filename}: could not be processed (${error.message})`],
        projectName: project?.name ?? 'docpipe',
      });
    },
    async startReceiver(overrides = {}) {
      const domain = overrides.domain ?? opts.smtp?.domain ?? c.INBOUND_DOMAIN;
      const port = overrides.port ?? opts.smtp?.port ?? c.SMTP_PORT;
      if (port === undefined || !domain)
        throw new Error('The smtp worker role needs SMTP_PORT and INBOUND_DOMAIN to be set');
      const replier = getReplier();
      const receiver = await startSmtpReceiver(
        {
          intake: deps.intake,
          messages: createInboundMessagesRepository(deps.db),
          projects: deps.projects,
          limiter: createRateLimiter(deps.redis, c.REDIS_PREFIX),
          logger: deps.logger,
          resolver,
          mta: domain,
          replier,
        },
        {
          host: c.SMTP_HOST,
          maxMessageBytes: c.SMTP_MAX_MESSAGE_BYTES ?? c.MAX_UPLOAD_MB * 1024 * 1024,
          tls: c.SMTP_TLS_CERT && c.SMTP_TLS_KEY ? { certFile: c.SMTP_TLS_CERT, keyFile: c.SMTP_TLS_KEY } : undefined,
          connectionsPerMinute: c.SMTP_CONNECTIONS_PER_IP_PER_MINUTE,
          messagesPerMinute: c.SMTP_MESSAGES_PER_IP_PER_MINUTE,
          ...opts.smtp,
          ...overrides,
          domain,
          port,
        },
      );
      return {
        port: receiver.port,
        close: (timeoutMs) => receiver.close(timeoutMs),
      };
    },
  };
}
