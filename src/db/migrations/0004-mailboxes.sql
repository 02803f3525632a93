-- E-mail intake: IMAP mailboxes watched by the `mail` worker role, and one record per message
-- seen, so a message is consumed at most once whatever happens (restarts, UIDVALIDITY changes,
-- several workers).

CREATE TABLE mailboxes (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  -- deleting the project ends its mail intake too
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  host text NOT NULL,
  port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  security text NOT NULL CHECK (security IN ('tls', 'starttls', 'none')),
  username text NOT NULL,
  -- AES-GCM sealed with ENCRYPTION_KEY (the worker must log in with it, so it cannot be hashed)
  password_sealed text NOT NULL,
  folder text NOT NULL DEFAULT 'INBOX',
  after_processing text NOT NULL CHECK (after_processing IN ('move', 'mark_seen', 'flag', 'delete')),
  processed_folder text,
  failed_folder text,
  allowed_senders jsonb NOT NULL DEFAULT '[]',
  subject_filter text,
  attachment_include jsonb NOT NULL DEFAULT '[]',
  attachment_exclude jsonb NOT NULL DEFAULT '[]',
  consume text NOT NULL DEFAULT 'attachments' CHECK (consume IN ('attachments', 'eml', 'both')),
  include_inline boolean NOT NULL DEFAULT false,
  max_age_days integer CHECK (max_age_days IS NULL OR max_age_days > 0),
  is_active boolean NOT NULL DEFAULT true,
  -- active | error (the poller could not use the settings; cleared by an update) | inactive
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'error', 'inactive')),
  last_error text,
  last_error_at timestamptz,
  last_checked_at timestamptz,
  -- bumped by every update: a running poller restarts its connection with the new settings, and
  -- status writes from a poller that still runs old settings are ignored
  config_version integer NOT NULL DEFAULT 1,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mailboxes_org_idx ON mailboxes (org_id, environment, created_at);
CREATE INDEX mailboxes_active_idx ON mailboxes (id) WHERE is_active;

CREATE TABLE mail_messages (
  id text PRIMARY KEY,
  mailbox_id text NOT NULL REFERENCES mailboxes(id) ON DELETE CASCADE,
  -- where the message was found: IMAP identifies a message by (folder, UIDVALIDITY, UID)
  folder text NOT NULL,
  uid_validity bigint NOT NULL,
  uid bigint NOT NULL,
  -- 'mid:<Message-ID>' or, without one, 'sha256:<hash of the raw message>'
  message_key text NOT NULL,
  message_id text,
  sender text,
  subject text,
  sent_at timestamptz,
  size_bytes bigint,
  status text NOT NULL CHECK (status IN ('processing', 'consumed', 'skipped', 'failed')),
  -- skip reason or failure message
  reason text,
  -- one entry per file: {filename, content_type, size_bytes, outcome, reason?, document_id?}
  parts jsonb NOT NULL DEFAULT '[]',
  document_ids jsonb NOT NULL DEFAULT '[]',
  -- for 'skipped' duplicates: the record of the message it repeats
  duplicate_of text,
  attempts integer NOT NULL DEFAULT 0,
  -- when a failed (or manually retried) message is due again; null: not scheduled
  next_attempt_at timestamptz,
  -- the worker processing it and until when that claim holds (a crashed worker's claim lapses)
  claimed_by text,
  claimed_until timestamptz,
  -- after-processing IMAP action: which one, when it succeeded, why it did not
  action text,
  action_done_at timestamptz,
  action_error text,
  -- where a failed message was moved (failed_folder) and its UID there, for a manual retry
  moved_to text,
  moved_uid bigint,
  processed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT mail_messages_location_uq UNIQUE (mailbox_id, folder, uid_validity, uid)
);
-- At most one in-progress or consumed record per message: the same mail seen again under a
-- new UIDVALIDITY (or a second copy) can never be consumed a second time.
CREATE UNIQUE INDEX mail_messages_once_uq ON mail_messages (mailbox_id, message_key) WHERE status IN ('processing', 'consumed');
CREATE INDEX mail_messages_key_idx ON mail_messages (mailbox_id, message_key);
CREATE INDEX mail_messages_list_idx ON mail_messages (mailbox_id, created_at DESC);
CREATE INDEX mail_messages_due_idx ON mail_messages (mailbox_id, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
