// The cron patterns that wake report schedules, and how far BullMQ's cron parser agrees with the
// schedule's own occurrences (schedule-math.ts): in Europe/Berlin and America/New_York it fires
// exactly at every occurrence through a whole year, DST days included; where local midnight does
// not exist (America/Santiago) it skips the day, which is why every claim also leaves a
// follow-up tick at the exact next occurrence.
import { CronExpressionParser } from 'cron-parser';
import { describe, expect, it } from 'vitest';
import { nextOccurrence, type ScheduleSpec } from '../../../src/modules/reports/schedule-math.js';
import { cronPattern } from '../../../src/modules/reports/schedules.js';

/** Every occurrence in [from, to) and the cron fires in the same span. */
function both(spec: ScheduleSpec, from: string, to: string) {
  const end = Date.parse(to);
  const occurrences: string[] = [];
  for (let t = Date.parse(from); ;) {
    const o = nextOccurrence(spec, t);
    if (o.at >= end) break;
    occurrences.push(new Date(o.at).toISOString());
    t = o.at;
  }
  const cron = CronExpressionParser.parse(cronPattern(spec), { tz: spec.timezone, currentDate: new Date(from) });
  const fires: string[] = [];
  for (let d = cron.next(); d.getTime() < end; d = cron.next()) fires.push(d.toISOString()!);
  return { occurrences, fires };
}

describe('report schedule cron patterns', () => {
  it('daily, weekly and monthly patterns (29-31 fire from the 28th on; the claim picks the day)', () => {
    expect(cronPattern({ frequency: 'daily', time: '02:30', timezone: 'UTC' })).toBe('0 30 2 * * *');
    expect(cronPattern({ frequency: 'weekly', time: '07:05', timezone: 'UTC', day_of_week: 'sunday' })).toBe(
      '0 5 7 * * 0',
    );
    expect(cronPattern({ frequency: 'weekly', time: '07:05', timezone: 'UTC' })).toBe('0 5 7 * * 1');
    expect(cronPattern({ frequency: 'monthly', time: '23:59', timezone: 'UTC' })).toBe('0 59 23 1 * *');
    expect(cronPattern({ frequency: 'monthly', time: '00:00', timezone: 'UTC', day_of_month: 28 })).toBe(
      '0 0 0 28 * *',
    );
    expect(cronPattern({ frequency: 'monthly', time: '00:00', timezone: 'UTC', day_of_month: 29 })).toBe(
      '0 0 0 28-31 * *',
    );
  });

  it.each(['Europe/Berlin', 'America/New_York'])(
    '%s 02:30 daily: cron fires at every occurrence of 2026, DST days included',
    (timezone) => {
      const { occurrences, fires } = both(
        { frequency: 'daily', time: '02:30', timezone },
        '2026-01-01T00:00:00Z',
        '2027-01-01T00:00:00Z',
      );
      expect(occurrences).toHaveLength(365);
      expect(fires).toEqual(occurrences);
    },
  );

  it('monthly on the 31st: every month has one occurrence, among the cron fires', () => {
    const { occurrences, fires } = both(
      { frequency: 'monthly', time: '09:00', timezone: 'Europe/Berlin', day_of_month: 31 },
      '2027-12-01T00:00:00Z',
      '2029-01-01T00:00:00Z',
    );
    expect(occurrences.map((o) => o.slice(0, 10))).toEqual([
      '2027-12-31',
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
      '2028-04-30',
      '2028-05-31',
      '2028-06-30',
      '2028-07-31',
      '2028-08-31',
      '2028-09-30',
      '2028-10-31',
      '2028-11-30',
      '2028-12-31',
    ]);
    for (const o of occurrences) expect(fires).toContain(o);
  });

  it('America/Santiago 00:00: cron skips the day whose midnight does not exist; the occurrence is 01:00 that day', () => {
    const { occurrences, fires } = both(
      { frequency: 'daily', time: '00:00', timezone: 'America/Santiago' },
      '2026-09-04T12:00:00Z',
      '2026-09-08T12:00:00Z',
    );
    expect(occurrences).toEqual([
      '2026-09-05T04:00:00.000Z',
      '2026-09-06T04:00:00.000Z',
      '2026-09-07T03:00:00.000Z',
      '2026-09-08T03:00:00.000Z',
    ]);
    expect(fires).toEqual(['2026-09-05T04:00:00.000Z', '2026-09-07T03:00:00.000Z', '2026-09-08T03:00:00.000Z']);
  });
});
