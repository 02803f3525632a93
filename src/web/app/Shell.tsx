import { useEffect, useState, type ReactNode } from 'react';
import { Link, navigate, useLocation } from '../lib/router';
import { useMe, useSession } from '../lib/session';
import { useTheme, type ThemeChoice } from '../lib/theme';
import { useGetPage } from '../lib/queries';
import { Badge } from '../components/ui';
import { NAV, ROUTES } from './routes';

function EnvironmentSwitch() {
  const { environment, setEnvironment } = useSession();
  const test = environment === 'test';
  return (
    <button
      type="button"
      role="switch"
      aria-checked={test}
      className={`env-switch${test ? ' is-test' : ''}`}
      onClick={() => setEnvironment(test ? 'live' : 'test')}
      title={test ? 'Showing test data. Switch to live data.' : 'Showing live data. Switch to test data.'}>
      <span className="env-track" aria-hidden="true">
        <span className="env-thumb" />
      </span>
      <span>Test mode</span>
    </button>
  );
}

function ThemeSelect() {
  const { choice, setChoice } = useTheme();
  return (
    <label className="theme-select">
      <span className="sr-only">Colour theme</span>
      <select value={choice} onChange={(e) => setChoice(e.target.value as ThemeChoice)}>
        <option value="system">System theme</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}

function ReviewCount() {
  const q = useGetPage('/api/v1/documents', { query: { status: 'needs_review', per_page: 1 } }, { staleTime: 30_000 });
  const n = q.data?.pagination.total ?? 0;
  return n > 0 ? (
    <span className="nav-count" aria-label={`${n} waiting`}>
      {n > 99 ? '99+' : n}
    </span>
  ) : null;
}

/** The header's search box: opens the search page with the words typed. */
function HeaderSearch() {
  const { path, search } = useLocation();
  const current = path === '/search' ? (search.get('q') ?? '') : '';
  const [q, setQ] = useState(current);
  useEffect(() => setQ(current), [current]);
  return (
    <form
      className="header-search"
      role="search"
      aria-label="Search documents (header)"
      onSubmit={(e) => {
        e.preventDefault();
        const text = q.trim();
        if (text) navigate(`/search?q=${encodeURIComponent(text)}`);
      }}>
      <label>
        <span className="sr-only">Search documents</span>
        <input
          type="search"
          value={q}
          maxLength={500}
          placeholder="Search documents…"
          onChange={(e) => setQ(e.target.value)}
        />
      </label>
    </form>
  );
}

export function Shell({ children }: { children: ReactNode }) {
  const me = useMe();
  const { environment, setEnvironment, signOut } = useSession();
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  const test = environment === 'test';
  const isActive = (to: string, m?: string) => (m ? path === m || path.startsWith(`${m}/`) : path === to);
  return (
    <div className={`shell${test ? ' mode-test' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {test ? (
        <div className="test-banner" role="note">
          <strong>Test mode</strong> — you are looking at test data only. Nothing here touches live documents, keys or
          webhooks.
          <button type="button" className="link-btn" onClick={() => setEnvironment('live')}>
            Back to live
          </button>
        </div>
      ) : null}
      <header className="topbar">
        <button
          type="button"
          className="menu-btn btn btn-ghost"
          aria-expanded={menuOpen}
          aria-controls="sidenav"
          onClick={() => setMenuOpen(!menuOpen)}>
          <span aria-hidden="true">☰</span> Menu
        </button>
        <Link to="/" className="brand">
          docpipe
        </Link>
        <HeaderSearch />
        <div className="topbar-right">
          <EnvironmentSwitch />
          <div className="who">
            <span className="org" title="Organization">
              {me.organization.name}
            </span>
            <Badge tone={me.user.role === 'owner' || me.user.role === 'admin' ? 'info' : 'neutral'} title="Your role">
              {me.user.role}
            </Badge>
            {test ? <Badge tone="test">test</Badge> : null}
          </div>
          <ThemeSelect />
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => void signOut()}
            title={`Signed in as ${me.user.email}`}>
            Sign out
          </button>
        </div>
      </header>
      <div className="layout">
        <nav id="sidenav" className={`sidenav${menuOpen ? ' open' : ''}`} aria-label="Main">
          {NAV.map((group, i) => (
            <div key={i} className="nav-group">
              {group.section ? <h2 className="nav-section">{group.section}</h2> : null}
              <ul>
                {group.items
                  .filter((it) => ROUTES.some((r) => r.path === it.to))
                  .map((it) => (
                    <li key={it.to}>
                      <Link to={it.to} aria-current={isActive(it.to, it.match) ? 'page' : undefined}>
                        {it.label}
                        {it.to === '/review' ? <ReviewCount /> : null}
                      </Link>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
          <div className="nav-foot small muted">
            <div>{me.user.email}</div>
            <div>Plan: {me.organization.plan}</div>
            <a href="/api/v1/docs">API reference</a>
          </div>
        </nav>
        <main id="main" className="content">
          {children}
        </main>
      </div>
    </div>
  );
}
