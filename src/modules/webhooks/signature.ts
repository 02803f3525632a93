// Webhook signing (sender) and verification (receiver helper).
//
// Two schemes are sent on every delivery:
//  - the seed contract: `X-Service-Signature: sha256=<hex HMAC-SHA256(raw body)>`, keyed with the
//    secret string's UTF-8 bytes exactly as shown to the user;
//  - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over
//    `${id}.${timestamp}.${body}`, keyed with the base64-decoded part after `whsec_`.
//
// Rotation: `X-Service-Signature` always carries exactly one value, made with the current
// (newest) secret, so receivers that compare the whole header keep working. During a grace
// period `webhook-signature` lists one space-separated `v1,…` per secret (current first), which
// is how Standard Webhooks expresses several valid signatures; a receiver still holding the old
// secret verifies through that header. The verifier below also accepts comma-separated values in
// `X-Service-Signature`, so either form works on the receiving side.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Seed scheme: hex HMAC-SHA256 of the raw body, keyed with the secret string as given. */
export function signSeed(rawBody: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Standard Webhooks key: base64 after `whsec_` (prefix optional). A secret that is not valid
 * base64 (e.g. one a user typed) is used as UTF-8 bytes instead, so it still signs deterministically.
 */
export function standardKey(secret: string): Buffer {
  const raw = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = raw.length % 4 === 0 && BASE64.test(raw) ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (key.length === 0) throw new Error('webhook secret is empty');
  return key;
}

/** Standard Webhooks scheme: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function signStandard(id: string, timestampSec: number, rawBody: string | Buffer, secret: string): string {
  const mac = createHmac('sha256', standardKey(secret)).update(`${id}.${timestampSec}.`).update(rawBody);
  return `v1,${mac.digest('base64')}`;
}

/** Input of {@link buildSignatureHeaders}. */
export interface SignatureInput {
  /** Event id; becomes `webhook-id` and stays the same across retries so receivers can dedupe. */
  eventId: string;
  eventType: string;
  /** The exact bytes that will be sent as the request body. */
  rawBody: string | Buffer;
  /** Current secret first, then secrets still inside their rotation grace period. */
  secrets: readonly string[];
  /** Attempt time; `webhook-timestamp` is its unix seconds. Default: now. */
  now?: Date;
}

/** Headers for one delivery attempt (see the file comment for how rotation appears). */
export function buildSignatureHeaders(input: SignatureInput): Record<string, string> {
  if (input.secrets.length === 0) throw new Error('at least one webhook secret is required');
  const ts = Math.floor((input.now ?? new Date()).getTime() / 1000);
  return {
    'Content-Type': 'application/json',
    'X-Service-Signature': `sha256=${signSeed(input.rawBody, input.secrets[0])}`,
    'X-Service-Event-Id': input.eventId,
    'X-Service-Event-Type': input.eventType,
    'webhook-id': input.eventId,
    'webhook-timestamp': String(ts),
    'webhook-signature': input.secrets.map((s) => signStandard(input.eventId, ts, input.rawBody, s)).join(' '),
  };
}

/** Options of {@link verifyWebhookSignature}. */
export interface VerifyOptions {
  /** Allowed clock difference for `webhook-timestamp`, seconds. Default 300. */
  toleranceSec?: number;
  /** Clock used for the tolerance check. Default: now. */
  now?: Date;
  /**
   * Refuse deliveries that carry only the seed header (which has no timestamp and can therefore
   * be replayed). Default false, because the seed contract alone is a valid delivery.
   */
  requireTimestamp?: boolean;
}

type HeaderBag = Record<string, string | string[] | undefined>;

/** Case-insensitive lookup; repeated header lines are joined with `joiner`. */
function header(headers: HeaderBag, name: string, joiner = ','): string | undefined {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== name || v === undefined) continue;
    return Array.isArray(v) ? v.join(joiner) : v;
  }
  return undefined;
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function verifyStandard(rawBody: string | Buffer, headers: HeaderBag, secret: string, opts: VerifyOptions): boolean {
  const id = header(headers, 'webhook-id');
  const tsText = header(headers, 'webhook-timestamp')?.trim();
  const sigs = header(headers, 'webhook-signature', ' ');
  if (!id || !tsText || !sigs || !/^\d{1,15}$/.test(tsText)) return false;
  const ts = Number(tsText);
  const nowSec = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSec - ts) > (opts.toleranceSec ?? 300)) return false;
  const expected = Buffer.from(signStandard(id, ts, rawBody, secret).slice(3), 'base64');
  let ok = false;
  // Check every candidate (no early exit) so timing does not reveal which one matched.
  for (const entry of sigs.trim().split(/\s+/)) {
    const comma = entry.indexOf(',');
    if (comma === -1 || entry.slice(0, comma) !== 'v1') continue;
    const given = entry.slice(comma + 1);
    if (!BASE64.test(given)) continue;
    if (sameBytes(Buffer.from(given, 'base64'), expected)) ok = true;
  }
  return ok;
}

function verifySeed(rawBody: string | Buffer, value: string, secret: string): boolean {
  const expected = Buffer.from(signSeed(rawBody, secret), 'hex');
  let ok = false;
  for (const part of value.split(',')) {
    const hex = part.trim().replace(/^sha256=/i, '');
    if (!/^[0-9a-f]{64}$/i.test(hex)) continue;
    if (sameBytes(Buffer.from(hex, 'hex'), expected)) ok = true;
  }
  return ok;
}

/**
 * Receiver helper: true when the delivery was signed with `secret`. When any Standard Webhooks
 * header is present those headers decide (including the timestamp tolerance), so stripping the
 * seed header cannot bypass replay protection and a stale timestamp cannot be rescued by it.
 * Otherwise `X-Service-Signature` is checked in either seed form (bare hex or `sha256=`, one or
 * several comma-separated). Header names are case-insensitive; comparisons are constant-time.
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  headers: HeaderBag,
  secret: string,
  opts: VerifyOptions = {},
): boolean {
  const hasStandard = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].some(
    (n) => header(headers, n) !== undefined,
  );
  if (hasStandard) return verifyStandard(rawBody, headers, secret, opts);
  if (opts.requireTimestamp) return false;
  const seed = header(headers, 'x-service-signature');
  return seed !== undefined && verifySeed(rawBody, seed, secret);
}
