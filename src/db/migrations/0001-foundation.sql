CREATE TABLE organizations (
  id text PRIMARY KEY,
  name text NOT NULL,
  plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro', 'enterprise')),
  -- only used by the enterprise plan, whose limit is negotiated per organization
  rate_limit_per_minute integer,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email text NOT NULL,
  name text,
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_uq ON users (lower(email));

CREATE TABLE refresh_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  family_id text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  created_by text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  masked_key text NOT NULL,
  rate_limit_per_minute integer,
  rate_limit_per_day integer,
  expires_at timestamptz,
  allowed_ips jsonb NOT NULL DEFAULT '[]',
  allowed_endpoints jsonb NOT NULL DEFAULT '[]',
  metadata jsonb NOT NULL DEFAULT '{}',
  is_active boolean NOT NULL DEFAULT true,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_org_idx ON api_keys (org_id, environment, created_at);

CREATE TABLE templates (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  name text NOT NULL,
  issuer text,
  priority integer NOT NULL DEFAULT 5,
  definition jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX templates_org_idx ON templates (org_id, environment);

CREATE TABLE projects (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  name text NOT NULL,
  description text,
  color text,
  icon text,
  auto_classify boolean NOT NULL DEFAULT true,
  auto_extract boolean NOT NULL DEFAULT true,
  default_template_id text REFERENCES templates(id) ON DELETE SET NULL,
  retention_days integer,
  allowed_file_types jsonb NOT NULL DEFAULT '[]',
  classification_threshold double precision NOT NULL DEFAULT 0.6,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  archived_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX projects_org_idx ON projects (org_id, environment, created_at);

CREATE TABLE documents (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  project_id text NOT NULL REFERENCES projects(id),
  filename text NOT NULL,
  mime_type text NOT NULL,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  storage_key text NOT NULL,
  source text NOT NULL DEFAULT 'upload' CHECK (source IN ('upload', 'email', 'api')),
  source_metadata jsonb NOT NULL DEFAULT '{}',
  metadata jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'uploaded',
  error jsonb,
  text_content text,
  page_count integer,
  language text,
  classification jsonb,
  fields jsonb,
  -- bumped on every reprocess so job ids and exports are per document version
  version integer NOT NULL DEFAULT 1,
  pipeline jsonb NOT NULL DEFAULT '{}',
  uploaded_by text,
  parsed_at timestamptz,
  embedded_at timestamptz,
  classified_at timestamptz,
  extracted_at timestamptz,
  exported_at timestamptz,
  completed_at timestamptz,
  embedding_model text,
  classifier_version text,
  template_id text,
  template_version integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX documents_project_idx ON documents (project_id, created_at);
CREATE INDEX documents_org_idx ON documents (org_id, environment, created_at);
CREATE INDEX documents_sha_idx ON documents (project_id, sha256);
CREATE INDEX documents_status_idx ON documents (status, updated_at);
