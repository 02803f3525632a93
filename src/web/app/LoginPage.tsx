import { useEffect, useState, type FormEvent } from 'react';
import * as api from '../lib/api';
import { useSession } from '../lib/session';
import { SetupForm } from './SetupForm';
import { errorText } from '../lib/queries';
import { Button, Field } from '../components/ui';

export function LoginPage({ reason }: { reason?: string }) {
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // First run: with no user yet there is nobody to sign in as; offer the owner account instead.
  const [setup, setSetup] = useState<api.SetupStatus | null>(null);
  useEffect(() => {
    api.setupStatus().then(setSetup, () => setSetup(null));
  }, []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email, password);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  if (setup?.needed)
    return (
      <main className="login" id="main">
        <SetupForm
          tokenRequired={setup.token_required}
          onDone={() => setSetup({ needed: false, token_required: false })}
        />
      </main>
    );
  return (
    <main className="login" id="main">
      <form className="login-card" onSubmit={submit} noValidate>
        <h1>Sign in to docpipe</h1>
        {reason ? <p className="muted">{reason}</p> : null}
        {!window.isSecureContext ? (
          <p className="warn-box">
            This page is served over plain HTTP from another machine, so the browser will not keep your session cookie:
            you will have to sign in again after reloading. Serve docpipe over HTTPS (or open it as http://localhost).
          </p>
        ) : null}
        <Field label="E-mail" htmlFor="email">
          <input
            id="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field label="Password" htmlFor="password">
          <input
            id="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        {error ? (
          <div className="error-box" role="alert">
            {error}
          </div>
        ) : null}
        <Button type="submit" variant="primary" busy={busy} disabled={!email || !password}>
          Sign in
        </Button>
      </form>
    </main>
  );
}
