import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/lib/errors.js';
import { resolvePeriod, validateDefinition } from '../../../src/modules/reports/definition.js';

function issues(fn: () => unknown): { field: string; message: string }[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).details as { field: string; message: string }[];
  }
  throw new Error('expected a validation error');
}

describe('report definitions', () => {
  it('normalises valid data sources and filters', () => {
    expect(
      validateDefinition(
        'extraction_export',
        { project_ids: 'prj_1', period: { last: '7d' }, timezone: 'Europe/Berlin' },
        {
          status: 'completed',
          classification: ['invoice', 'invoice'],
          source: ['upload'],
          min_confidence: 0.5,
          fields: ['total'],
        },
      ),
    ).toEqual({
      data_source: { project_ids: ['prj_1'], period: { last: '7d' }, timezone: 'Europe/Berlin' },
      filters: {
        status: ['completed'],
        classification: ['invoice'],
        source: ['upload'],
        min_confidence: 0.5,
        fields: ['total'],
      },
    });
    expect(validateDefinition('usage', undefined, null)).toEqual({ data_source: {}, filters: {} });
  });

  it('names unknown keys', () => {
    expect(issues(() => validateDefinition('document_summary', { projects: [] }, { state: 'x' }))).toEqual([
      { field: 'data_source.projects', message: 'is not an accepted field' },
      { field: 'filters.state', message: 'is not an accepted field' },
    ]);
    expect(
      issues(() => validateDefinition('document_summary', { period: { last: '7d', days: 3 } }, {})),
    ).toContainEqual({ field: 'data_source.period.days', message: 'is not an accepted field' });
  });

  it('refuses filters a type does not read, and bad values', () => {
    expect(issues(() => validateDefinition('document_summary', {}, { fields: ['total'] }))).toEqual([
      { field: 'filters.fields', message: 'does not apply to document_summary reports' },
    ]);
    expect(issues(() => validateDefinition('usage', {}, { status: 'completed' }))[0].field).toBe('filters.status');
    const bad = issues(() =>
      validateDefinition(
        'extraction_export',
        { timezone: 'Mars/Base', period: { from: '2026-02-30', to: 'soon' } },
        { status: ['done'], min_confidence: 2, source: [] },
      ),
    );
    expect(bad.map((i) => i.field)).toEqual([
      'data_source.timezone',
      'data_source.period.from',
      'data_source.period.to',
      'filters.status[0]',
      'filters.source',
      'filters.min_confidence',
    ]);
    expect(issues(() => validateDefinition('usage', { period: { last: '7y' } }, {}))[0].field).toBe(
      'data_source.period.last',
    );
    expect(issues(() => validateDefinition('usage', { period: { last: '9999d' } }, {}))[0].message).toMatch(/at most/);
    expect(
      issues(() => validateDefinition('usage', { period: { from: '2026-03-02', to: '2026-03-01' } }, {}))[0].message,
    ).toMatch(/before/);
  });
});

describe('periods', () => {
  const end = Date.parse('2026-03-30T10:00:00Z');
  it('counts days and months on the calendar of the zone', () => {
    // 7 days back across the spring-forward night: 167 hours, same wall-clock time.
    expect(resolvePeriod({ last: '7d' }, 'Europe/Berlin', end)).toEqual({
      from: new Date('2026-03-23T11:00:00Z'),
      to: new Date(end),
    });
    expect(resolvePeriod({ last: '24h' }, 'Europe/Berlin', end).from).toEqual(new Date('2026-03-29T10:00:00Z'));
    expect(resolvePeriod({ last: '1m' }, 'UTC', Date.parse('2026-03-31T06:00:00Z')).from).toEqual(
      new Date('2026-02-28T06:00:00Z'),
    );
    expect(resolvePeriod({ last: '2w' }, 'UTC', end).from).toEqual(new Date('2026-03-16T10:00:00Z'));
  });
  it('reads date-only bounds in the zone, the end date inclusive', () => {
    expect(resolvePeriod({ from: '2026-03-01', to: '2026-03-02' }, 'Europe/Berlin', end)).toEqual({
      from: new Date('2026-02-28T23:00:00Z'),
      to: new Date('2026-03-02T23:00:00Z'),
    });
    expect(resolvePeriod({ from: '2026-03-01T00:00:00Z', to: '2026-03-01T12:00:00+02:00' }, 'UTC', end)).toEqual({
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-01T10:00:00Z'),
    });
  });
  it('defaults to the span since the previous tick, else 30 days', () => {
    expect(resolvePeriod(undefined, 'UTC', end, Date.parse('2026-03-29T10:00:00Z')).from).toEqual(
      new Date('2026-03-29T10:00:00Z'),
    );
    expect(resolvePeriod(undefined, 'UTC', end).from).toEqual(new Date('2026-02-28T10:00:00Z'));
  });
});
