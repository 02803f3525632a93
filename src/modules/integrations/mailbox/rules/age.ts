const DAY_MS = 86_400_000;

/**
 * True when a message dated `date` is older than `maxAgeDays` at `now`. No limit (null,
 * undefined, 0 or negative) or an unknown/invalid date never counts as too old: the IMAP
 * SINCE search already bounds the listing, and dropping undated mail silently is worse.
 */
export function messageTooOld(
  date: Date | null | undefined,
  maxAgeDays: number | null | undefined,
  now: Date,
): boolean {
  if (!maxAgeDays || maxAgeDays <= 0) return false;
  if (!date || Number.isNaN(date.getTime())) return false;
  return now.getTime() - date.getTime() > maxAgeDays * DAY_MS;
}

/** Start of the IMAP SINCE window for a max age (SINCE compares whole days). */
export function sinceDate(maxAgeDays: number | null | undefined, now: Date): Date | undefined {
  if (!maxAgeDays || maxAgeDays <= 0) return undefined;
  return new Date(now.getTime() - maxAgeDays * DAY_MS);
}
