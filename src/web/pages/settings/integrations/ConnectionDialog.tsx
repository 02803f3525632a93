import { useState, type FormEvent } from 'react';
import { client, ok, type RequestBody } from '../../../lib/client';

type ConnectionBody = RequestBody<'/api/v1/integrations/sheets/connections', 'post'>;
type ServiceAccountKey = NonNullable<ConnectionBody['service_account_key']>;
import { errorText } from '../../../lib/queries';
import { Dialog } from '../../../components/Dialog';
import { Button, Field } from '../../../components/ui';
import type { SheetsConnection } from '../../../lib/types';

/** A Google account for exports: a service account's key file, or an OAuth client with a refresh token. */
export function ConnectionDialog({ onDone, onClose }: { onDone(c: SheetsConnection): void; onClose(): void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'service_account' | 'oauth'>('service_account');
  const [key, setKey] = useState('');
  const [oauth, setOauth] = useState({ client_id: '', client_secret: '', refresh_token: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    let body: ConnectionBody;
    if (kind === 'service_account') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(key);
      } catch {
        return setError('The key file is not valid JSON: paste the whole file as downloaded from Google.');
      }
      // The key file goes as pasted: the server checks it and names what is missing.
      body = { name, service_account_key: parsed as ServiceAccountKey };
    } else body = { name, oauth };
    setBusy(true);
    try {
      onDone(await ok(client.POST('/api/v1/integrations/sheets/connections', { body })));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open title="Connect a Google account" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field label="Name" htmlFor="gc-name">
          <input id="gc-name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <fieldset className="row" style={{ border: 'none', padding: 0, margin: '0 0 0.75rem' }}>
          <legend className="small">
            <strong>Kind</strong>
          </legend>
          <label className="check">
            <input
              type="radio"
              name="gc-kind"
              checked={kind === 'service_account'}
              onChange={() => setKind('service_account')}
            />{' '}
            Service account
          </label>
          <label className="check">
            <input type="radio" name="gc-kind" checked={kind === 'oauth'} onChange={() => setKind('oauth')} /> OAuth
            account
          </label>
        </fieldset>
        {kind === 'service_account' ? (
          <>
            <Field
              label="Key file (JSON)"
              htmlFor="gc-key"
              hint="Share the spreadsheet with the service account's e-mail. Stored encrypted; never shown again.">
              <textarea id="gc-key" rows={6} value={key} onChange={(e) => setKey(e.target.value)} spellCheck={false} />
            </Field>
            <Field label="…or choose the file" htmlFor="gc-file">
              <input
                id="gc-file"
                type="file"
                accept=".json,application/json"
                onChange={async (e) => {
                  const f = e.target.files?.[0];
                  if (f) setKey(await f.text());
                }}
              />
            </Field>
          </>
        ) : (
          <>
            <Field label="Client id" htmlFor="gc-cid">
              <input
                id="gc-cid"
                value={oauth.client_id}
                onChange={(e) => setOauth({ ...oauth, client_id: e.target.value })}
              />
            </Field>
            <Field label="Client secret" htmlFor="gc-cs">
              <input
                id="gc-cs"
                type="password"
                value={oauth.client_secret}
                onChange={(e) => setOauth({ ...oauth, client_secret: e.target.value })}
              />
            </Field>
            <Field label="Refresh token" htmlFor="gc-rt" hint="With the spreadsheets scope.">
              <input
                id="gc-rt"
                type="password"
                value={oauth.refresh_token}
                onChange={(e) => setOauth({ ...oauth, refresh_token: e.target.value })}
              />
            </Field>
          </>
        )}
        {error ? (
          <div className="error-box" role="alert">
            {error}
          </div>
        ) : null}
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={!name}>
            Connect
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
