-- Reports: typed queries over the organization's documents and processing, run on demand or on
-- a schedule; every run is an execution row whose result file lives in the report file store.

CREATE TABLE reports (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  name text NOT NULL,
  type text NOT NULL,
  description text,
  category text,
  -- {project_ids?, period?: {from, to} | {last}, timezone?}; validated per type by the service
  data_source jsonb NOT NULL DEFAULT '{}',
  -- {status?, classification?, source?, min_confidence?, fields?}
  filters jsonb NOT NULL DEFAULT '{}',
  tags text[] NOT NULL DEFAULT '{}',
  -- executions (and their files) older than this are deleted by the daily retention job
  retention_days integer NOT NULL DEFAULT 90 CHECK (retention_days BETWEEN 1 AND 3650),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reports_org_idx ON reports (org_id, environment, created_at);

CREATE TABLE report_schedules (
  report_id text PRIMARY KEY REFERENCES reports(id) ON DELETE CASCADE,
  frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
  -- "HH:MM", 24-hour, wall-clock time in `timezone`
  time text NOT NULL,
  timezone text NOT NULL,
  day_of_week text,
  day_of_month integer CHECK (day_of_month BETWEEN 1 AND 31),
  -- bumped by every POST: a tick queued for an older version of the schedule does nothing
  version integer NOT NULL DEFAULT 1,
  -- the first occurrence not yet claimed; a tick claims the latest occurrence that is due and
  -- moves this past it, under a row lock, so each period runs once whoever ticks
  next_run_at timestamptz NOT NULL,
  last_run_at timestamptz,
  last_period_key text,
  last_execution_id text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- the catch-up pass looks for schedules whose tick was lost (Redis data loss)
CREATE INDEX report_schedules_due_idx ON report_schedules (next_run_at);

CREATE TABLE report_executions (
  id text PRIMARY KEY,
  report_id text NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  -- scope columns copied from the report (which cascades from the organization)
  org_id text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  -- what makes a run unique: 'manual:<execution id>' or 'schedule:<local date of the period>'
  run_key text NOT NULL,
  trigger text NOT NULL CHECK (trigger IN ('manual', 'schedule')),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  -- the report's type, data source and filters as they were when the run was requested
  report_type text NOT NULL,
  definition jsonb NOT NULL,
  period_from timestamptz NOT NULL,
  period_to timestamptz NOT NULL,
  -- scheduled runs: the tick this run belongs to
  scheduled_for timestamptz,
  row_count integer,
  summary jsonb,
  -- [{name, title, columns: [{key, label, type}], rows}] of the result file
  sections jsonb,
  error jsonb,
  -- the result (gzip'd NDJSON) in the report file store, by content address
  file_key text,
  file_bytes bigint,
  attempts integer NOT NULL DEFAULT 0,
  requested_by text,
  started_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT report_executions_run_uq UNIQUE (report_id, run_key)
);
CREATE INDEX report_executions_report_idx ON report_executions (report_id, created_at DESC, id DESC);
CREATE INDEX report_executions_created_idx ON report_executions (created_at);
CREATE INDEX report_executions_file_idx ON report_executions (file_key) WHERE file_key IS NOT NULL;
-- the stuck-execution sweep
CREATE INDEX report_executions_open_idx ON report_executions (updated_at) WHERE status IN ('queued', 'running');

-- Authenticated API requests per key and UTC day (key_id '' = dashboard sessions), counted in
-- memory by each API process and added here in one statement per flush interval.
CREATE TABLE api_usage_daily (
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  day date NOT NULL,
  key_id text NOT NULL,
  requests bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, environment, day, key_id)
);

-- Exports page through an organization's documents in (created_at, id) order; this index serves
-- that and everything the (org_id, environment, created_at) index it replaces served.
CREATE INDEX documents_org_created_id_idx ON documents (org_id, environment, created_at, id);
DROP INDEX documents_org_idx;

-- When a stage's work began, so reports can tell processing time from time spent queued.
ALTER TABLE stage_runs ADD COLUMN started_at timestamptz;
