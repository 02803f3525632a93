import { PermanentError } from '../../../lib/errors.js';
import { classifyGoogleError, type GoogleErrorClass } from './client/errors.js';

/**
 * A failed Sheets call, classified. `mayHaveApplied` is true when the request was a write and
 * the failure does not prove Google refused it (5xx, timeout, connection lost): the rows it
 * carried may be in the sheet.
 */
export class GoogleCallError extends Error {
  constructor(
    readonly call: string,
    readonly cls: GoogleErrorClass,
    readonly mayHaveApplied: boolean,
  ) {
    super(`${call}: ${cls.reason}`);
    this.name = 'GoogleCallError';
  }
}

function mayHaveApplied(cls: GoogleErrorClass): boolean {
  if (cls.kind === 'fatal') return false;
  // 429 is a quota refusal; everything else retryable (5xx, 408, network) is ambiguous.
  return cls.status !== 429;
}

/** Runs one Sheets call; failures come out as GoogleCallError, never as library errors. */
export async function googleCall<T>(call: string, write: boolean, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const cls = classifyGoogleError(err);
    throw new GoogleCallError(call, cls, write && mayHaveApplied(cls));
  }
}

/** A human-readable reason for the export's `last_error`. */
export function describeGoogleError(e: GoogleCallError): string {
  const c = e.cls;
  const status = c.status
    ? `Google ${c.status}${c.kind === 'fatal' && c.code ? ` ${c.code}` : ''}`
    : 'Google request failed';
  return `${status} on ${e.call}: ${c.reason}`;
}

/** Credentials that cannot be used (missing connection, undecryptable, malformed): a permanent export error. */
export class ConnectionUnusableError extends PermanentError {
  override readonly name = 'ConnectionUnusableError';
  constructor(message: string) {
    super('CREDENTIALS_UNUSABLE', message);
  }
}
