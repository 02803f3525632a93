-- Transactional outbox: every state change that produces an event inserts it here in the same
-- transaction; the relay fans it out to webhook subscriptions and marks it relayed.
CREATE TABLE events (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  relayed_at timestamptz
);
CREATE INDEX events_unrelayed_idx ON events (created_at) WHERE relayed_at IS NULL;
CREATE INDEX events_org_idx ON events (org_id, environment, created_at DESC);

-- Text chunks with their embedding vectors (float4 arrays: works on PostgreSQL with or
-- without pgvector and on PGlite); the document-level mean vector lives on documents.
CREATE TABLE document_chunks (
  document_id text NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  chunk_index integer NOT NULL,
  content text NOT NULL,
  embedding real[] NOT NULL,
  model_id text NOT NULL,
  PRIMARY KEY (document_id, chunk_index)
);
ALTER TABLE documents ADD COLUMN embedding real[];
ALTER TABLE documents ADD COLUMN confirmed jsonb NOT NULL DEFAULT '{}';
ALTER TABLE documents ADD COLUMN search tsvector;
ALTER TABLE documents ADD COLUMN parser_version text;
ALTER TABLE documents ADD COLUMN extractor_version text;
CREATE INDEX documents_search_idx ON documents USING gin (search);

-- Stage effects are recorded per (document, version, stage) so a re-run job is a no-op.
CREATE TABLE stage_runs (
  document_id text NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  version integer NOT NULL,
  stage text NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (document_id, version, stage)
);

CREATE TABLE batches (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  kind text NOT NULL,
  stages jsonb NOT NULL,
  mode text NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  total integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

CREATE TABLE batch_items (
  batch_id text NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
  document_id text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  error jsonb,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (batch_id, document_id)
);

-- Per-organization classifier retrained from confirmed documents.
CREATE TABLE classifier_models (
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL,
  version text NOT NULL,
  model jsonb NOT NULL,
  trained_on integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, environment)
);
