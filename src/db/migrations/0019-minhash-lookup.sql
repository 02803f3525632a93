-- The near-duplicate check at intake (issue 26) searches the band-key index once per new
-- document. With GIN's fast update on (the default), new rows' keys wait in a pending list that
-- every search reads in full until a vacuum merges it into the index: measured on 100,000
-- documents loaded without a vacuum in between, 408 pending pages made one lookup take 22 ms
-- instead of 2.8 ms, and the service's own CPU per check rose with the wait. A document adds 16
-- keys, cheap to put into the index directly, and every intake reads it.
ALTER INDEX document_minhash_bands_idx SET (fastupdate = off);
-- Turning fast update off leaves what is already pending in place; merge it now.
SELECT gin_clean_pending_list('document_minhash_bands_idx'::regclass);
