// Request size limits of the HTTP layer, in one place so error messages can name them.

/** Largest JSON body (uploads have their own limit, MAX_UPLOAD_MB). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** Multipart uploads: one file, a few form fields. */
export const MULTIPART_LIMITS = { files: 1, fields: 20, parts: 25 } as const;

/** The Content-Types request bodies may have. */
export const ACCEPTED_CONTENT_TYPES = 'application/json (uploads to POST /documents: multipart/form-data)';
