-- Idempotency-Key: one row per credential (API key or user), environment and key. A POST that
-- claims a key runs once; its response is kept for 24 hours and replayed to a retry with the
-- same key and the same request. The daily maintenance job deletes rows past 24 hours.
-- (Numbered 0010: 0009 is left to the reports work that may land alongside; order is by name.)
CREATE TABLE idempotency_keys (
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  -- 'key:<api key id>' or 'user:<user id>'
  credential text NOT NULL,
  key text NOT NULL,
  -- sha256 of method, path, query and the body (canonical JSON)
  request_hash text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'done')),
  -- who runs it now: a takeover after a crash gets a new token, so a late finish cannot overwrite it
  lock_token text NOT NULL,
  -- a running request not finished by then is taken to have died with its process
  locked_until timestamptz,
  response_status integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  PRIMARY KEY (credential, environment, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
