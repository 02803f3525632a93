import { Suspense } from 'react';
import { useSession } from '../lib/session';
import { match, useLocation } from '../lib/router';
import { Spinner } from '../components/ui';
import { LoginPage } from './LoginPage';
import { Shell } from './Shell';
import { ROUTES } from './routes';
import { NotFound } from './NotFound';
import { ErrorBoundary } from './ErrorBoundary';

export function App() {
  const { state } = useSession();
  const { path } = useLocation();
  if (state.status === 'loading')
    return (
      <div className="boot">
        <Spinner label="Loading docpipe…" />
      </div>
    );
  if (state.status === 'signed-out') return <LoginPage reason={state.reason} />;
  let found: { page: (typeof ROUTES)[number]['page']; params: Record<string, string> } | null = null;
  for (const r of ROUTES) {
    const params = match(r.path, path);
    if (params) {
      found = { page: r.page, params };
      break;
    }
  }
  const Page = found?.page;
  return (
    <Shell>
      <ErrorBoundary key={path}>
        <Suspense fallback={<Spinner />}>{Page ? <Page params={found!.params} /> : <NotFound />}</Suspense>
      </ErrorBoundary>
    </Shell>
  );
}
