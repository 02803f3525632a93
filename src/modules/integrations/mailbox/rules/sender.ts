/**
 * Pulls the bare address out of `"Name" <user@host>` or returns the trimmed input,
 * lower-cased. Returns '' when there is nothing that looks like an address.
 */
export function extractAddress(from: string | null | undefined): string {
  if (!from) return '';
  const angle = /<([^<>]*)>\s*$/.exec(from);
  const addr = (angle ? angle[1] : from).trim().toLowerCase();
  return addr.includes('@') ? addr : '';
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

/**
 * Sender allow-list check. An empty or missing list allows everyone. Entries:
 * - `user@example.com`: that address exactly (case-insensitive);
 * - `@example.com`: any address whose domain is exactly example.com (not sub.example.com,
 *   so an allow-list never widens silently; list subdomains explicitly).
 *
 * The From header is trivially forged: this is a convenience filter against noise, not
 * authentication.
 */
export function matchesSender(from: string | null | undefined, allowed: readonly string[] | null | undefined): boolean {
  const list = (allowed ?? []).map((a) => a.trim().toLowerCase()).filter((a) => a.length > 0);
  if (list.length === 0) return true;
  const address = extractAddress(from);
  if (!address) return false;
  const domain = domainOf(address);
  return list.some((entry) => (entry.startsWith('@') ? entry.slice(1) === domain : entry === address));
}
