import { useState, type FormEvent } from 'react';
import * as api from '../../lib/api';
import { client, ok, type RequestBody } from '../../lib/client';
import { useGetPage, errorText } from '../../lib/queries';
import { Button, Field } from '../../components/ui';
import type { Project } from '../../lib/types';
import { InboundFields, inboundBody, inboundState } from './InboundFields';

/** The create form: everything a project can be given (settings are fixed at creation by the API). */
export function ProjectForm({ onDone, onCancel }: { onDone(p: Project): void; onCancel(): void }) {
  const templates = useGetPage('/api/v1/templates', { query: { limit: 100 } });
  const [f, setF] = useState({
    name: '',
    description: '',
    color: '#1f5fbf',
    auto_classify: true,
    auto_extract: true,
    retention_days: '',
    allowed_file_types: '',
    default_template_id: '',
    classification_threshold: '0.6',
  });
  const [inbound, setInbound] = useState(inboundState());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (v: string | boolean) => setF({ ...f, [k]: v });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setGeneral(null);
    try {
      const body: RequestBody<'/api/v1/projects', 'post'> = {
        name: f.name,
        auto_classify: f.auto_classify,
        auto_extract: f.auto_extract,
        classification_threshold: Number(f.classification_threshold),
        ...inboundBody(inbound),
      };
      if (f.description) body.description = f.description;
      if (f.color) body.color = f.color;
      if (f.retention_days) body.retention_days = Number(f.retention_days);
      if (f.allowed_file_types.trim())
        body.allowed_file_types = f.allowed_file_types
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      if (f.default_template_id) body.default_template_id = f.default_template_id;
      onDone(await ok(client.POST('/api/v1/projects', { body })));
    } catch (err) {
      if (err instanceof api.ApiError && err.fields.length)
        setErrors(Object.fromEntries(err.fields.map((x) => [x.field.split(/[/[]/)[0], x.message])));
      setGeneral(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Field label="Name" htmlFor="p-name" error={errors.name}>
        <input id="p-name" required value={f.name} onChange={(e) => set('name')(e.target.value)} />
      </Field>
      <Field label="Description" htmlFor="p-desc" error={errors.description}>
        <input id="p-desc" value={f.description} onChange={(e) => set('description')(e.target.value)} />
      </Field>
      <div className="form-grid">
        <Field label="Colour" htmlFor="p-color" error={errors.color}>
          <input id="p-color" type="color" value={f.color} onChange={(e) => set('color')(e.target.value)} />
        </Field>
        <Field
          label="Review threshold"
          htmlFor="p-thr"
          hint="Below this classification confidence a document waits for review."
          error={errors.classification_threshold}>
          <input
            id="p-thr"
            type="number"
            min={0}
            max={1}
            step={0.05}
            value={f.classification_threshold}
            onChange={(e) => set('classification_threshold')(e.target.value)}
          />
        </Field>
        <Field label="Retention (days)" htmlFor="p-ret" hint="Empty: keep forever." error={errors.retention_days}>
          <input
            id="p-ret"
            type="number"
            min={1}
            value={f.retention_days}
            onChange={(e) => set('retention_days')(e.target.value)}
          />
        </Field>
        <Field label="Default template" htmlFor="p-tpl" error={errors.default_template_id}>
          <select id="p-tpl" value={f.default_template_id} onChange={(e) => set('default_template_id')(e.target.value)}>
            <option value="">Choose by keywords</option>
            {templates.data?.data.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field
        label="Allowed file types"
        htmlFor="p-types"
        hint="Comma-separated: pdf, .png, image/*, application/pdf. Empty: everything supported."
        error={errors.allowed_file_types}>
        <input id="p-types" value={f.allowed_file_types} onChange={(e) => set('allowed_file_types')(e.target.value)} />
      </Field>
      <InboundFields value={inbound} onChange={setInbound} idPrefix="p" errors={errors} />
      <label className="check">
        <input type="checkbox" checked={f.auto_classify} onChange={(e) => set('auto_classify')(e.target.checked)} />{' '}
        Classify documents automatically
      </label>
      <label className="check">
        <input type="checkbox" checked={f.auto_extract} onChange={(e) => set('auto_extract')(e.target.checked)} />{' '}
        Extract fields automatically
      </label>
      {general ? (
        <div className="error-box" role="alert">
          {general}
        </div>
      ) : null}
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} disabled={!f.name.trim()}>
          Create project
        </Button>
      </div>
    </form>
  );
}
