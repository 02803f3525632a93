// A node's config as a form generated from its type's fields (served by the API, see
// nodeTypes.ts), or as JSON. Problems
// the API reported for a config path are shown under the field they concern.
import { useEffect, useId, useState } from 'react';
import { useGetPage } from '../../lib/queries';
import { Field } from '../../components/ui';
import type { ConfigField } from './nodeTypes';
import { getPath, setPath, type GraphIssue } from './types';

type Config = Record<string, unknown>;

function MapEditor({
  id,
  value,
  onChange,
  disabled,
  values,
}: {
  id: string;
  value: unknown;
  onChange(v: Config | undefined): void;
  disabled: boolean;
  values: string;
}) {
  const initial =
    value && typeof value === 'object'
      ? Object.entries(value as Config).map(([k, v]) => ({ k, v: String(v ?? '') }))
      : [];
  const [rows, setRows] = useState(initial.length ? initial : [{ k: '', v: '' }]);
  const push = (next: { k: string; v: string }[]) => {
    setRows(next);
    const obj: Config = {};
    for (const r of next) if (r.k.trim()) obj[r.k.trim()] = r.v;
    onChange(Object.keys(obj).length ? obj : undefined);
  };
  return (
    <div className="wf-map" id={id}>
      {rows.map((r, i) => (
        <div key={i} className="wf-map-row">
          <input
            aria-label={`Name ${i + 1}`}
            value={r.k}
            placeholder="name"
            disabled={disabled}
            onChange={(e) => push(rows.map((x, j) => (j === i ? { ...x, k: e.target.value } : x)))}
          />
          <input
            aria-label={`${values === 'template' ? 'Value' : 'Expression'} ${i + 1}`}
            className="mono"
            value={r.v}
            placeholder={values === 'template' ? 'value' : 'expression'}
            disabled={disabled}
            onChange={(e) => push(rows.map((x, j) => (j === i ? { ...x, v: e.target.value } : x)))}
          />
          <button
            type="button"
            className="icon-btn"
            aria-label={`Remove ${r.k || `entry ${i + 1}`}`}
            disabled={disabled}
            onClick={() => push(rows.filter((_, j) => j !== i))}>
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className="link-btn small"
        disabled={disabled}
        onClick={() => setRows([...rows, { k: '', v: '' }])}>
        Add an entry
      </button>
    </div>
  );
}

function RefSelect({
  id,
  value,
  onChange,
  disabled,
  items,
  empty,
}: {
  id: string;
  value: unknown;
  onChange(v: string | undefined): void;
  disabled: boolean;
  items: { id: string; label: string }[];
  empty: string;
}) {
  const v = typeof value === 'string' ? value : '';
  return (
    <select id={id} value={v} disabled={disabled} onChange={(e) => onChange(e.target.value || undefined)}>
      <option value="">{empty}</option>
      {v && !items.some((x) => x.id === v) ? <option value={v}>{v} (not found)</option> : null}
      {items.map((x) => (
        <option key={x.id} value={x.id}>
          {x.label}
        </option>
      ))}
    </select>
  );
}

function FieldInput({
  f,
  id,
  value,
  set,
  disabled,
}: {
  f: ConfigField;
  id: string;
  value: unknown;
  set(v: unknown): void;
  disabled: boolean;
}) {
  const needsProjects = f.kind === 'project' || f.kind === 'projects';
  const projects = useGetPage(
    '/api/v1/projects',
    needsProjects ? { query: { limit: 100, sort: 'name', order: 'asc' } } : null,
  );
  const templates = useGetPage('/api/v1/templates', f.kind === 'template_ref' ? { query: { limit: 100 } } : null);
  const exportsQ = useGetPage(
    '/api/v1/integrations/sheets/exports',
    f.kind === 'export_ref' ? { query: { limit: 100 } } : null,
  );
  const str = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  switch (f.kind) {
    case 'expression':
      return (
        <textarea
          id={id}
          rows={3}
          className="mono"
          value={str}
          disabled={disabled}
          spellCheck={false}
          onChange={(e) => set(e.target.value === '' ? undefined : e.target.value)}
        />
      );
    case 'integer':
    case 'number':
      return (
        <input
          id={id}
          type="number"
          step={f.kind === 'integer' ? 1 : 'any'}
          min={f.minimum}
          max={f.maximum}
          value={str}
          disabled={disabled}
          onChange={(e) => set(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      );
    case 'select':
      return (
        <select id={id} value={str} disabled={disabled} onChange={(e) => set(e.target.value || undefined)}>
          <option value="">{f.default !== undefined ? `(default: ${String(f.default)})` : '(default)'}</option>
          {f.options?.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    case 'checkboxes': {
      const list = Array.isArray(value) ? (value as string[]) : [];
      return (
        <div className="wf-checks" id={id} role="group" aria-label={f.label}>
          {f.options?.map((o) => (
            <label key={o} className="check">
              <input
                type="checkbox"
                checked={list.includes(o)}
                disabled={disabled}
                onChange={(e) => {
                  const next = e.target.checked ? [...list, o] : list.filter((x) => x !== o);
                  set(next.length ? next : undefined);
                }}
              />{' '}
              <code>{o}</code>
            </label>
          ))}
        </div>
      );
    }
    case 'list':
      return (
        <input
          id={id}
          value={Array.isArray(value) ? (value as string[]).join(', ') : str}
          disabled={disabled}
          onChange={(e) => {
            const parts = e.target.value
              .split(',')
              .map((x) => x.trim())
              .filter(Boolean);
            set(parts.length ? parts : undefined);
          }}
        />
      );
    case 'map':
      return <MapEditor id={id} value={value} onChange={set} disabled={disabled} values={f.values ?? 'expression'} />;
    case 'project':
      return (
        <RefSelect
          id={id}
          value={value}
          onChange={set}
          disabled={disabled}
          empty="Choose a project"
          items={(projects.data?.data ?? []).map((x) => ({ id: x.id, label: x.name }))}
        />
      );
    case 'projects': {
      const list = Array.isArray(value) ? (value as string[]) : [];
      const items = projects.data?.data ?? [];
      if (!items.length)
        return (
          <p className="small muted" id={id}>
            No projects.
          </p>
        );
      return (
        <div className="wf-checks" id={id} role="group" aria-label={f.label}>
          {items.map((x) => (
            <label key={x.id} className="check">
              <input
                type="checkbox"
                checked={list.includes(x.id)}
                disabled={disabled}
                onChange={(e) => {
                  const next = e.target.checked ? [...list, x.id] : list.filter((y) => y !== x.id);
                  set(next.length ? next : undefined);
                }}
              />{' '}
              {x.name}
            </label>
          ))}
        </div>
      );
    }
    case 'template_ref':
      return (
        <RefSelect
          id={id}
          value={value}
          onChange={set}
          disabled={disabled}
          empty="Chosen by the pipeline"
          items={(templates.data?.data ?? []).map((x) => ({ id: x.id, label: x.name }))}
        />
      );
    case 'export_ref':
      return (
        <RefSelect
          id={id}
          value={value}
          onChange={set}
          disabled={disabled}
          empty="Choose an export"
          items={(exportsQ.data?.data ?? []).map((x) => ({ id: x.id, label: `${x.sheet_name} (${x.spreadsheet_id})` }))}
        />
      );
    default:
      return (
        <input
          id={id}
          value={str}
          disabled={disabled}
          className={f.kind === 'template' ? 'mono' : undefined}
          onChange={(e) => set(e.target.value === '' ? undefined : e.target.value)}
        />
      );
  }
}

/** The field's help, with the value the step uses when the field is left empty. */
function hintOf(f: ConfigField): string | undefined {
  const shown = typeof f.default === 'string' ? f.default : JSON.stringify(f.default);
  const dflt = f.default !== undefined && f.kind !== 'select' ? `Default: ${shown}.` : '';
  return [f.help, dflt].filter(Boolean).join(' ') || undefined;
}

/** Config problems, keyed by the config path they name (relative to `config`). */
export function configIssues(issues: GraphIssue[]): { path: string; message: string }[] {
  return issues.flatMap((i) => {
    const m = /^nodes\[\d+\]\.config(?:\.(.+))?$/.exec(i.field);
    return m ? [{ path: m[1] ?? '', message: i.message }] : [];
  });
}

export function ConfigForm({
  fields,
  config,
  onChange,
  issues,
  disabled,
}: {
  fields: ConfigField[];
  config: Config;
  onChange(c: Config): void;
  issues: GraphIssue[];
  disabled: boolean;
}) {
  const base = useId();
  const byPath = configIssues(issues);
  if (!fields.length) return <p className="small muted">This step has nothing to configure.</p>;
  return (
    <>
      {fields.map((f) => {
        const id = `${base}-${f.path.replace(/\./g, '-')}`;
        const errs = byPath
          .filter((x) => x.path === f.path || x.path.startsWith(`${f.path}.`) || x.path.startsWith(`${f.path}[`))
          .map((x) => (x.path === f.path ? x.message : `${x.path}: ${x.message}`));
        return (
          <Field
            key={f.path}
            htmlFor={id}
            label={
              <>
                {f.label}
                {f.required ? <span aria-hidden="true"> *</span> : null}
              </>
            }
            hint={hintOf(f)}
            error={errs.join('; ') || undefined}>
            <FieldInput
              f={f}
              id={id}
              value={getPath(config, f.path)}
              disabled={disabled}
              set={(v) => onChange(setPath(config, f.path, v))}
            />
          </Field>
        );
      })}
    </>
  );
}

/** The config as JSON text: applied whenever it parses to an object; otherwise the error shows. */
export function ConfigJson({
  config,
  onChange,
  disabled,
  label,
}: {
  config: Config;
  onChange(c: Config): void;
  disabled: boolean;
  label: string;
}) {
  const id = useId();
  const [text, setText] = useState(() => JSON.stringify(config, null, 2));
  const [error, setError] = useState<string | null>(null);
  // Follow changes made elsewhere (the form) while the text here is valid.
  useEffect(() => {
    if (error) return;
    try {
      if (JSON.stringify(JSON.parse(text)) === JSON.stringify(config)) return;
    } catch {
      /* replaced below */
    }
    setText(JSON.stringify(config, null, 2));
  }, [config]); // `error` and `text` are read, not followed: only outside changes replace the text
  return (
    <Field
      htmlFor={id}
      label={label}
      error={error ?? undefined}
      hint="Applied as you type, once it is a valid JSON object.">
      <textarea
        id={id}
        rows={10}
        className="mono"
        value={text}
        disabled={disabled}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          try {
            const v = JSON.parse(e.target.value);
            if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('the config must be a JSON object');
            setError(null);
            onChange(v as Config);
          } catch (err) {
            setError(`Not applied: ${(err as Error).message}`);
          }
        }}
      />
    </Field>
  );
}
