// Wall-clock arithmetic in IANA time zones with the runtime's own zone data (Intl), so that
// schedules and day buckets agree with what people in that zone see on their clocks.

/** A local date and time, without a zone. Months are 1-12. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** True when the runtime knows `tz` as an IANA zone name (UTC included). */
export function isValidTimeZone(tz: string): boolean {
  if (typeof tz !== 'string' || tz.length === 0 || tz.length > 64) return false;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time (to the second) shown in `tz` at `instant` (ms since the epoch). */
export function wallTimeAt(instant: number, tz: string): WallTime & { second: number } {
  const parts = formatter(tz).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** Minutes the zone is ahead of UTC at `instant` (Berlin in summer: 120). */
export function offsetMinutesAt(instant: number, tz: string): number {
  const w = wallTimeAt(instant, tz);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const seconds = Math.floor(instant / 1000) * 1000;
  return Math.round((asUtc - seconds) / 60_000);
}

/**
 * The instant a wall-clock time happens in `tz`. A time that occurs twice (clocks going back)
 * gives the first occurrence; a time that never occurs (clocks jumping forward) is moved
 * forward by the length of the jump, i.e. read with the offset in force before it (02:30 on
 * the spring-forward day in Berlin is 03:30 local, 01:30 UTC).
 */
export function instantOf(w: WallTime, tz: string): number {
  const local = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  // Every zone changes its offset at most once within a day on either side of a time.
  const before = offsetMinutesAt(local - 86_400_000, tz);
  const after = offsetMinutesAt(local + 86_400_000, tz);
  const candidates = [...new Set([before, after])]
    .map((o) => local - o * 60_000)
    .filter((t) => offsetMinutesAt(t, tz) * 60_000 === local - t)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0];
  return local - before * 60_000;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Day of the week of a calendar date: 0 = Sunday … 6 = Saturday. */
export function weekdayOf(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** The calendar date `days` after (or before) the given one. */
export function addDays(
  d: { year: number; month: number; day: number },
  days: number,
): { year: number; month: number; day: number } {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function isoDate(d: { year: number; month: number; day: number }): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

/** `instant` as ISO 8601 in `tz` with its offset, e.g. 2026-03-29T03:30:00+02:00. */
export function isoInZone(instant: number, tz: string): string {
  const w = wallTimeAt(instant, tz);
  const off = offsetMinutesAt(instant, tz);
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  return `${isoDate(w)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}
