// What one delivery attempt means for the delivery: done, try again later, or stop.
import type { SafeResponse } from '../../lib/http-client/safe-fetch.js';

export type AttemptOutcome = 'delivered' | 'retry' | 'gone';

/**
 * Classifies an attempt result.
 * - `delivered`: a 2xx status with no transport error. Anything else is a failure, including 3xx
 *   (redirects are never followed) and a 2xx whose body then timed out.
 * - `gone`: 410 (the receiver says the endpoint is permanently gone) and INVALID_URL (no request
 *   can ever be made). The caller stops retrying and marks the subscription accordingly.
 * - `retry`: every other status, TIMEOUT, NETWORK, DNS and FORBIDDEN_ADDRESS. A forbidden
 *   address is retried on the normal schedule rather than stopped: nothing is sent to it (the
 *   check happens before connecting), and it is often fixable without touching the subscription
 *   (DNS corrected, operator allow-list extended). When the schedule runs out the subscription
 *   becomes `failing` like any other, and the attempt log shows the reason.
 */
export function classifyAttempt(result: Pick<SafeResponse, 'status' | 'error'>): AttemptOutcome {
  if (result.error) return result.error.code === 'INVALID_URL' ? 'gone' : 'retry';
  if (result.status >= 200 && result.status < 300) return 'delivered';
  if (result.status === 410) return 'gone';
  return 'retry';
}
