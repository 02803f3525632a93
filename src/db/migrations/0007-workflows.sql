-- Workflows (a DAG of nodes saved per organization and environment), their runs and one row per
-- step of a run. A run copies the graph it runs, so later edits never change it.

CREATE TABLE workflows (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  name text NOT NULL,
  description text,
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'inactive')),
  -- bumped by every save; a run records the version it runs
  version integer NOT NULL DEFAULT 1,
  nodes jsonb NOT NULL DEFAULT '[]',
  edges jsonb NOT NULL DEFAULT '[]',
  settings jsonb NOT NULL DEFAULT '{}',
  variables jsonb NOT NULL DEFAULT '{}',
  -- derived from the trigger node at save, so that event fan-out and schedulers need no graph walk
  trigger_type text CHECK (trigger_type IN ('manual', 'document', 'schedule')),
  trigger_config jsonb,
  -- AES-GCM sealed signing secret of outbound requests (http_request, send_webhook_event)
  secret_sealed text NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workflows_org_idx ON workflows (org_id, environment, created_at);
-- event fan-out reads the active document-triggered workflows of an organization
CREATE INDEX workflows_trigger_idx ON workflows (org_id, environment, trigger_type) WHERE status = 'active';

CREATE TABLE workflow_runs (
  id text PRIMARY KEY,
  org_id text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  workflow_id text NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  workflow_version integer NOT NULL,
  mode text NOT NULL CHECK (mode IN ('execute', 'dry_run')),
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  -- {type: manual|document|schedule, event_id?, event_type?, scheduled_for?, user_id?}
  trigger jsonb NOT NULL,
  -- what started it exactly once: the event id, the schedule tick; a second insert is a no-op
  trigger_key text,
  document_id text,
  input jsonb NOT NULL DEFAULT '{}',
  variables jsonb NOT NULL DEFAULT '{}',
  -- the graph as it was when the run was created: {nodes, edges, settings}
  definition jsonb NOT NULL,
  -- workflow ids whose steps led to this run (a step never re-triggers a workflow of its chain)
  chain text[] NOT NULL DEFAULT '{}',
  error jsonb,
  -- the run's job waits until this time (delay node, retry backoff, concurrency limit)
  resume_at timestamptz,
  deadline_at timestamptz,
  queued_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX workflow_runs_trigger_uq ON workflow_runs (workflow_id, trigger_key) WHERE trigger_key IS NOT NULL;
CREATE INDEX workflow_runs_org_idx ON workflow_runs (org_id, environment, created_at DESC, id DESC);
CREATE INDEX workflow_runs_workflow_idx ON workflow_runs (workflow_id, created_at DESC);
-- the sweeper looks at unfinished runs only
CREATE INDEX workflow_runs_open_idx ON workflow_runs (updated_at) WHERE status IN ('queued', 'running');
-- run admission counts a workflow's running runs (max_concurrent_runs) without visiting its history
CREATE INDEX workflow_runs_running_idx ON workflow_runs (workflow_id) WHERE status = 'running';

CREATE TABLE workflow_steps (
  run_id text NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  node_id text NOT NULL,
  node_type text NOT NULL,
  -- order in which steps were first recorded within the run
  position integer NOT NULL,
  -- running: started (a crash leaves it so, and the step runs again); retrying: failed, waiting
  -- for its next attempt; waiting: a delay node; skipped: no live incoming edge
  status text NOT NULL CHECK (status IN ('running', 'retrying', 'waiting', 'completed', 'failed', 'skipped')),
  -- the output a branching node chose (true / false), or 'error' for a failure the run continued past
  branch text,
  input jsonb,
  output jsonb,
  error jsonb,
  attempts integer NOT NULL DEFAULT 0,
  started_at timestamptz,
  finished_at timestamptz,
  duration_ms integer,
  PRIMARY KEY (run_id, node_id)
);

-- send_webhook_event steps deliver through a subscription their workflow owns: hidden from the
-- /webhooks API and from event fan-out, removed with the workflow.
ALTER TABLE webhook_subscriptions ADD COLUMN owner_workflow_id text REFERENCES workflows(id) ON DELETE CASCADE;
CREATE UNIQUE INDEX webhook_subscriptions_owner_url_uq ON webhook_subscriptions (owner_workflow_id, url) WHERE owner_workflow_id IS NOT NULL;
