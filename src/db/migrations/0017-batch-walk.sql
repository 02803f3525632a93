-- Batches are walked by a durable job instead of inside the request: the batch keeps what it
-- targets and a keyset cursor (the last (created_at, id) queued), so a walker stopped at any point
-- resumes from the cursor. Counters replace counting batch_items on every read and every finished
-- document (a 100,000-document batch would scan its items each time).
ALTER TABLE batches ADD COLUMN target jsonb;
ALTER TABLE batches ADD COLUMN cursor_at timestamptz;
ALTER TABLE batches ADD COLUMN cursor_id text;
-- Documents created after the request are not part of the batch.
ALTER TABLE batches ADD COLUMN walk_until timestamptz;
-- Null while the walker still has documents to queue.
ALTER TABLE batches ADD COLUMN walked_at timestamptz;
ALTER TABLE batches ADD COLUMN queued integer NOT NULL DEFAULT 0;
ALTER TABLE batches ADD COLUMN completed integer NOT NULL DEFAULT 0;
ALTER TABLE batches ADD COLUMN failed integer NOT NULL DEFAULT 0;
ALTER TABLE batches ADD COLUMN skipped integer NOT NULL DEFAULT 0;

-- Batches made before: walked in their request, counts from their items.
UPDATE batches b SET
  walked_at = coalesce(b.finished_at, b.created_at),
  walk_until = b.created_at,
  queued = b.total,
  completed = (SELECT count(*) FROM batch_items i WHERE i.batch_id = b.id AND i.status = 'completed'),
  failed = (SELECT count(*) FROM batch_items i WHERE i.batch_id = b.id AND i.status = 'failed'),
  skipped = (SELECT count(*) FROM batch_items i WHERE i.batch_id = b.id AND i.status = 'skipped');

-- The maintenance sweep looks for walks whose job vanished.
CREATE INDEX batches_walking_idx ON batches (updated_at) WHERE walked_at IS NULL;
-- The failure and skip lists of a batch.
CREATE INDEX batch_items_status_idx ON batch_items (batch_id, status, updated_at);
