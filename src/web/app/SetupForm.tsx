import { useState, type FormEvent } from 'react';
import * as api from '../lib/api';
import { useSession } from '../lib/session';
import { errorText } from '../lib/queries';
import { Button, Field } from '../components/ui';

/** First run: no user exists yet, so the sign-in form is replaced by "Create the owner account". */
export function SetupForm({ tokenRequired, onDone }: { tokenRequired: boolean; onDone: () => void }) {
  const { signIn } = useSession();
  const [form, setForm] = useState({ organization_name: '', email: '', password: '', token: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { token, ...rest } = form;
      await api.completeSetup(tokenRequired ? { ...rest, token } : rest);
      onDone();
      await signIn(form.email, form.password);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const ready =
    form.organization_name && form.email && form.password.length >= 8 && (!tokenRequired || form.token.length > 0);
  return (
    <form className="login-card" onSubmit={submit} noValidate>
      <h1>Create the owner account</h1>
      <p className="muted">
        docpipe has no users yet. The account you create here owns a new organization and can invite everyone else.
      </p>
      <Field label="Organization name" htmlFor="setup-org">
        <input id="setup-org" required value={form.organization_name} onChange={set('organization_name')} />
      </Field>
      <Field label="E-mail" htmlFor="setup-email">
        <input
          id="setup-email"
          type="email"
          autoComplete="username"
          required
          value={form.email}
          onChange={set('email')}
        />
      </Field>
      <Field label="Password" htmlFor="setup-password" hint="At least 8 characters.">
        <input
          id="setup-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={form.password}
          onChange={set('password')}
        />
      </Field>
      {tokenRequired ? (
        <Field
          label="Setup token"
          htmlFor="setup-token"
          hint="This server listens on a network address: copy the setup token it printed in its log at start-up.">
          <input id="setup-token" required autoComplete="off" value={form.token} onChange={set('token')} />
        </Field>
      ) : null}
      {error ? (
        <div className="error-box" role="alert">
          {error}
        </div>
      ) : null}
      <Button type="submit" variant="primary" busy={busy} disabled={!ready}>
        Create account and sign in
      </Button>
    </form>
  );
}
