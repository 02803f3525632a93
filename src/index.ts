/**
 * Library entry for code that talks to docpipe: the webhook receiver helper and the payload type.
 *
 *   import { verifyWebhookSignature } from 'docpipe';
 */
export { verifyWebhookSignature, type VerifyOptions } from './modules/webhooks/signature.js';
export type { EventType } from './modules/events/events.types.js';
