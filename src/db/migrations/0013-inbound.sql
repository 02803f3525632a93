-- Inbound e-mail without a mailbox (issue 27): every project gets a receiving address
-- `<local part>@INBOUND_DOMAIN` served by the built-in SMTP receiver. Only the local part is
-- stored, so changing INBOUND_DOMAIN does not invalidate addresses; rotating replaces it (the old
-- one then matches nothing and is refused at RCPT time).
ALTER TABLE projects ADD COLUMN inbound_local_part text;
-- addresses or @domains; empty: anyone may send
ALTER TABLE projects ADD COLUMN inbound_allowed_senders jsonb NOT NULL DEFAULT '[]';
ALTER TABLE projects ADD COLUMN inbound_authentication text NOT NULL DEFAULT 'none'
  CHECK (inbound_authentication IN ('none', 'spf', 'dkim', 'dmarc'));
-- what a received message becomes: its attachments, the .eml itself, or both (as a mailbox's consume)
ALTER TABLE projects ADD COLUMN inbound_consume text NOT NULL DEFAULT 'attachments'
  CHECK (inbound_consume IN ('attachments', 'eml', 'both'));
-- Existing projects get an address now: a slug of the name plus 12 random hex characters.
UPDATE projects SET inbound_local_part =
  coalesce(nullif(left(trim(both '-' from regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g')), 24), ''), 'project')
  || '-' || left(md5(random()::text || id), 12);
CREATE UNIQUE INDEX projects_inbound_local_part_uq ON projects (inbound_local_part);

-- One row per message accepted over SMTP (written in the same breath as its documents, before
-- 250 is answered). Message-ID deduplication per project: a resent message is answered 250 and
-- makes nothing new.
CREATE TABLE inbound_messages (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  -- 'mid:<Message-ID>' or, without one, 'sha256:<hash of the raw message>'
  message_key text NOT NULL,
  message_id text,
  envelope_from text,
  header_from text,
  subject text,
  remote_ip text,
  helo text,
  size_bytes bigint NOT NULL,
  -- SPF, DKIM, DMARC and ARC verdicts as recorded on the documents' source_metadata.smtp
  verdicts jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL CHECK (status IN ('consumed', 'skipped')),
  reason text,
  parts jsonb NOT NULL DEFAULT '[]',
  document_ids jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT inbound_messages_key_uq UNIQUE (project_id, message_key)
);
CREATE INDEX inbound_messages_project_idx ON inbound_messages (project_id, created_at);
