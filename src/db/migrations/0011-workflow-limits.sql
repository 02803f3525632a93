-- Workflow hardening: run admission counts an organization's running runs (a per-organization
-- cap), and a scheduled workflow whose runs keep crashing their evaluator is paused with the
-- reason kept on the row (shown by the API and the dashboard until it is activated again).
CREATE INDEX workflow_runs_org_running_idx ON workflow_runs (org_id) WHERE status = 'running';
ALTER TABLE workflows ADD COLUMN paused_reason text;
ALTER TABLE workflows ADD COLUMN paused_at timestamptz;
-- Expression time a run has used across its pickups (a run that waits or yields its worker slot
-- keeps its per-run budget), ms.
ALTER TABLE workflow_runs ADD COLUMN expression_ms integer NOT NULL DEFAULT 0;
