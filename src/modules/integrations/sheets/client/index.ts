export { createSheetsClient } from './create-client.js';
export { classifyGoogleError, parseRetryAfter, type GoogleErrorClass } from './errors.js';
export { GOOGLE_TOKEN_URL } from './auth.js';
export * from './types.js';
