import { useState, type FormEvent } from 'react';
import * as api from '../../../lib/api';
import { client, ok, type RequestBody } from '../../../lib/client';
import { errorText } from '../../../lib/queries';
import { Button, Field } from '../../../components/ui';
import type { Mailbox, Project } from '../../../lib/types';

const lines = (s: string) =>
  s
    .split(/[\n,]/)
    .map((x) => x.trim())
    .filter(Boolean);

/** Create or edit a mailbox; the password is write-only (left empty on edit, it stays). */
export function MailboxForm({
  projects,
  mailbox,
  onDone,
  onCancel,
}: {
  projects: Project[];
  mailbox?: Mailbox;
  onDone(m: Mailbox): void;
  onCancel(): void;
}) {
  const m = mailbox;
  const [f, setF] = useState({
    name: m?.name ?? '',
    host: m?.host ?? '',
    port: m ? String(m.port) : '',
    security: m?.security ?? 'tls',
    username: m?.username ?? '',
    password: '',
    folder: m?.folder ?? 'INBOX',
    project_id: m?.project_id ?? projects[0]?.id ?? '',
    after_processing: m?.after_processing ?? 'mark_seen',
    processed_folder: m?.processed_folder ?? '',
    failed_folder: m?.failed_folder ?? '',
    allowed_senders: m?.allowed_senders.join('\n') ?? '',
    subject_filter: m?.subject_filter ?? '',
    attachment_include: m?.attachment_include.join('\n') ?? '',
    attachment_exclude: m?.attachment_exclude.join('\n') ?? '',
    consume: m?.consume ?? 'attachments',
    max_age_days: m?.max_age_days ? String(m.max_age_days) : '',
    is_active: m?.is_active ?? true,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setGeneral(null);
    // A new mailbox needs its password; an edit sends one only when it was changed.
    const body: Omit<RequestBody<'/api/v1/integrations/mailboxes', 'post'>, 'password'> & { password?: string } = {
      name: f.name,
      host: f.host,
      security: f.security,
      username: f.username,
      folder: f.folder,
      project_id: f.project_id,
      after_processing: f.after_processing,
      processed_folder: f.processed_folder || null,
      failed_folder: f.failed_folder || null,
      allowed_senders: lines(f.allowed_senders),
      subject_filter: f.subject_filter || null,
      attachment_include: lines(f.attachment_include),
      attachment_exclude: lines(f.attachment_exclude),
      consume: f.consume,
      max_age_days: f.max_age_days ? Number(f.max_age_days) : null,
      is_active: f.is_active,
    };
    if (f.port) body.port = Number(f.port);
    if (f.password) body.password = f.password;
    try {
      onDone(
        m
          ? await ok(client.PUT('/api/v1/integrations/mailboxes/{id}', { params: { path: { id: m.id } }, body }))
          : await ok(client.POST('/api/v1/integrations/mailboxes', { body: { ...body, password: f.password } })),
      );
    } catch (err) {
      if (err instanceof api.ApiError)
        setErrors(Object.fromEntries(err.fields.map((x) => [x.field.split(/[/.[]/)[0], x.message])));
      setGeneral(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <div className="form-grid">
        <Field label="Name" htmlFor="mb-name" error={errors.name}>
          <input id="mb-name" value={f.name} onChange={set('name')} />
        </Field>
        <Field
          label="Project"
          htmlFor="mb-project"
          hint="Where the attachments become documents."
          error={errors.project_id}>
          <select id="mb-project" value={f.project_id} onChange={set('project_id')}>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="IMAP host" htmlFor="mb-host" error={errors.host}>
          <input id="mb-host" value={f.host} onChange={set('host')} placeholder="imap.example.com" />
        </Field>
        <Field label="Port" htmlFor="mb-port" hint="Empty: 993 with TLS, 143 otherwise." error={errors.port}>
          <input id="mb-port" type="number" value={f.port} onChange={set('port')} />
        </Field>
        <Field label="Security" htmlFor="mb-sec" error={errors.security}>
          <select id="mb-sec" value={f.security} onChange={set('security')}>
            <option value="tls">TLS</option>
            <option value="starttls">STARTTLS</option>
            <option value="none">None (password in clear text)</option>
          </select>
        </Field>
        <Field label="Folder" htmlFor="mb-folder" error={errors.folder}>
          <input id="mb-folder" value={f.folder} onChange={set('folder')} />
        </Field>
        <Field label="User name" htmlFor="mb-user" error={errors.username}>
          <input id="mb-user" autoComplete="off" value={f.username} onChange={set('username')} />
        </Field>
        <Field
          label="Password"
          htmlFor="mb-pass"
          hint={m ? 'Leave empty to keep the stored one.' : 'Stored encrypted; never shown again.'}
          error={errors.password}>
          <input
            id="mb-pass"
            type="password"
            autoComplete="new-password"
            value={f.password}
            onChange={set('password')}
          />
        </Field>
        <Field label="After processing" htmlFor="mb-after" error={errors.after_processing}>
          <select id="mb-after" value={f.after_processing} onChange={set('after_processing')}>
            <option value="mark_seen">Mark as read</option>
            <option value="move">Move to a folder</option>
            <option value="flag">Flag</option>
            <option value="delete">Delete</option>
          </select>
        </Field>
        {f.after_processing === 'move' ? (
          <Field label="Move to folder" htmlFor="mb-pf" error={errors.processed_folder}>
            <input id="mb-pf" value={f.processed_folder} onChange={set('processed_folder')} />
          </Field>
        ) : null}
        <Field
          label="Failed messages folder"
          htmlFor="mb-ff"
          hint="Empty: they stay unread."
          error={errors.failed_folder}>
          <input id="mb-ff" value={f.failed_folder} onChange={set('failed_folder')} />
        </Field>
        <Field label="Take" htmlFor="mb-consume" error={errors.consume}>
          <select id="mb-consume" value={f.consume} onChange={set('consume')}>
            <option value="attachments">Attachments</option>
            <option value="eml">The whole message (.eml)</option>
            <option value="both">Both</option>
          </select>
        </Field>
        <Field label="Ignore mail older than (days)" htmlFor="mb-age" error={errors.max_age_days}>
          <input id="mb-age" type="number" min={1} value={f.max_age_days} onChange={set('max_age_days')} />
        </Field>
        <Field label="Subject filter" htmlFor="mb-subj" hint="Text, or /regex/flags." error={errors.subject_filter}>
          <input id="mb-subj" value={f.subject_filter} onChange={set('subject_filter')} />
        </Field>
      </div>
      <div className="form-grid">
        <Field
          label="Allowed senders"
          htmlFor="mb-senders"
          hint="Addresses or @domain, one per line; empty: everyone."
          error={errors.allowed_senders}>
          <textarea id="mb-senders" rows={2} value={f.allowed_senders} onChange={set('allowed_senders')} />
        </Field>
        <Field
          label="Attachment names to take"
          htmlFor="mb-inc"
          hint="Globs such as *.pdf; empty: all."
          error={errors.attachment_include}>
          <textarea id="mb-inc" rows={2} value={f.attachment_include} onChange={set('attachment_include')} />
        </Field>
        <Field label="Attachment names to skip" htmlFor="mb-exc" error={errors.attachment_exclude}>
          <textarea id="mb-exc" rows={2} value={f.attachment_exclude} onChange={set('attachment_exclude')} />
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={f.is_active} onChange={(e) => setF({ ...f, is_active: e.target.checked })} />{' '}
        Active (watch this mailbox)
      </label>
      {general ? (
        <div className="error-box" role="alert">
          {general}
        </div>
      ) : null}
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <Button onClick={onCancel}>Cancel</Button>
        <Button
          type="submit"
          variant="primary"
          busy={busy}
          disabled={!f.name || !f.host || !f.username || (!m && !f.password) || !f.project_id}>
          {m ? 'Save mailbox' : 'Add mailbox'}
        </Button>
      </div>
    </form>
  );
}
