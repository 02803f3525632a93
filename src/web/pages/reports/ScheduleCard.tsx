// A report's schedule: daily, weekly or monthly at a wall-clock time in a zone; the next run is
// shown in that zone and in UTC (as the API computed it).
import { useState, type FormEvent } from 'react';
import * as api from '../../lib/api';
import { client, ok, oneOf } from '../../lib/client';
import { errorText, useInvalidate } from '../../lib/queries';
import { useToast } from '../../components/Toast';
import { Button, Card, Field, KeyValue, RoleButton } from '../../components/ui';
import { FREQUENCIES, WEEKDAYS, type Report, type Schedule } from './types';
import { humanize } from '../../lib/format';

/** "Tue, 1 Dec 2026, 07:30 CET" in a zone. */
export function inZone(iso: string, zone: string): string {
  try {
    return new Date(iso).toLocaleString(undefined, {
      weekday: 'short',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zone,
      timeZoneName: 'short',
    });
  } catch {
    return iso;
  }
}

function describe(s: Schedule): string {
  const at = `at ${s.time} (${s.timezone})`;
  if (s.frequency === 'weekly') return `Every ${humanize(s.day_of_week ?? 'monday')} ${at}`;
  if (s.frequency === 'monthly')
    return `Monthly on day ${s.day_of_month ?? 1}${(s.day_of_month ?? 1) > 28 ? ' (or the last day)' : ''} ${at}`;
  return `Every day ${at}`;
}

export function ScheduleCard({ report }: { report: Report }) {
  const s = report.schedule;
  const toast = useToast();
  const invalidate = useInvalidate();
  const [editing, setEditing] = useState(!s);
  const [frequency, setFrequency] = useState<Schedule['frequency']>(s?.frequency ?? 'daily');
  const [time, setTime] = useState(s?.time ?? '07:00');
  const [timezone, setTimezone] = useState(s?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [dow, setDow] = useState<(typeof WEEKDAYS)[number]>(s?.day_of_week ?? 'monday');
  const [dom, setDom] = useState(String(s?.day_of_month ?? 1));
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<api.FieldIssue[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const issue = (k: string) =>
    issues
      .filter((i) => i.field === k)
      .map((i) => i.message)
      .join('; ') || undefined;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy('save');
    setError(null);
    setIssues([]);
    try {
      const out = await ok(
        client.POST('/api/v1/reports/{id}/schedule', {
          params: { path: { id: report.id } },
          body: {
            time,
            frequency,
            timezone,
            ...(frequency === 'weekly' ? { day_of_week: dow } : {}),
            ...(frequency === 'monthly' ? { day_of_month: Number(dom) } : {}),
          },
        }),
      );
      toast.show(`Scheduled; next run ${inZone(out.next_run_at, out.timezone)}`, 'success');
      setEditing(false);
      await invalidate(`/reports/${report.id}`, '/reports');
    } catch (err) {
      setError(errorText(err));
      if (err instanceof api.ApiError) setIssues(err.fields);
    } finally {
      setBusy(null);
    }
  };
  const remove = async () => {
    setBusy('remove');
    setError(null);
    try {
      await ok(client.DELETE('/api/v1/reports/{id}/schedule', { params: { path: { id: report.id } } }));
      toast.show('Schedule removed', 'success');
      await invalidate(`/reports/${report.id}`, '/reports');
      setEditing(true);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card
      title="Schedule"
      actions={
        s && !editing ? (
          <>
            <RoleButton need="member" className="btn-sm" onClick={() => setEditing(true)} showReason={false}>
              Change
            </RoleButton>
            <RoleButton
              need="member"
              className="btn-sm"
              variant="danger"
              busy={busy === 'remove'}
              onClick={() => void remove()}
              showReason={false}>
              Remove
            </RoleButton>
          </>
        ) : null
      }>
      {s ? (
        <div data-testid="schedule-summary">
          <p className="rp-schedule-line">
            <strong>{describe(s)}</strong>
          </p>
          <KeyValue
            rows={[
              [
                `Next run (${s.timezone})`,
                <span key="l" data-testid="next-run-local">
                  {inZone(s.next_run_at, s.timezone)}
                </span>,
              ],
              [
                'Next run (UTC)',
                <span key="u" data-testid="next-run-utc">
                  {inZone(s.next_run_at, 'UTC')}
                </span>,
              ],
              ['Last run', s.last_run_at ? inZone(s.last_run_at, s.timezone) : 'not yet'],
            ]}
          />
        </div>
      ) : (
        <p className="small muted">Not scheduled: it runs only when someone presses Run now.</p>
      )}
      {editing ? (
        <form onSubmit={submit} noValidate className="mt" aria-label="Schedule">
          <div className="form-grid">
            <Field label="Frequency" htmlFor="sc-freq" error={issue('frequency')}>
              <select
                id="sc-freq"
                value={frequency}
                onChange={(e) => setFrequency(oneOf(FREQUENCIES, e.target.value) ?? 'daily')}>
                {FREQUENCIES.map((f) => (
                  <option key={f} value={f}>
                    {humanize(f)}
                  </option>
                ))}
              </select>
            </Field>
            {frequency === 'weekly' ? (
              <Field label="Day of the week" htmlFor="sc-dow" error={issue('day_of_week')}>
                <select id="sc-dow" value={dow} onChange={(e) => setDow(oneOf(WEEKDAYS, e.target.value) ?? 'monday')}>
                  {WEEKDAYS.map((d) => (
                    <option key={d} value={d}>
                      {humanize(d)}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
            {frequency === 'monthly' ? (
              <Field
                label="Day of the month"
                htmlFor="sc-dom"
                hint="29–31: that day or the last day of a shorter month."
                error={issue('day_of_month')}>
                <input
                  id="sc-dom"
                  type="number"
                  min={1}
                  max={31}
                  value={dom}
                  onChange={(e) => setDom(e.target.value)}
                />
              </Field>
            ) : null}
            <Field label="Time" htmlFor="sc-time" hint="24-hour wall-clock time in the zone." error={issue('time')}>
              {/* Text, not a native time input: that one follows the browser's locale and shows
                  AM/PM beside a hint that says 24-hour. The server checks the value. */}
              <input
                id="sc-time"
                inputMode="numeric"
                pattern="([01][0-9]|2[0-3]):[0-5][0-9]"
                placeholder="HH:MM"
                maxLength={5}
                size={6}
                value={time}
                onChange={(e) => setTime(e.target.value)}
              />
            </Field>
            <Field label="Time zone" htmlFor="sc-tz" hint="IANA name, e.g. Europe/Berlin." error={issue('timezone')}>
              <input id="sc-tz" value={timezone} list="sc-zones" onChange={(e) => setTimezone(e.target.value)} />
              <datalist id="sc-zones">
                {['UTC', 'Europe/Berlin', 'Europe/London', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo'].map(
                  (z) => (
                    <option key={z} value={z} />
                  ),
                )}
              </datalist>
            </Field>
          </div>
          {error ? (
            <div className="error-box" role="alert">
              {error}
            </div>
          ) : null}
          <div className="row">
            <RoleButton
              need="member"
              type="submit"
              variant="primary"
              busy={busy === 'save'}
              disabled={!time || !timezone}>
              {s ? 'Save schedule' : 'Schedule'}
            </RoleButton>
            {s ? <Button onClick={() => setEditing(false)}>Cancel</Button> : null}
          </div>
        </form>
      ) : error ? (
        <div className="error-box" role="alert">
          {error}
        </div>
      ) : null}
    </Card>
  );
}
