// A small history router: the app has a fixed set of pages, so a table of patterns is enough.
import {
  useCallback,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
} from 'react';

const listeners = new Set<() => void>();
function emit() {
  for (const l of listeners) l();
}
window.addEventListener('popstate', emit);

function subscribe(fn: () => void) {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}
const snapshot = () => window.location.pathname + window.location.search;

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (opts.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  emit();
}

export function useLocation(): { path: string; search: URLSearchParams } {
  const s = useSyncExternalStore(subscribe, snapshot);
  return useMemo(() => {
    const i = s.indexOf('?');
    return { path: i < 0 ? s : s.slice(0, i), search: new URLSearchParams(i < 0 ? '' : s.slice(i + 1)) };
  }, [s]);
}

/** Query-string state: filters and tabs live in the URL so a page can be linked and reloaded. */
export function useSearchState(): [
  URLSearchParams,
  (patch: Record<string, string | undefined | null>, replace?: boolean) => void,
] {
  const { path, search } = useLocation();
  const set = useCallback(
    (patch: Record<string, string | undefined | null>, replace = true) => {
      const next = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined || v === null || v === '') next.delete(k);
        else next.set(k, v);
      }
      const q = next.toString();
      navigate(`${path}${q ? `?${q}` : ''}`, { replace });
    },
    [path],
  );
  return [search, set];
}

export function match(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split('/').filter(Boolean);
  const b = path.split('/').filter(Boolean);
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) params[a[i].slice(1)] = decodeURIComponent(b[i]);
    else if (a[i] !== b[i]) return null;
  }
  return params;
}

export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={click} {...rest} />;
}

/** Moves focus to the page's heading after navigation, so keyboard and screen-reader users land on the new page. */
export function useFocusOnNavigate(path: string): void {
  useEffect(() => {
    const h = document.querySelector<HTMLElement>('main h1');
    if (h) {
      h.tabIndex = -1;
      h.focus({ preventScroll: true });
    }
    window.scrollTo(0, 0);
  }, [path]);
}
