import { describe, expect, it } from 'vitest';
import { instantOf, isoInZone, isValidTimeZone, offsetMinutesAt } from '../../../src/lib/time.js';
import {
  latestOccurrence,
  nextOccurrence,
  occurrenceAt,
  type ScheduleSpec,
} from '../../../src/modules/reports/schedule-math.js';

const utc = (s: string) => Date.parse(s);
const iso = (t: number) => new Date(t).toISOString();

/** Every occurrence from `from` to `to`, walking the schedule as a scheduler would. */
function walk(spec: ScheduleSpec, from: string, to: string): { at: string; key: string; local: string }[] {
  const out = [];
  let t = utc(from);
  for (;;) {
    const o = nextOccurrence(spec, t);
    if (o.at > utc(to)) return out;
    out.push({ at: iso(o.at), key: o.key, local: isoInZone(o.at, spec.timezone) });
    t = o.at;
  }
}

describe('zone arithmetic', () => {
  it('knows zones and offsets', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(offsetMinutesAt(utc('2026-01-15T12:00:00Z'), 'Europe/Berlin')).toBe(60);
    expect(offsetMinutesAt(utc('2026-07-15T12:00:00Z'), 'Europe/Berlin')).toBe(120);
    expect(offsetMinutesAt(utc('2026-07-15T12:00:00Z'), 'America/New_York')).toBe(-240);
    expect(offsetMinutesAt(utc('2026-07-15T12:00:00Z'), 'Asia/Kathmandu')).toBe(345);
  });

  it('moves a time inside the spring-forward gap forward by the jump, and takes the first of a repeated time', () => {
    expect(iso(instantOf({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe(
      '2026-03-29T01:30:00.000Z',
    );
    expect(iso(instantOf({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    expect(iso(instantOf({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, 'America/New_York'))).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    expect(iso(instantOf({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York'))).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    expect(iso(instantOf({ year: 2026, month: 6, day: 1, hour: 9, minute: 0 }, 'UTC'))).toBe(
      '2026-06-01T09:00:00.000Z',
    );
  });
});

describe('daily schedules across DST', () => {
  it('02:30 in Europe/Berlin runs once on the spring-forward day and once on the fall-back day', () => {
    const spec: ScheduleSpec = { frequency: 'daily', time: '02:30', timezone: 'Europe/Berlin' };
    expect(walk(spec, '2026-03-27T12:00:00Z', '2026-03-31T12:00:00Z')).toEqual([
      { at: '2026-03-28T01:30:00.000Z', key: '2026-03-28', local: '2026-03-28T02:30:00+01:00' },
      { at: '2026-03-29T01:30:00.000Z', key: '2026-03-29', local: '2026-03-29T03:30:00+02:00' },
      { at: '2026-03-30T00:30:00.000Z', key: '2026-03-30', local: '2026-03-30T02:30:00+02:00' },
      { at: '2026-03-31T00:30:00.000Z', key: '2026-03-31', local: '2026-03-31T02:30:00+02:00' },
    ]);
    expect(walk(spec, '2026-10-23T12:00:00Z', '2026-10-27T12:00:00Z')).toEqual([
      { at: '2026-10-24T00:30:00.000Z', key: '2026-10-24', local: '2026-10-24T02:30:00+02:00' },
      { at: '2026-10-25T00:30:00.000Z', key: '2026-10-25', local: '2026-10-25T02:30:00+02:00' },
      { at: '2026-10-26T01:30:00.000Z', key: '2026-10-26', local: '2026-10-26T02:30:00+01:00' },
      { at: '2026-10-27T01:30:00.000Z', key: '2026-10-27', local: '2026-10-27T02:30:00+01:00' },
    ]);
  });

  it('America/New_York: 02:30 on the spring-forward day and 01:30 (repeated) on the fall-back day run once', () => {
    const spring: ScheduleSpec = { frequency: 'daily', time: '02:30', timezone: 'America/New_York' };
    expect(walk(spring, '2026-03-07T00:00:00Z', '2026-03-09T23:00:00Z').map((o) => o.local)).toEqual([
      '2026-03-07T02:30:00-05:00',
      '2026-03-08T03:30:00-04:00',
      '2026-03-09T02:30:00-04:00',
    ]);
    const fall: ScheduleSpec = { frequency: 'daily', time: '01:30', timezone: 'America/New_York' };
    expect(walk(fall, '2026-10-31T00:00:00Z', '2026-11-02T23:00:00Z').map((o) => o.local)).toEqual([
      '2026-10-31T01:30:00-04:00',
      '2026-11-01T01:30:00-04:00',
      '2026-11-02T01:30:00-05:00',
    ]);
  });

  it('a year of daily runs gives one run per local date in both zones', () => {
    for (const timezone of ['Europe/Berlin', 'America/New_York']) {
      for (const time of ['00:00', '01:30', '02:30', '03:00', '23:59']) {
        const runs = walk({ frequency: 'daily', time, timezone }, '2025-12-30T00:00:00Z', '2027-01-02T00:00:00Z');
        const keys = runs.map((r) => r.key);
        expect(new Set(keys).size).toBe(keys.length);
        expect(keys.filter((k) => k.startsWith('2026-')).length).toBe(365);
        // strictly increasing instants
        for (let i = 1; i < runs.length; i++)
          expect(Date.parse(runs[i].at)).toBeGreaterThan(Date.parse(runs[i - 1].at));
      }
    }
  });
});

describe('weekly and monthly schedules', () => {
  it('weekly on a weekday, across the fall-back weekend', () => {
    const spec: ScheduleSpec = { frequency: 'weekly', time: '02:30', timezone: 'Europe/Berlin', day_of_week: 'sunday' };
    expect(walk(spec, '2026-10-12T00:00:00Z', '2026-11-02T00:00:00Z').map((o) => o.local)).toEqual([
      '2026-10-18T02:30:00+02:00',
      '2026-10-25T02:30:00+02:00',
      '2026-11-01T02:30:00+01:00',
    ]);
    // Default weekday is Monday.
    expect(
      nextOccurrence({ frequency: 'weekly', time: '09:00', timezone: 'UTC' }, utc('2026-06-03T00:00:00Z')).key,
    ).toBe('2026-06-08');
  });

  it('day 31 falls back to the last day of shorter months (Feb 28, and Feb 29 in a leap year)', () => {
    const spec: ScheduleSpec = { frequency: 'monthly', time: '08:00', timezone: 'America/New_York', day_of_month: 31 };
    expect(walk(spec, '2026-12-01T00:00:00Z', '2028-04-01T00:00:00Z').map((o) => o.key)).toEqual([
      '2026-12-31',
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
    ]);
    const d30 = walk({ ...spec, day_of_month: 30 }, '2028-01-15T00:00:00Z', '2028-04-01T00:00:00Z').map((o) => o.key);
    expect(d30).toEqual(['2028-01-30', '2028-02-29', '2028-03-30']);
    const d29 = walk({ ...spec, day_of_month: 29 }, '2027-01-15T00:00:00Z', '2027-04-01T00:00:00Z').map((o) => o.key);
    expect(d29).toEqual(['2027-01-29', '2027-02-28', '2027-03-29']);
    // Default day is the 1st.
    expect(
      nextOccurrence({ frequency: 'monthly', time: '00:00', timezone: 'UTC' }, utc('2026-02-01T00:00:00Z')).key,
    ).toBe('2026-03-01');
  });

  it('monthly at midnight in the zone on a DST day', () => {
    // São Paulo no longer has DST; Santiago jumps at midnight (00:00 → 01:00) in September.
    const spec: ScheduleSpec = { frequency: 'monthly', time: '00:30', timezone: 'America/Santiago', day_of_month: 6 };
    const runs = walk(spec, '2026-08-01T00:00:00Z', '2026-10-10T00:00:00Z');
    expect(runs.map((r) => r.key)).toEqual(['2026-08-06', '2026-09-06', '2026-10-06']);
  });
});

describe('latest and exact occurrences', () => {
  const spec: ScheduleSpec = { frequency: 'daily', time: '02:30', timezone: 'Europe/Berlin' };
  it('finds the occurrence at or before an instant', () => {
    expect(latestOccurrence(spec, utc('2026-03-29T01:30:00Z'))).toEqual({
      at: utc('2026-03-29T01:30:00Z'),
      key: '2026-03-29',
    });
    expect(latestOccurrence(spec, utc('2026-03-29T01:29:59Z'))).toEqual({
      at: utc('2026-03-28T01:30:00Z'),
      key: '2026-03-28',
    });
    // During the repeated hour, after the first 02:30 and at the second: still the first.
    expect(latestOccurrence(spec, utc('2026-10-25T01:30:00Z')).at).toBe(utc('2026-10-25T00:30:00Z'));
  });
  it('recognises an exact firing instant', () => {
    expect(occurrenceAt(spec, utc('2026-10-25T00:30:00Z'))?.key).toBe('2026-10-25');
    // The second 02:30 of the fall-back day is not an occurrence.
    expect(occurrenceAt(spec, utc('2026-10-25T01:30:00Z'))).toBeNull();
  });
});
