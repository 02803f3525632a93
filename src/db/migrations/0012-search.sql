-- Search and near-duplicates (issue 26).

-- The text search configuration a document's tsvector was built with ('simple' when its language
-- is unknown): highlights parse the text with the same one.
ALTER TABLE documents ADD COLUMN search_config text;

-- A near-duplicate found at intake: {id, similarity, method}.
ALTER TABLE documents ADD COLUMN duplicate_of jsonb;
CREATE INDEX documents_duplicate_idx ON documents (org_id, environment, created_at) WHERE duplicate_of IS NOT NULL;

-- What a project does with a near-duplicate: keep it (flagged), stop it for review, or fail it.
ALTER TABLE projects ADD COLUMN on_near_duplicate text NOT NULL DEFAULT 'keep'
  CHECK (on_near_duplicate IN ('keep', 'review', 'reject'));

-- One row per parsed document: its MinHash signature, a bottom-k sample of its shingle hashes
-- (the weighted comparison of candidates) and its LSH band keys. Band keys are hashed together
-- with the organization and environment, so a GIN lookup of a document's keys only ever meets
-- candidates of its own organization (the org columns are still checked).
CREATE TABLE document_minhash (
  document_id text PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  org_id text NOT NULL,
  environment text NOT NULL,
  signature integer[] NOT NULL,
  sketch integer[] NOT NULL,
  shingles integer NOT NULL,
  band_keys bigint[] NOT NULL
);
CREATE INDEX document_minhash_bands_idx ON document_minhash USING gin (band_keys);
