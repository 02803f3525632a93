import type { Environment } from '../../../lib/scope.js';
import type { ImapSecurity } from './imap/index.js';
import type { ConsumeMode, PartOutcome } from '../../documents/message-parts/index.js';

/** Shown when the sealed IMAP password no longer decrypts (ENCRYPTION_KEY changed). */
export const UNREADABLE_PASSWORD =
  'the stored password cannot be decrypted (was ENCRYPTION_KEY changed?); set the password again';

export type AfterProcessing = 'move' | 'mark_seen' | 'flag' | 'delete';
export type MailboxStatus = 'active' | 'error' | 'inactive';
export type MessageStatus = 'processing' | 'consumed' | 'skipped' | 'failed';

export interface MailboxRow {
  id: string;
  org_id: string;
  environment: Environment;
  project_id: string;
  name: string;
  host: string;
  port: number;
  security: ImapSecurity;
  username: string;
  password_sealed: string;
  folder: string;
  after_processing: AfterProcessing;
  processed_folder: string | null;
  failed_folder: string | null;
  allowed_senders: string[];
  subject_filter: string | null;
  attachment_include: string[];
  attachment_exclude: string[];
  consume: ConsumeMode;
  include_inline: boolean;
  max_age_days: number | null;
  is_active: boolean;
  status: MailboxStatus;
  last_error: string | null;
  last_error_at: Date | null;
  last_checked_at: Date | null;
  config_version: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Body of POST /integrations/mailboxes (product field names). */
export interface CreateMailboxInput {
  name: string;
  host: string;
  /** Default 993 for `tls`, 143 otherwise. */
  port?: number;
  /** Default `tls`. */
  security?: ImapSecurity;
  username: string;
  password: string;
  /** Default `INBOX`. */
  folder?: string;
  project_id: string;
  /** Default `mark_seen`. */
  after_processing?: AfterProcessing;
  processed_folder?: string | null;
  failed_folder?: string | null;
  allowed_senders?: string[];
  subject_filter?: string | null;
  attachment_include?: string[];
  attachment_exclude?: string[];
  /** Default `attachments`. */
  consume?: ConsumeMode;
  /** Default false. */
  include_inline?: boolean;
  max_age_days?: number | null;
  /** Default true. */
  is_active?: boolean;
}

/** Body of PUT: any subset; `password` omitted keeps the stored one. */
export type UpdateMailboxInput = Partial<CreateMailboxInput>;

export interface ListMessagesQuery {
  status?: MessageStatus;
  limit: number;
  offset: number;
}

export interface MailMessageRow {
  id: string;
  mailbox_id: string;
  folder: string;
  uid_validity: number;
  uid: number;
  message_key: string;
  message_id: string | null;
  sender: string | null;
  subject: string | null;
  sent_at: Date | null;
  size_bytes: number | null;
  status: MessageStatus;
  reason: string | null;
  parts: PartOutcome[];
  document_ids: string[];
  duplicate_of: string | null;
  attempts: number;
  next_attempt_at: Date | null;
  claimed_by: string | null;
  claimed_until: Date | null;
  action: AfterProcessing | null;
  action_done_at: Date | null;
  action_error: string | null;
  moved_to: string | null;
  moved_uid: number | null;
  processed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function presentMailbox(m: MailboxRow) {
  return {
    id: m.id,
    name: m.name,
    host: m.host,
    port: m.port,
    security: m.security,
    username: m.username,
    folder: m.folder,
    project_id: m.project_id,
    after_processing: m.after_processing,
    processed_folder: m.processed_folder,
    failed_folder: m.failed_folder,
    allowed_senders: m.allowed_senders,
    subject_filter: m.subject_filter,
    attachment_include: m.attachment_include,
    attachment_exclude: m.attachment_exclude,
    consume: m.consume,
    include_inline: m.include_inline,
    max_age_days: m.max_age_days,
    is_active: m.is_active,
    status: m.status,
    last_error: m.last_error,
    last_error_at: m.last_error_at,
    last_checked_at: m.last_checked_at,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

export function presentMessage(r: MailMessageRow) {
  return {
    id: r.id,
    mailbox_id: r.mailbox_id,
    folder: r.folder,
    uid_validity: String(r.uid_validity),
    uid: r.uid,
    message_id: r.message_id,
    sender: r.sender,
    subject: r.subject,
    date: r.sent_at,
    size_bytes: r.size_bytes,
    status: r.status,
    reason: r.reason,
    document_ids: r.document_ids,
    parts: r.parts,
    duplicate_of: r.duplicate_of,
    attempts: r.attempts,
    next_attempt_at: r.next_attempt_at,
    action: r.action,
    action_done_at: r.action_done_at,
    action_error: r.action_error,
    moved_to: r.moved_to,
    processed_at: r.processed_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
