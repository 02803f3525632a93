// The mailbox routes in the OpenAPI document (presentMailbox, presentMessage, the connection test).
import { component, t, type OperationDocs } from '../../openapi-shapes.js';

const mailbox = component('Mailbox', t.obj({
  id: t.str, name: t.str, host: t.str, port: t.int, security: t.enum(['tls', 'starttls', 'none']), username: t.str, folder: t.str, project_id: t.str,
  after_processing: t.enum(['move', 'mark_seen', 'flag', 'delete']), processed_folder: t.nstr, failed_folder: t.nstr, allowed_senders: t.arr(t.str),
  subject_filter: t.nstr, attachment_include: t.arr(t.str), attachment_exclude: t.arr(t.str), consume: t.enum(['attachments', 'eml', 'both']),
  include_inline: t.bool, max_age_days: t.nint, is_active: t.bool, status: t.str, last_error: t.nstr, last_error_at: t.ntime, last_checked_at: t.ntime,
  created_at: t.time, updated_at: t.time,
}));
const message = component('MailMessage', t.obj({
  id: t.str, mailbox_id: t.str, folder: t.str, uid_validity: t.str, uid: t.int, message_id: t.nstr, sender: t.nstr, subject: t.nstr, date: t.ntime,
  size_bytes: t.nint, status: t.enum(['processing', 'consumed', 'skipped', 'failed']), reason: t.nstr, document_ids: t.arr(t.str), parts: t.any,
  duplicate_of: t.nstr, attempts: t.int, next_attempt_at: t.ntime, action: t.nstr, action_done_at: t.ntime, action_error: t.nstr, moved_to: t.nstr,
  processed_at: t.ntime, created_at: t.time, updated_at: t.time,
}));
const createExample = { name: 'Invoices inbox', host: 'imap.example.com', username: 'invoices@example.com', password: '…', project_id: 'prj_01HZX3Z1K9' };

export const mailboxesDocs: OperationDocs = {
  'POST /integrations/mailboxes': { status: 201, description: 'Created (the password is stored encrypted and never returned)', data: mailbox, requestExample: createExample },
  'GET /integrations/mailboxes': { list: true, data: mailbox },
  'GET /integrations/mailboxes/:id': { data: mailbox },
  'PUT /integrations/mailboxes/:id': { data: mailbox, requestExample: { is_active: false } },
  'DELETE /integrations/mailboxes/:id': { data: t.gone() },
  'POST /integrations/mailboxes/:id/test': {
    description: 'The outcome: `ok` with the folder’s counts, or the stage that failed (connect, tls, auth, folder) and why',
    data: t.obj({
      ok: t.bool, folder: t.str, messages: t.int, unseen: t.int, uid_validity: t.any,
      stage: t.str, message: t.str,
    }, ['messages', 'unseen', 'uid_validity', 'stage', 'message']),
  },
  'GET /integrations/mailboxes/:id/messages': { list: true, data: message },
  'GET /integrations/mailboxes/:id/messages/:messageId': { data: message },
  'POST /integrations/mailboxes/:id/messages/:messageId/retry': { status: 202, description: 'The message is due again; the poller takes it', data: message, errors: { 409: 'Only failed or skipped messages (that repeat no consumed one) can be retried' } },
};
