import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import * as api from './api';
import { client, ok, type Data, allOf } from './client';

export type Me = Data<'/api/v1/auth/me'>;
export type Role = Me['user']['role'];
const ROLES = allOf<Role>()(['viewer', 'member', 'admin', 'owner']);

export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

type State = { status: 'loading' } | { status: 'signed-out'; reason?: string } | { status: 'signed-in'; me: Me };

interface SessionValue {
  state: State;
  environment: api.Environment;
  setEnvironment(env: api.Environment): void;
  signIn(email: string, password: string): Promise<void>;
  signOut(): Promise<void>;
}

const Ctx = createContext<SessionValue | null>(null);
const ENV_KEY = 'docpipe.environment';

export function SessionProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const [state, setState] = useState<State>({ status: 'loading' });
  // The mode is a view preference, not a secret: kept per tab so a reload stays in it.
  const [environment, setEnv] = useState<api.Environment>(() =>
    sessionStorage.getItem(ENV_KEY) === 'test' ? 'test' : 'live',
  );
  api.setEnvironment(environment);

  const loadMe = useCallback(async () => {
    const me = await ok(client.GET('/api/v1/auth/me'));
    setState({ status: 'signed-in', me });
  }, []);

  useEffect(() => {
    let cancelled = false;
    // Fire and forget (an effect cannot await); it cannot reject: refresh() resolves false on any
    // failure and loadMe's failure is caught.
    void (async () => {
      const ok = await api.refresh();
      if (cancelled) return;
      if (!ok) return setState({ status: 'signed-out' });
      try {
        await loadMe();
      } catch {
        setState({ status: 'signed-out' });
      }
    })();
    const off = api.onSignedOut(() => {
      qc.clear();
      setState({ status: 'signed-out', reason: 'Your session ended. Sign in again.' });
    });
    return () => {
      cancelled = true;
      off();
    };
  }, [loadMe, qc]);

  const value = useMemo<SessionValue>(
    () => ({
      state,
      environment,
      setEnvironment(env) {
        sessionStorage.setItem(ENV_KEY, env);
        api.setEnvironment(env);
        setEnv(env);
        // Live and test data never mix: nothing cached in one mode is shown in the other.
        qc.removeQueries();
      },
      async signIn(email, password) {
        await api.login(email, password);
        await loadMe();
      },
      async signOut() {
        await api.logout();
        qc.clear();
        setState({ status: 'signed-out', reason: 'You signed out.' });
      },
    }),
    [state, environment, loadMe, qc],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useSession(): SessionValue {
  const v = useContext(Ctx);
  if (!v) throw new Error('useSession outside SessionProvider');
  return v;
}

export function useMe(): Me {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useMe needs a signed-in session');
  return state.me;
}

/** Whether the signed-in role may do something, and if not, the reason to show. */
export function usePermission(needed: Role): { allowed: boolean; reason?: string } {
  const me = useMe();
  return roleAtLeast(me.user.role, needed)
    ? { allowed: true }
    : {
        allowed: false,
        reason: `Needs the ${needed} role; you are ${me.user.role === 'admin' ? 'an' : 'a'} ${me.user.role}.`,
      };
}
