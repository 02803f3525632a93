import type { SecretBox } from '../../../lib/crypto.js';
import { errors } from '../../../lib/errors.js';
import type { Scope } from '../../../lib/scope.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { HostPolicy } from './host-policy.js';
import { testConnection, type ImapConnectOptions } from './imap/index.js';
import type { MailboxesRepository, MailboxValues } from './mailboxes.repository.js';
import type { MessagesRepository } from './messages.repository.js';
import { compileSubjectFilter, InvalidSubjectFilterError } from './rules/index.js';
import {
  presentMailbox,
  presentMessage,
  UNREADABLE_PASSWORD,
  type CreateMailboxInput,
  type ListMessagesQuery,
  type MailboxRow,
  type UpdateMailboxInput,
} from './mailbox.types.js';

export interface MailboxServiceDeps {
  mailboxes: MailboxesRepository;
  messages: MessagesRepository;
  projects: Pick<ProjectsRepository, 'get'>;
  secretBox: SecretBox;
  hosts: HostPolicy;
  /** Tells running pollers that a mailbox changed (settings, deletion, a retry request). */
  notify: (mailboxId: string) => void;
  /** Options for the connection test (timeouts). */
  connect?: Pick<ImapConnectOptions, 'connectTimeoutMs' | 'openTimeoutMs' | 'tlsRejectUnauthorized' | 'lookup'>;
}

const ADDRESS = /^[^@\s<>]+@[^@\s<>]+$/;
const DOMAIN = /^@[^@\s<>]+$/;

const defaultPort = (security: string): number => (security === 'tls' ? 993 : 143);

export function createMailboxService(deps: MailboxServiceDeps) {
  const mustGet = async (scope: Scope, id: string): Promise<MailboxRow> => {
    const m = await deps.mailboxes.get(scope, id);
    if (!m) throw errors.notFound('Mailbox');
    return m;
  };

  /** Checks a complete set of values; throws a 400 naming the first bad field. */
  const validate = async (scope: Scope, v: MailboxValues, hostChanged: boolean): Promise<void> => {
    if (!(await deps.projects.get(scope, v.project_id)))
      throw errors.invalidField('project_id', 'no such project in this organization and environment');
    if (hostChanged) {
      const why = await deps.hosts.check(v.host);
      if (why) throw errors.invalidField('host', why);
    }
    if (v.after_processing === 'move' && !v.processed_folder)
      throw errors.invalidField('processed_folder', 'is required when after_processing is move');
    const same = (f: string | null) => f !== null && f.toLowerCase() === v.folder.toLowerCase();
    if (same(v.processed_folder)) throw errors.invalidField('processed_folder', 'must differ from folder');
    if (same(v.failed_folder)) throw errors.invalidField('failed_folder', 'must differ from folder');
    for (const s of v.allowed_senders) {
      if (!ADDRESS.test(s.trim()) && !DOMAIN.test(s.trim()))
        throw errors.invalidField('allowed_senders', `"${s}" is neither an address nor @domain`);
    }
    try {
      compileSubjectFilter(v.subject_filter);
    } catch (err) {
      if (err instanceof InvalidSubjectFilterError) throw errors.invalidField('subject_filter', err.message);
      throw err;
    }
  };

  const clean = (list: string[] | undefined): string[] => [
    ...new Set((list ?? []).map((s) => s.trim()).filter(Boolean)),
  ];

  return {
    async create(scope: Scope, input: CreateMailboxInput, createdBy: string | null) {
      const security = input.security ?? 'tls';
      const values: MailboxValues = {
        project_id: input.project_id,
        name: input.name,
        host: input.host.trim(),
        port: input.port ?? defaultPort(security),
        security,
        username: input.username,
        password_sealed: deps.secretBox.encrypt(input.password),
        folder: input.folder ?? 'INBOX',
        after_processing: input.after_processing ?? 'mark_seen',
        processed_folder: input.processed_folder ?? null,
        failed_folder: input.failed_folder ?? null,
        allowed_senders: clean(input.allowed_senders),
        subject_filter: input.subject_filter ?? null,
        attachment_include: clean(input.attachment_include),
        attachment_exclude: clean(input.attachment_exclude),
        consume: input.consume ?? 'attachments',
        include_inline: input.include_inline ?? false,
        max_age_days: input.max_age_days ?? null,
        is_active: input.is_active ?? true,
      };
      await validate(scope, values, true);
      const row = await deps.mailboxes.insert(scope, values, createdBy);
      deps.notify(row.id);
      return presentMailbox(row);
    },

    async list(scope: Scope, limit: number, offset: number) {
      const { rows, total } = await deps.mailboxes.list(scope, limit, offset);
      return { items: rows.map(presentMailbox), total };
    },

    async get(scope: Scope, id: string) {
      return presentMailbox(await mustGet(scope, id));
    },

    /** Partial update; any update clears the error state so the poller tries again at once. */
    async update(scope: Scope, id: string, input: UpdateMailboxInput) {
      const cur = await mustGet(scope, id);
      const pick = <K extends keyof UpdateMailboxInput>(k: K, fallback: NonNullable<UpdateMailboxInput[K]> | null) =>
        input[k] !== undefined ? input[k] : fallback;
      const security = input.security ?? cur.security;
      const values: MailboxValues = {
        project_id: input.project_id ?? cur.project_id,
        name: input.name ?? cur.name,
        host: (input.host ?? cur.host).trim(),
        // A new security mode without a port moves to that mode's usual port.
        port:
          input.port ??
          (input.security && input.security !== cur.security && cur.port === defaultPort(cur.security)
            ? defaultPort(security)
            : cur.port),
        security,
        username: input.username ?? cur.username,
        password_sealed: input.password !== undefined ? deps.secretBox.encrypt(input.password) : cur.password_sealed,
        folder: input.folder ?? cur.folder,
        after_processing: input.after_processing ?? cur.after_processing,
        processed_folder: pick('processed_folder', cur.processed_folder) ?? null,
        failed_folder: pick('failed_folder', cur.failed_folder) ?? null,
        allowed_senders: input.allowed_senders !== undefined ? clean(input.allowed_senders) : cur.allowed_senders,
        subject_filter: pick('subject_filter', cur.subject_filter) ?? null,
        attachment_include:
          input.attachment_include !== undefined ? clean(input.attachment_include) : cur.attachment_include,
        attachment_exclude:
          input.attachment_exclude !== undefined ? clean(input.attachment_exclude) : cur.attachment_exclude,
        consume: input.consume ?? cur.consume,
        include_inline: input.include_inline ?? cur.include_inline,
        max_age_days: pick('max_age_days', cur.max_age_days) ?? null,
        is_active: input.is_active ?? cur.is_active,
      };
      await validate(scope, values, values.host !== cur.host);
      const row = await deps.mailboxes.update(scope, id, values);
      if (!row) throw errors.notFound('Mailbox');
      deps.notify(id);
      return presentMailbox(row);
    },

    async remove(scope: Scope, id: string) {
      if (!(await deps.mailboxes.delete(scope, id))) throw errors.notFound('Mailbox');
      deps.notify(id);
      return { id, deleted: true };
    },

    /** Connect, log in, look at the folder (STATUS: nothing is selected, read or flagged). */
    async test(scope: Scope, id: string) {
      const m = await mustGet(scope, id);
      let password: string;
      try {
        password = deps.secretBox.decrypt(m.password_sealed);
      } catch {
        return { ok: false, stage: 'auth', message: UNREADABLE_PASSWORD, folder: m.folder };
      }
      const res = await testConnection(
        { host: m.host, port: m.port, security: m.security, username: m.username, password, folder: m.folder },
        { ...deps.connect, addressAllowed: deps.hosts.addressAllowed(m.host) },
      );
      return res.ok
        ? { ok: true, folder: res.folder, messages: res.messages, unseen: res.unseen, uid_validity: res.uidValidity }
        : { ok: false, stage: res.stage, message: res.message, folder: m.folder };
    },

    async listMessages(scope: Scope, id: string, query: ListMessagesQuery) {
      await mustGet(scope, id);
      const { rows, total } = await deps.messages.list(id, query);
      return { items: rows.map(presentMessage), total };
    },

    async getMessage(scope: Scope, id: string, messageId: string) {
      await mustGet(scope, id);
      const r = await deps.messages.get(id, messageId);
      if (!r) throw errors.notFound('Message');
      return presentMessage(r);
    },

    /** Makes a failed or skipped message due now; the mailbox's poller picks it up. */
    async retryMessage(scope: Scope, id: string, messageId: string) {
      await mustGet(scope, id);
      const r = await deps.messages.requestRetry(id, messageId);
      if (!r) {
        const cur = await deps.messages.get(id, messageId);
        if (!cur) throw errors.notFound('Message');
        if (cur.duplicate_of)
          throw errors.conflict(`This message repeats ${cur.duplicate_of}, which was already consumed`);
        throw errors.conflict(`Only failed or skipped messages can be retried; this one is ${cur.status}`);
      }
      deps.notify(id);
      return presentMessage(r);
    },
  };
}

export type MailboxService = ReturnType<typeof createMailboxService>;
