// Checks a subscription URL when it is saved. The authoritative SSRF check happens at delivery
// time inside the connector (DNS can change after creation); this one only refuses what can
// never be valid, so the owner hears about it at once instead of through failed deliveries.
import type { AllowList } from '../../lib/http-client/allow-list.js';
import { isForbiddenAddress } from '../../lib/http-client/ip-policy.js';
import { parseIp } from '../../lib/http-client/ip-parse.js';

export const MAX_URL_LENGTH = 2048;

/** Says how an operator allows such a target (for a receiver on the local network, say). */
const howToAllow = (setting: string) => `to allow it, the operator adds the host or address to ${setting}`;

/**
 * Returns a reason when the URL must be refused, or null when it may be stored. `setting` names
 * the allow-list the operator would extend (workflows' http_request has its own).
 */
export function checkSubscriptionUrl(raw: string, allow: AllowList, setting = 'WEBHOOK_ALLOWED_HOSTS'): string | null {
  const HOW_TO_ALLOW = howToAllow(setting);
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.hash) return 'must not contain a fragment';
  // WHATWG parsing has already turned odd IPv4 spellings (0x7f.1, 2130706433) into dotted quads.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') return 'must have a host';
  if (allow.allowsHost(host)) return null;
  if (parseIp(host)) {
    if (allow.allowsAddress(host)) return null;
    const verdict = isForbiddenAddress(host);
    return verdict.forbidden
      ? `points to a forbidden address (${verdict.reason ?? 'reserved'}); ${HOW_TO_ALLOW}`
      : null;
  }
  const lower = host.toLowerCase().replace(/\.$/, '');
  if (lower === 'localhost' || lower.endsWith('.localhost'))
    return `points to the local machine (localhost); ${HOW_TO_ALLOW}`;
  return null;
}
