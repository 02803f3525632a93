import { useEffect, useState, type FormEvent } from 'react';
import { useGet, useGetPage } from '../../lib/queries';
import { Link, useSearchState } from '../../lib/router';
import { humanize } from '../../lib/format';
import { Badge, Card, Empty, ErrorBox, PageHeader, Spinner, StatusBadge } from '../../components/ui';
import { Snippet } from './Snippet';

const MODES = [
  { id: '', label: 'Best available' },
  { id: 'keyword', label: 'Words' },
  { id: 'semantic', label: 'Meaning' },
  { id: 'hybrid', label: 'Both' },
] as const;
const PAGE = 20;

/** `/search?q=…&mode=…&project_id=…`: ranked documents with their highlighted passages. */
export function SearchPage() {
  const [s, set] = useSearchState();
  const q = s.get('q') ?? '';
  const mode = s.get('mode') ?? '';
  const projectId = s.get('project_id') ?? '';
  const offset = Number(s.get('offset') ?? 0) || 0;
  const [draft, setDraft] = useState(q);
  useEffect(() => setDraft(q), [q]);
  const projects = useGetPage('/api/v1/projects', { query: { limit: 100 } });
  const answer = useGet(
    '/api/v1/documents/search',
    q.trim()
      ? {
          query: {
            q,
            mode: MODES.find((m) => m.id === mode && m.id !== '')?.id || undefined,
            project_id: projectId || undefined,
            limit: PAGE,
            offset,
          },
        }
      : null,
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    set({ q: draft.trim() || undefined, offset: undefined }, false);
  };
  return (
    <>
      <PageHeader title="Search" subtitle="Find documents by their words or their meaning" />
      <Card>
        <form className="search-form row" role="search" aria-label="Search documents" onSubmit={submit}>
          <label className="grow">
            <span className="sr-only">Search for</span>
            <input
              type="search"
              name="q"
              value={draft}
              maxLength={500}
              placeholder='Words, "a phrase", -excluded, prefix*'
              onChange={(e) => setDraft(e.target.value)}
            />
          </label>
          <label>
            <span className="sr-only">Search by</span>
            <select value={mode} onChange={(e) => set({ mode: e.target.value || undefined, offset: undefined })}>
              {MODES.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span className="sr-only">Project</span>
            <select
              value={projectId}
              onChange={(e) => set({ project_id: e.target.value || undefined, offset: undefined })}>
              <option value="">All projects</option>
              {(projects.data?.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        </form>
      </Card>
      {!q.trim() ? (
        <Empty>Type what you are looking for.</Empty>
      ) : answer.isPending ? (
        <Spinner label="Searching…" />
      ) : answer.error ? (
        <ErrorBox error={answer.error} retry={() => void answer.refetch()} />
      ) : answer.data.results.length === 0 ? (
        <Empty>No documents match “{q}”.</Empty>
      ) : (
        <Card>
          <p className="muted small" aria-live="polite">
            Searched by{' '}
            {answer.data.mode === 'keyword'
              ? 'words'
              : answer.data.mode === 'semantic'
                ? 'meaning'
                : 'words and meaning'}
            {' · '}
            results {offset + 1}–{offset + answer.data.results.length}
          </p>
          <ol className="search-results" start={offset + 1}>
            {answer.data.results.map((r) => (
              <li key={r.document.id} className="search-result">
                <div className="row">
                  <Link to={`/documents/${r.document.id}`}>{r.document.filename}</Link>
                  <StatusBadge status={r.document.status} />
                  {r.document.classification ? (
                    <Badge tone="neutral">{humanize(r.document.classification)}</Badge>
                  ) : null}
                </div>
                {r.highlights.map((h, i) => (
                  <p key={i} className="small">
                    <Snippet snippet={h.snippet} />
                  </p>
                ))}
              </li>
            ))}
          </ol>
          <div className="row">
            {offset > 0 ? (
              <button type="button" className="btn" onClick={() => set({ offset: String(Math.max(0, offset - PAGE)) })}>
                Previous
              </button>
            ) : null}
            {answer.data.results.length === PAGE ? (
              <button type="button" className="btn" onClick={() => set({ offset: String(offset + PAGE) })}>
                Next
              </button>
            ) : null}
          </div>
        </Card>
      )}
    </>
  );
}
