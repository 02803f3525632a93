-- PDF text positions (words per page), from which the extract stage renders the pdftotext
-- -layout style text that invoice2data templates are written against, and crops for `area`
-- fields. Only the stage reads it; lists and the API never select it.
ALTER TABLE documents ADD COLUMN layout jsonb;
