// Small building blocks shared by every page.
import { useEffect, useId, useRef, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { usePermission, type Role } from '../lib/session';
import { errorText } from '../lib/queries';
import { humanize, percent } from '../lib/format';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export function Button({
  variant = 'secondary',
  busy,
  children,
  className,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button
      type="button"
      className={`btn btn-${variant}${className ? ` ${className}` : ''}`}
      aria-busy={busy || undefined}
      {...rest}
      disabled={rest.disabled || busy}>
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/**
 * A button for an action that needs a role. Without it the button stays visible but disabled,
 * with the reason next to it (and as its description), so people know why they cannot act.
 */
export function RoleButton({
  need,
  children,
  showReason = true,
  ...rest
}: Parameters<typeof Button>[0] & { need: Role; showReason?: boolean }) {
  const perm = usePermission(need);
  const id = useId();
  if (perm.allowed) return <Button {...rest}>{children}</Button>;
  return (
    <span className="role-gated">
      <Button {...rest} disabled aria-describedby={id} title={perm.reason}>
        {children}
      </Button>
      <span id={id} className={showReason ? 'muted small' : 'sr-only'}>
        {perm.reason}
      </span>
    </span>
  );
}

export function PageHeader({
  title,
  subtitle,
  actions,
  back,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  back?: ReactNode;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // After a navigation, focus lands on the new page's title (skip when typing somewhere).
    const a = document.activeElement;
    if (!a || a === document.body || a.closest('nav')) ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <header className="page-header">
      <div>
        {back ? <div className="back-link">{back}</div> : null}
        <h1 ref={ref} tabIndex={-1}>
          {title}
        </h1>
        {subtitle ? <p className="muted">{subtitle}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}

export function Card({
  title,
  actions,
  children,
  className,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`card${className ? ` ${className}` : ''}`}>
      {title || actions ? (
        <div className="card-head">
          {title ? <h2>{title}</h2> : <span />}
          {actions ? <div className="card-actions">{actions}</div> : null}
        </div>
      ) : null}
      {children}
    </section>
  );
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </div>
  );
}

export function ErrorBox({ error, retry }: { error: unknown; retry?: () => void }) {
  if (!error) return null;
  return (
    <div className="error-box" role="alert">
      <strong>Something went wrong.</strong> {errorText(error)}
      {retry ? (
        <>
          {' '}
          <button type="button" className="link-btn" onClick={retry}>
            Try again
          </button>
        </>
      ) : null}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

const STATUS_TONE: Record<string, string> = {
  completed: 'good',
  active: 'good',
  succeeded: 'good',
  delivered: 'good',
  ok: 'good',
  processed: 'info',
  classified: 'info',
  extracted: 'info',
  uploaded: 'neutral',
  processing: 'info',
  pending: 'neutral',
  queued: 'neutral',
  running: 'info',
  scheduled: 'info',
  needs_review: 'warn',
  failing: 'bad',
  failed: 'bad',
  error: 'bad',
  disabled: 'neutral',
  archived: 'neutral',
  inactive: 'neutral',
  revoked: 'bad',
  suspended: 'warn',
  skipped: 'neutral',
  paused: 'warn',
  expired: 'neutral',
};

export function Badge({
  tone,
  children,
  title,
}: {
  tone?: 'good' | 'bad' | 'warn' | 'info' | 'neutral' | 'test';
  children: ReactNode;
  title?: string;
}) {
  return (
    <span className={`badge badge-${tone ?? 'neutral'}`} title={title}>
      {children}
    </span>
  );
}

export function StatusBadge({ status }: { status: string | null | undefined }) {
  if (!status) return <Badge>—</Badge>;
  return <Badge tone={(STATUS_TONE[status] ?? 'neutral') as 'good'}>{humanize(status)}</Badge>;
}

/** A confidence as a number and a bar; the threshold (if given) decides the colour. */
export function Confidence({ value, threshold = 0.6 }: { value: number | null | undefined; threshold?: number }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  const tone = value >= Math.max(threshold, 0.85) ? 'good' : value >= threshold ? 'info' : 'warn';
  return (
    <span className={`confidence conf-${tone}`}>
      <span className="conf-bar" aria-hidden="true">
        <span style={{ width: `${Math.round(value * 100)}%` }} />
      </span>
      <span>{percent(value)}</span>
    </span>
  );
}

export function Field({
  label,
  hint,
  error,
  children,
  htmlFor,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
  htmlFor: string;
}) {
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {hint ? (
        <div className="hint" id={`${htmlFor}-hint`}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <div className="field-error" id={`${htmlFor}-error`} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

export function Pager({
  page,
  totalPages,
  total,
  onPage,
}: {
  page: number;
  totalPages: number;
  total: number;
  onPage(p: number): void;
}) {
  if (totalPages <= 1) return <div className="pager muted small">{total.toLocaleString()} in total</div>;
  return (
    <nav className="pager" aria-label="Pages">
      <Button variant="ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Previous
      </Button>
      <span className="small">
        Page {page} of {totalPages} · {total.toLocaleString()} in total
      </span>
      <Button variant="ghost" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next →
      </Button>
    </nav>
  );
}

export function Progress({ value, max, label }: { value: number; max: number; label: string }) {
  return (
    <div className="progress-row">
      <progress value={value} max={Math.max(max, 1)} aria-label={label} />
      <span className="small muted">
        {value} / {max}
      </span>
    </div>
  );
}

export function KeyValue({ rows }: { rows: [ReactNode, ReactNode][] }) {
  return (
    <dl className="kv">
      {rows.map(([k, v], i) => (
        <div key={i}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
}: {
  tabs: { id: T; label: ReactNode }[];
  value: T;
  onChange(id: T): void;
  label: string;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (i: number) => {
    const n = (i + tabs.length) % tabs.length;
    onChange(tabs[n].id);
    refs.current[n]?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t, i) => (
        <button
          key={t.id}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`tab-${t.id}`}
          aria-controls={`panel-${t.id}`}
          aria-selected={t.id === value}
          tabIndex={t.id === value ? 0 : -1}
          className={t.id === value ? 'tab active' : 'tab'}
          onClick={() => onChange(t.id)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') {
              e.preventDefault();
              move(i + 1);
            }
            if (e.key === 'ArrowLeft') {
              e.preventDefault();
              move(i - 1);
            }
          }}>
          {t.label}
        </button>
      ))}
    </div>
  );
}

export function TabPanel({ id, children }: { id: string; children: ReactNode }) {
  return (
    <div role="tabpanel" id={`panel-${id}`} aria-labelledby={`tab-${id}`}>
      {children}
    </div>
  );
}
