// Create or edit a report: type (fixed once created), the period and projects it covers, its
// zone, and the filters its type reads. The API names any key it refuses; those show here.
import { useState, type FormEvent } from 'react';
import * as api from '../../lib/api';
import { client, ok } from '../../lib/client';
import { errorText, useGetPage } from '../../lib/queries';
import { Dialog } from '../../components/Dialog';
import { Button, Field } from '../../components/ui';
import { DOCUMENT_STATUSES } from '../../lib/types';
import { humanize } from '../../lib/format';
import { REPORT_TYPES, TYPE_INFO, type DataSource, type Filters, type Report, type ReportType } from './types';

const LAST = [
  ['24h', 'Last 24 hours'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['3m', 'Last 3 months'],
  ['12m', 'Last 12 months'],
] as const;
const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

export function ReportForm({ report, onDone, onClose }: { report?: Report; onDone(r: Report): void; onClose(): void }) {
  const projects = useGetPage('/api/v1/projects', { query: { limit: 100, sort: 'name', order: 'asc' } });
  const ds = report?.data_source ?? {};
  const f = report?.filters ?? {};
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [name, setName] = useState(report?.name ?? '');
  const [type, setType] = useState<ReportType>(report?.type ?? 'document_summary');
  const [description, setDescription] = useState(report?.description ?? '');
  const [category, setCategory] = useState(report?.category ?? '');
  const [tags, setTags] = useState((report?.tags ?? []).join(', '));
  const [periodKind, setPeriodKind] = useState<'last' | 'range' | 'default'>(
    ds.period ? ('last' in ds.period ? 'last' : 'range') : report ? 'default' : 'last',
  );
  const [last, setLast] = useState(ds.period && 'last' in ds.period ? ds.period.last : '7d');
  const [from, setFrom] = useState(ds.period && 'from' in ds.period ? ds.period.from : '');
  const [to, setTo] = useState(ds.period && 'to' in ds.period ? ds.period.to : '');
  const [timezone, setTimezone] = useState(ds.timezone ?? (report ? '' : zone));
  const [projectIds, setProjectIds] = useState<string[]>(ds.project_ids ?? []);
  const [status, setStatus] = useState<string[]>(f.status ?? []);
  const [classification, setClassification] = useState((f.classification ?? []).join(', '));
  const [source, setSource] = useState<string[]>(f.source ?? []);
  const [minConf, setMinConf] = useState(f.min_confidence === undefined ? '' : String(f.min_confidence));
  const [fields, setFields] = useState((f.fields ?? []).join(', '));
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<api.FieldIssue[]>([]);
  const [busy, setBusy] = useState(false);
  const allowed = TYPE_INFO[type].filters;
  const issue = (prefix: string) =>
    issues
      .filter((i) => i.field === prefix || i.field.startsWith(`${prefix}.`) || i.field.startsWith(`${prefix}[`))
      .map((i) => `${i.field} ${i.message}`)
      .join('; ') || undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setIssues([]);
    const data_source: DataSource = {};
    if (periodKind === 'last') data_source.period = { last };
    if (periodKind === 'range') data_source.period = { from, to };
    if (timezone) data_source.timezone = timezone;
    if (projectIds.length) data_source.project_ids = projectIds;
    const filters: Filters = {};
    if (allowed.includes('status') && status.length) filters.status = status;
    if (allowed.includes('classification') && list(classification).length)
      filters.classification = list(classification);
    if (allowed.includes('source') && source.length) filters.source = source;
    if (allowed.includes('min_confidence') && minConf !== '') filters.min_confidence = Number(minConf);
    if (allowed.includes('fields') && list(fields).length) filters.fields = list(fields);
    const body = {
      name,
      description: description || null,
      category: category || null,
      tags: list(tags),
      data_source,
      filters,
    };
    try {
      onDone(
        report
          ? await ok(client.PUT('/api/v1/reports/{id}', { params: { path: { id: report.id } }, body }))
          : await ok(client.POST('/api/v1/reports', { body: { ...body, type } })),
      );
    } catch (err) {
      setError(errorText(err));
      if (err instanceof api.ApiError) setIssues(err.fields);
    } finally {
      setBusy(false);
    }
  };
  const toggle = (xs: string[], x: string, on: boolean) => (on ? [...xs, x] : xs.filter((y) => y !== x));
  return (
    <Dialog open title={report ? `Edit ${report.name}` : 'New report'} onClose={onClose} wide>
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          <Field label="Name" htmlFor="rp-name" error={issue('name')}>
            <input id="rp-name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field
            label="Type"
            htmlFor="rp-type"
            hint={report ? 'The type of a report cannot change.' : TYPE_INFO[type].about}>
            <select
              id="rp-type"
              value={type}
              disabled={!!report}
              onChange={(e) => setType(e.target.value as ReportType)}>
              {REPORT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_INFO[t].label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Category" htmlFor="rp-cat" error={issue('category')}>
            <input
              id="rp-cat"
              value={category}
              maxLength={100}
              placeholder="e.g. finance"
              onChange={(e) => setCategory(e.target.value)}
            />
          </Field>
          <Field label="Tags" htmlFor="rp-tags" hint="Comma-separated." error={issue('tags')}>
            <input id="rp-tags" value={tags} onChange={(e) => setTags(e.target.value)} />
          </Field>
        </div>
        <Field label="Description" htmlFor="rp-desc">
          <input id="rp-desc" value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <fieldset className="rp-fieldset">
          <legend>Data</legend>
          <div className="form-grid">
            <Field
              label="Period"
              htmlFor="rp-period"
              error={issue('data_source.period')}
              hint="A scheduled run covers the period ending at its run.">
              <select
                id="rp-period"
                value={periodKind === 'last' ? last : periodKind}
                onChange={(e) => {
                  const v = e.target.value;
                  if (v === 'range' || v === 'default') setPeriodKind(v);
                  else {
                    setPeriodKind('last');
                    setLast(v);
                  }
                }}>
                {LAST.map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
                {periodKind === 'last' && !LAST.some(([v]) => v === last) ? (
                  <option value={last}>Last {last}</option>
                ) : null}
                <option value="range">From … to …</option>
                <option value="default">Default (30 days, or since the previous scheduled run)</option>
              </select>
            </Field>
            {periodKind === 'range' ? (
              <>
                <Field label="From" htmlFor="rp-from">
                  <input id="rp-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
                </Field>
                <Field label="To (inclusive)" htmlFor="rp-to">
                  <input id="rp-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
                </Field>
              </>
            ) : null}
            <Field
              label="Time zone"
              htmlFor="rp-tz"
              error={issue('data_source.timezone')}
              hint="Days and hours are counted in this zone. Empty: the schedule's zone, else UTC.">
              <input
                id="rp-tz"
                value={timezone}
                list="rp-zones"
                placeholder="UTC"
                onChange={(e) => setTimezone(e.target.value)}
              />
            </Field>
          </div>
          {projects.data?.data.length ? (
            <div className="field">
              <span className="field-label" id="rp-projects-l">
                Projects <span className="muted small">(none chosen: all)</span>
              </span>
              <div className="rp-checks" role="group" aria-labelledby="rp-projects-l">
                {projects.data.data.map((p) => (
                  <label key={p.id} className="check">
                    <input
                      type="checkbox"
                      checked={projectIds.includes(p.id)}
                      onChange={(e) => setProjectIds(toggle(projectIds, p.id, e.target.checked))}
                    />{' '}
                    {p.name}
                  </label>
                ))}
              </div>
              {issue('data_source.project_ids') ? (
                <div className="field-error" role="alert">
                  {issue('data_source.project_ids')}
                </div>
              ) : null}
            </div>
          ) : null}
        </fieldset>
        {allowed.length ? (
          <fieldset className="rp-fieldset">
            <legend>Filters</legend>
            <div className="field">
              <span className="field-label" id="rp-status-l">
                Status
              </span>
              <div className="rp-checks rp-checks-row" role="group" aria-labelledby="rp-status-l">
                {DOCUMENT_STATUSES.map((s) => (
                  <label key={s} className="check">
                    <input
                      type="checkbox"
                      checked={status.includes(s)}
                      onChange={(e) => setStatus(toggle(status, s, e.target.checked))}
                    />{' '}
                    {humanize(s)}
                  </label>
                ))}
              </div>
            </div>
            <div className="field">
              <span className="field-label" id="rp-source-l">
                Source
              </span>
              <div className="rp-checks rp-checks-row" role="group" aria-labelledby="rp-source-l">
                {['upload', 'email', 'api'].map((s) => (
                  <label key={s} className="check">
                    <input
                      type="checkbox"
                      checked={source.includes(s)}
                      onChange={(e) => setSource(toggle(source, s, e.target.checked))}
                    />{' '}
                    {s}
                  </label>
                ))}
              </div>
            </div>
            <div className="form-grid">
              <Field
                label="Types"
                htmlFor="rp-class"
                hint="Comma-separated, e.g. invoice, receipt."
                error={issue('filters.classification')}>
                <input id="rp-class" value={classification} onChange={(e) => setClassification(e.target.value)} />
              </Field>
              <Field
                label="Minimum confidence"
                htmlFor="rp-minconf"
                hint="0 to 1."
                error={issue('filters.min_confidence')}>
                <input
                  id="rp-minconf"
                  type="number"
                  min={0}
                  max={1}
                  step={0.05}
                  value={minConf}
                  onChange={(e) => setMinConf(e.target.value)}
                />
              </Field>
              {allowed.includes('fields') ? (
                <Field
                  label="Fields to export"
                  htmlFor="rp-fields"
                  hint="In order, comma-separated. Empty: every field found."
                  error={issue('filters.fields')}>
                  <input
                    id="rp-fields"
                    value={fields}
                    onChange={(e) => setFields(e.target.value)}
                    placeholder="invoice_number, total, date"
                  />
                </Field>
              ) : null}
            </div>
          </fieldset>
        ) : (
          <p className="small muted">This type has no filters.</p>
        )}
        <datalist id="rp-zones">
          {['UTC', zone, 'Europe/Berlin', 'Europe/London', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo']
            .filter((z, i, a) => a.indexOf(z) === i)
            .map((z) => (
              <option key={z} value={z} />
            ))}
        </datalist>
        {error ? (
          <div className="error-box" role="alert">
            {error}
          </div>
        ) : null}
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="submit"
            variant="primary"
            busy={busy}
            disabled={!name.trim() || (periodKind === 'range' && (!from || !to))}>
            {report ? 'Save report' : 'Create report'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
