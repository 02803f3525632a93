-- Webhook subscriptions, one delivery row per (event, subscription) and one attempt row per try.
-- The delivery row is the source of truth; BullMQ jobs only carry (delivery id, dispatch number).

CREATE TABLE webhook_subscriptions (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  url text NOT NULL,
  -- event types, or the single entry '*' for all of them
  events text[] NOT NULL,
  description text,
  -- failing: set when a delivery exhausted its retries; disabled: set by the owner
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'failing', 'disabled')),
  -- AES-GCM sealed (the server must compute HMACs, so secrets cannot be hashed)
  secret_sealed text NOT NULL,
  -- the secret before the last rotation keeps signing until previous_secret_expires_at
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  failing_since timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_subscriptions_org_idx ON webhook_subscriptions (org_id, environment, created_at);

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  -- scope columns copied from the subscription (which cascades from the organization)
  org_id text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  subscription_id text NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  event_type text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'suspended', 'gone')),
  -- attempts made so far (scheduled and manual)
  attempts integer NOT NULL DEFAULT 0,
  -- failed scheduled attempts in the current automatic sequence: indexes the retry schedule
  retry_index integer NOT NULL DEFAULT 0,
  -- bumped every time the delivery is (re)scheduled; the job id is dlv-<id>-<dispatch_seq>, and
  -- a job whose number is not the current one is stale and does nothing
  dispatch_seq integer NOT NULL DEFAULT 1,
  -- the next attempt is a one-shot manual one (resend, recover, test ping)
  manual boolean NOT NULL DEFAULT false,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- fan-out is idempotent: a relay re-run after a crash cannot create a second delivery
  CONSTRAINT webhook_deliveries_event_sub_uq UNIQUE (event_id, subscription_id)
);
-- Few indexes on purpose: every attempt updates status and next_attempt_at, and each index on a
-- changing column costs a write per attempt. Status filters scan the (small) per-subscription list.
-- serves the newest-first listing (created_at, id) and the recovery window
CREATE INDEX webhook_deliveries_sub_idx ON webhook_deliveries (subscription_id, created_at, id);
-- the safety-net sweep looks for pending deliveries whose job may have been lost
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
-- enable releases a subscription's suspended deliveries
CREATE INDEX webhook_deliveries_suspended_idx ON webhook_deliveries (subscription_id) WHERE status = 'suspended';

CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  -- 1-based position in the delivery's history
  attempt integer NOT NULL,
  trigger text NOT NULL CHECK (trigger IN ('scheduled', 'manual')),
  -- 0 when no HTTP status arrived (network error, timeout, refused destination)
  status_code integer NOT NULL,
  error_code text,
  error_message text,
  duration_ms integer NOT NULL,
  response_body text,
  response_truncated boolean NOT NULL DEFAULT false,
  -- when the following attempt is scheduled (null: none)
  next_attempt_at timestamptz,
  attempted_at timestamptz NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);
