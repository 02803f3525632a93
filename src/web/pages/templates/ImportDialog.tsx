import { useState } from 'react';
import { errorText, useInvalidate } from '../../lib/queries';
import { Dialog } from '../../components/Dialog';
import { Button, Field, TabPanel, Tabs } from '../../components/ui';
import { client, ok, type Schemas } from '../../lib/client';

/** invoice2data templates in: pasted YAML/JSON or several files; validated first (dry run), then stored all at once. */
export function ImportDialog({ onClose }: { onClose(): void }) {
  const [mode, setMode] = useState<'paste' | 'files'>('paste');
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [files, setFiles] = useState<{ name: string; content: string }[]>([]);
  const [checked, setChecked] = useState<Schemas['ImportedTemplate'][] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const invalidate = useInvalidate();
  const body = () => (mode === 'paste' ? { yaml: text, ...(name.trim() ? { name: name.trim() } : {}) } : { files });
  const run = async (dry: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const out = await ok(client.POST('/api/v1/templates/import', { body: { ...body(), dry_run: dry } }));
      if (dry) setChecked(out);
      else {
        await invalidate('/templates');
        onClose();
      }
    } catch (err) {
      setChecked(null);
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const ready = mode === 'paste' ? text.trim().length > 0 : files.length > 0;
  return (
    <Dialog
      open
      wide
      title="Import invoice2data templates"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button disabled={!ready} busy={busy} onClick={() => void run(true)}>
            Validate
          </Button>
          <Button variant="primary" disabled={!ready || !checked} busy={busy} onClick={() => void run(false)}>
            Import {checked ? checked.length : ''}
          </Button>
        </>
      }>
      <Tabs
        label="Import from"
        value={mode}
        onChange={(m) => {
          setMode(m);
          setChecked(null);
        }}
        tabs={[
          { id: 'paste', label: 'Paste' },
          { id: 'files', label: 'Files' },
        ]}
      />
      <TabPanel id={mode}>
        {mode === 'paste' ? (
          <>
            <Field
              label="Name"
              htmlFor="tpl-name"
              hint="For templates whose text has no name (as a file name would be).">
              <input
                id="tpl-name"
                value={name}
                onChange={(e) => {
                  setName(e.target.value);
                  setChecked(null);
                }}
              />
            </Field>
            <Field
              label="Template (YAML or JSON)"
              htmlFor="tpl-yaml"
              hint="One file's text; it may hold several templates.">
              <textarea
                id="tpl-yaml"
                rows={14}
                value={text}
                onChange={(e) => {
                  setText(e.target.value);
                  setChecked(null);
                }}
                spellCheck={false}
              />
            </Field>
          </>
        ) : (
          <Field label="Template files" htmlFor="tpl-files" hint=".yml, .yaml or .json; up to 50 at once.">
            <input
              id="tpl-files"
              type="file"
              multiple
              accept=".yml,.yaml,.json"
              onChange={async (e) => {
                const list = [...(e.target.files ?? [])];
                setFiles(await Promise.all(list.map(async (f) => ({ name: f.name, content: await f.text() }))));
                setChecked(null);
              }}
            />
          </Field>
        )}
      </TabPanel>
      {error ? (
        <div className="error-box" role="alert">
          {error}
        </div>
      ) : null}
      {checked ? (
        <div className="info-box" role="status">
          {checked.length} template{checked.length === 1 ? '' : 's'} valid:{' '}
          {checked.map((t) => t.name || t.issuer).join(', ')}.
          {checked.some((t) => t.warnings?.length) ? (
            <ul className="small">
              {checked.flatMap((t) =>
                (t.warnings ?? []).map((w, i) => (
                  <li key={`${t.name}-${i}`}>
                    {t.name}: {w.path} {w.message}
                  </li>
                )),
              )}
            </ul>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}
