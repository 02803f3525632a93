-- Google Sheets export: connections (sealed credentials), export targets, and one row per
-- (export, document, document version) that is both the write buffer and the export status.

CREATE TABLE sheets_connections (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('service_account', 'oauth')),
  -- AES-GCM sealed JSON of the credentials; never returned by the API
  credentials_sealed text NOT NULL,
  -- non-secret identity shown by the API: the service account e-mail or the OAuth client id
  principal text NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sheets_connections_org_idx ON sheets_connections (org_id, environment, created_at);

CREATE TABLE sheets_exports (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  -- a connection in use cannot be deleted (the API answers 409)
  connection_id text NOT NULL REFERENCES sheets_connections(id) ON DELETE RESTRICT,
  spreadsheet_id text NOT NULL,
  sheet_name text NOT NULL,
  -- ordered [{header, field}]
  columns jsonb NOT NULL,
  mode text NOT NULL CHECK (mode IN ('append', 'upsert')),
  write_header boolean NOT NULL DEFAULT true,
  trigger text NOT NULL CHECK (trigger IN ('after_extraction', 'manual')),
  is_active boolean NOT NULL DEFAULT true,
  -- bumped by every update: state written by a worker that loaded an older configuration is dropped
  config_version integer NOT NULL DEFAULT 1,
  -- error: a permanent failure (401/403/404/400, header mismatch) stopped writing until a PUT
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'error')),
  last_error text,
  error_at timestamptz,
  -- transient failures (429/5xx/network): writing resumes at retry_at
  consecutive_failures integer NOT NULL DEFAULT 0,
  retry_at timestamptz,
  -- the header was found matching for this configuration fingerprint at this time
  header_verified_for text,
  header_verified_at timestamptz,
  -- one flusher per export at a time across processes (no transaction is held over a Google call)
  lease_owner text,
  lease_until timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sheets_exports_org_idx ON sheets_exports (org_id, environment, created_at);
CREATE INDEX sheets_exports_project_idx ON sheets_exports (project_id) WHERE is_active;

CREATE TABLE document_exports (
  export_id text NOT NULL REFERENCES sheets_exports(id) ON DELETE CASCADE,
  -- status records go with the document; the rows already written to the sheet stay there
  document_id text NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  document_version integer NOT NULL,
  -- queue order within an export
  seq bigserial NOT NULL,
  -- pending: buffered; writing: sent (or about to be) to Google, outcome not yet committed;
  -- exported: in the sheet at `range`; superseded: a newer version of the document took its row
  status text NOT NULL CHECK (status IN ('pending', 'writing', 'exported', 'superseded')),
  -- the mapping input captured when the version was queued (cleared once written)
  context jsonb,
  attempts integer NOT NULL DEFAULT 0,
  queued_at timestamptz NOT NULL DEFAULT now(),
  exported_at timestamptz,
  range text,
  row_number integer,
  error text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- one record per document version and export: re-running a job cannot queue a second row
  PRIMARY KEY (export_id, document_id, document_version)
);
CREATE INDEX document_exports_queue_idx ON document_exports (export_id, seq) WHERE status IN ('pending', 'writing');
CREATE INDEX document_exports_document_idx ON document_exports (document_id);
-- the export sweep looks for recent extractions that never reached an export buffer
CREATE INDEX stage_runs_extract_finished_idx ON stage_runs (finished_at) WHERE stage = 'extract';
