-- Issue 22: an event a workflow sent (send_webhook_event) says so. `source` is null for the
-- platform's own events and {"type": "workflow", "workflow_id", "run_id", "node_id"} for a
-- workflow's custom event, shown by GET /events so a custom event can never pass for a real one.
ALTER TABLE events ADD COLUMN source jsonb;
