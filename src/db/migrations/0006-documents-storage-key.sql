-- Which documents use a stored file: asked whenever a document is deleted or an upload is
-- refused, and in batches by the daily sweep for files nothing refers to.
CREATE INDEX IF NOT EXISTS documents_storage_key_idx ON documents (storage_key);
