import { useState } from 'react';
import { oneOf } from '../../lib/client';
import { useGetPage } from '../../lib/queries';
import { Link, useSearchState } from '../../lib/router';
import { usePermission } from '../../lib/session';
import { formatDate, humanize } from '../../lib/format';
import { Confidence, Empty, ErrorBox, PageHeader, Pager, RoleButton, Spinner, StatusBadge } from '../../components/ui';
import { DOCUMENT_STATUSES, KNOWN_TYPES, SOURCES } from '../../lib/types';
import { UploadZone } from './UploadZone';
import { ReprocessDialog } from './ReprocessDialog';

const PER_PAGE = 25;

export function DocumentsPage() {
  const [s, set] = useSearchState();
  const page = Number(s.get('page') ?? 1);
  const f = {
    project_id: s.get('project_id') ?? '',
    status: s.get('status') ?? '',
    classification: s.get('type') ?? '',
    source: s.get('source') ?? '',
    q: s.get('q') ?? '',
    from: s.get('from') ?? '',
    to: s.get('to') ?? '',
    conf: s.get('conf') ?? '',
  };
  const [q, setQ] = useState(f.q);
  const projects = useGetPage('/api/v1/projects', { query: { limit: 100, sort: 'name', order: 'asc' } });
  const confRange =
    f.conf === 'low'
      ? { max_confidence: 0.6 }
      : f.conf === 'mid'
        ? { min_confidence: 0.6, max_confidence: 0.85 }
        : f.conf === 'high'
          ? { min_confidence: 0.85 }
          : {};
  const list = useGetPage(
    '/api/v1/documents',
    {
      query: {
        project_id: f.project_id || undefined,
        status: oneOf(DOCUMENT_STATUSES, f.status),
        classification: f.classification || undefined,
        source: oneOf(SOURCES, f.source),
        q: f.q || undefined,
        created_after: f.from ? new Date(`${f.from}T00:00:00`).toISOString() : undefined,
        created_before: f.to ? new Date(new Date(`${f.to}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined,
        ...confRange,
        page,
        per_page: PER_PAGE,
      },
    },
    {
      refetchInterval: (qq) =>
        qq.state.data?.data.some((d) => !['completed', 'failed', 'needs_review'].includes(d.status)) ? 3000 : false,
    },
  );
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [reprocess, setReprocess] = useState(false);
  const canWrite = usePermission('member');
  const names = new Map((projects.data?.data ?? []).map((p) => [p.id, p.name]));
  const rows = list.data?.data ?? [];
  const total = list.data?.pagination.total ?? 0;
  const allChecked = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const toggle = (id: string) =>
    setSelected((prev) => {
      const n = new Set(prev);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  const filter = (k: string) => (e: { target: { value: string } }) => set({ [k]: e.target.value, page: undefined });
  return (
    <>
      <PageHeader
        title="Documents"
        subtitle="Everything uploaded, mailed in or sent through the API."
        actions={
          <RoleButton need="member" disabled={!selected.size} onClick={() => setReprocess(true)}>
            Reprocess {selected.size ? `${selected.size} selected` : 'selected'}
          </RoleButton>
        }
      />
      <UploadZone
        projects={projects.data?.data ?? []}
        defaultProject={f.project_id || undefined}
        disabledReason={canWrite.allowed ? undefined : canWrite.reason}
      />
      <form
        className="filters mt"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          set({ q, page: undefined });
        }}>
        <div className="field grow">
          <label htmlFor="f-q">Full text</label>
          <input
            id="f-q"
            type="search"
            value={q}
            placeholder="Words in the document"
            onChange={(e) => setQ(e.target.value)}
            onBlur={() => q !== f.q && set({ q, page: undefined })}
          />
        </div>
        <div className="field">
          <label htmlFor="f-project">Project</label>
          <select id="f-project" value={f.project_id} onChange={filter('project_id')}>
            <option value="">All</option>
            {projects.data?.data.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-status">Status</label>
          <select id="f-status" value={f.status} onChange={filter('status')}>
            <option value="">All</option>
            {DOCUMENT_STATUSES.map((x) => (
              <option key={x} value={x}>
                {humanize(x)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-type">Type</label>
          <input
            id="f-type"
            list="known-types"
            value={f.classification}
            onChange={filter('type')}
            placeholder="Any"
            size={12}
          />
          <datalist id="known-types">
            {KNOWN_TYPES.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor="f-source">Source</label>
          <select id="f-source" value={f.source} onChange={filter('source')}>
            <option value="">All</option>
            <option value="upload">Upload</option>
            <option value="email">E-mail</option>
            <option value="api">API</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-conf">Confidence</label>
          <select id="f-conf" value={f.conf} onChange={filter('conf')}>
            <option value="">Any</option>
            <option value="low">Below 60%</option>
            <option value="mid">60–85%</option>
            <option value="high">85% and above</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-from">From</label>
          <input id="f-from" type="date" value={f.from} onChange={filter('from')} />
        </div>
        <div className="field">
          <label htmlFor="f-to">To</label>
          <input id="f-to" type="date" value={f.to} onChange={filter('to')} />
        </div>
      </form>
      <ErrorBox error={list.error} retry={() => list.refetch()} />
      {list.isPending ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <Empty>No documents match these filters.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>
                  <input
                    type="checkbox"
                    aria-label="Select all on this page"
                    checked={allChecked}
                    onChange={() => setSelected(allChecked ? new Set() : new Set(rows.map((r) => r.id)))}
                  />
                </th>
                <th>File</th>
                <th>Project</th>
                <th>Status</th>
                <th>Type</th>
                <th>Confidence</th>
                <th>Source</th>
                <th>Uploaded</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} className={selected.has(d.id) ? 'selected' : undefined}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${d.filename}`}
                      checked={selected.has(d.id)}
                      onChange={() => toggle(d.id)}
                    />
                  </td>
                  <td>
                    <Link to={`/documents/${d.id}`}>{d.filename}</Link>
                    {d.error ? (
                      <div className="field-error small">
                        {d.error.code}: {d.error.message}
                      </div>
                    ) : null}
                  </td>
                  <td className="small">{names.get(d.project_id) ?? d.project_id}</td>
                  <td>
                    <StatusBadge status={d.status} />
                  </td>
                  <td>
                    {d.classification ? humanize(d.classification.type) : <span className="muted">—</span>}
                    {d.classification?.confirmed ? <span className="muted small"> ✓</span> : null}
                  </td>
                  <td>
                    <Confidence value={d.classification?.confidence} />
                  </td>
                  <td className="small">{d.source}</td>
                  <td className="nowrap small">{formatDate(d.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        page={page}
        totalPages={Math.ceil(total / PER_PAGE)}
        total={total}
        onPage={(n) => set({ page: String(n) }, false)}
      />
      {reprocess ? (
        <ReprocessDialog
          target={{ document_ids: [...selected] }}
          onClose={() => {
            setReprocess(false);
            setSelected(new Set());
          }}
        />
      ) : null}
    </>
  );
}
