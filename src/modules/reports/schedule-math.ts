// When a report schedule fires. Occurrences are computed per local calendar date in the
// schedule's zone, so each period has exactly one: a time that does not exist on the
// spring-forward day fires once, shifted forward by the jump; a time that occurs twice on the
// fall-back day fires once, at its first occurrence.
import { addDays, daysInMonth, instantOf, isoDate, wallTimeAt, weekdayOf } from '../../lib/time.js';

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface ScheduleSpec {
  frequency: Frequency;
  /** "HH:MM", 24-hour. */
  time: string;
  timezone: string;
  /** Weekly only. */
  day_of_week?: Weekday | null;
  /** Monthly only: 1-31; 29-31 fall back to the month's last day when it is shorter. */
  day_of_month?: number | null;
}

export interface Occurrence {
  /** The instant it fires, ms since the epoch. */
  at: number;
  /** The local calendar date it belongs to: the period's identity (one execution per key). */
  key: string;
}

type CalendarDate = { year: number; month: number; day: number };

export const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

function parseTime(time: string): { hour: number; minute: number } {
  const m = TIME_PATTERN.exec(time);
  if (!m) throw new Error(`invalid schedule time ${JSON.stringify(time)}`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** The occurrence on a calendar date, or null when the schedule does not fire that day. */
function occurrenceOn(spec: ScheduleSpec, date: CalendarDate, hm: { hour: number; minute: number }): Occurrence | null {
  if (spec.frequency === 'weekly') {
    const want = WEEKDAYS.indexOf(spec.day_of_week ?? 'monday');
    if (weekdayOf(date.year, date.month, date.day) !== want) return null;
  } else if (spec.frequency === 'monthly') {
    const want = Math.min(spec.day_of_month ?? 1, daysInMonth(date.year, date.month));
    if (date.day !== want) return null;
  }
  return { at: instantOf({ ...date, ...hm }, spec.timezone), key: isoDate(date) };
}

/** Calendar dates around `instant` in the schedule's zone, one period's worth either side. */
function datesAround(spec: ScheduleSpec, instant: number, direction: 1 | -1): CalendarDate[] {
  const w = wallTimeAt(instant, spec.timezone);
  const span = spec.frequency === 'daily' ? 3 : spec.frequency === 'weekly' ? 9 : 63;
  const out: CalendarDate[] = [];
  // Starting a day behind (or ahead) covers an occurrence whose local date differs from the
  // date of `instant` (a shifted time near midnight).
  for (let i = -1; i <= span; i++) out.push(addDays(w, i * direction));
  return out;
}

/** The first occurrence strictly after `instant`. */
export function nextOccurrence(spec: ScheduleSpec, instant: number): Occurrence {
  const hm = parseTime(spec.time);
  let best: Occurrence | null = null;
  for (const d of datesAround(spec, instant, 1)) {
    const o = occurrenceOn(spec, d, hm);
    if (o && o.at > instant && (!best || o.at < best.at)) best = o;
  }
  if (!best) throw new Error('no occurrence found');
  return best;
}

/** The last occurrence at or before `instant`. */
export function latestOccurrence(spec: ScheduleSpec, instant: number): Occurrence {
  const hm = parseTime(spec.time);
  let best: Occurrence | null = null;
  for (const d of datesAround(spec, instant, -1)) {
    const o = occurrenceOn(spec, d, hm);
    if (o && o.at <= instant && (!best || o.at > best.at)) best = o;
  }
  if (!best) throw new Error('no occurrence found');
  return best;
}

/** The occurrence firing exactly at `instant`, if the schedule has one there. */
export function occurrenceAt(spec: ScheduleSpec, instant: number): Occurrence | null {
  const o = latestOccurrence(spec, instant);
  return o.at === instant ? o : null;
}
