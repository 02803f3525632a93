import { useState } from 'react';
import { oneOf } from '../../lib/client';
import { useGetPage, useInvalidate } from '../../lib/queries';
import { Link, navigate, useSearchState } from '../../lib/router';
import { formatDate } from '../../lib/format';
import { Empty, ErrorBox, PageHeader, Pager, RoleButton, Spinner, StatusBadge } from '../../components/ui';
import { ReportForm } from './ReportForm';
import { REPORT_TYPES, TYPE_INFO, typeName } from './types';
import './reports.css';

const PER_PAGE = 20;

export function ReportsPage() {
  const [s, set] = useSearchState();
  const page = Number(s.get('page') ?? 1);
  const type = s.get('type') ?? '';
  const category = s.get('category') ?? '';
  const search = s.get('search') ?? '';
  const [q, setQ] = useState(search);
  const [cat, setCat] = useState(category);
  const list = useGetPage('/api/v1/reports', {
    query: {
      type: oneOf(REPORT_TYPES, type),
      category: category || undefined,
      search: search || undefined,
      page,
      per_page: PER_PAGE,
    },
  });
  const invalidate = useInvalidate();
  const [creating, setCreating] = useState(false);
  const rows = list.data?.data ?? [];
  const total = list.data?.pagination.total ?? 0;
  return (
    <>
      <PageHeader
        title="Reports"
        subtitle="Counts, exports and quality figures over a period: run now or on a schedule, download as CSV, JSON or Excel."
        actions={
          <RoleButton need="member" variant="primary" onClick={() => setCreating(true)}>
            New report
          </RoleButton>
        }
      />
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          set({ search: q, category: cat, page: undefined });
        }}>
        <div className="field grow">
          <label htmlFor="rp-search">Search</label>
          <input
            id="rp-search"
            type="search"
            value={q}
            placeholder="Name, description or tag"
            onChange={(e) => setQ(e.target.value)}
            onBlur={() => q !== search && set({ search: q, page: undefined })}
          />
        </div>
        <div className="field">
          <label htmlFor="rp-f-type">Type</label>
          <select id="rp-f-type" value={type} onChange={(e) => set({ type: e.target.value, page: undefined })}>
            <option value="">All</option>
            {REPORT_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_INFO[t].label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rp-f-cat">Category</label>
          <input
            id="rp-f-cat"
            value={cat}
            size={12}
            placeholder="Any"
            onChange={(e) => setCat(e.target.value)}
            onBlur={() => cat !== category && set({ category: cat, page: undefined })}
          />
        </div>
      </form>
      <ErrorBox error={list.error} retry={() => list.refetch()} />
      {list.isPending ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <Empty>
          {type || category || search
            ? 'No report matches these filters.'
            : 'No reports yet. Create one to count documents per day, export extracted fields or follow usage.'}
        </Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Type</th>
                <th>Category</th>
                <th>Schedule</th>
                <th>Last execution</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`/reports/${r.id}`}>{r.name}</Link>
                    {r.tags.length ? <div className="small muted">{r.tags.join(', ')}</div> : null}
                  </td>
                  <td className="small">{typeName(r.type)}</td>
                  <td className="small">{r.category ?? <span className="muted">—</span>}</td>
                  <td className="small">
                    {r.schedule ? (
                      <>
                        {r.schedule.frequency} at {r.schedule.time}{' '}
                        <span className="muted">({r.schedule.timezone})</span>
                        <div className="muted">next {formatDate(r.schedule.next_run_at)}</div>
                      </>
                    ) : (
                      <span className="muted">not scheduled</span>
                    )}
                  </td>
                  <td>
                    {r.last_execution ? (
                      <>
                        <StatusBadge status={r.last_execution.status} />{' '}
                        <span className="small muted nowrap">
                          {formatDate(r.last_execution.finished_at ?? r.last_execution.created_at)}
                        </span>
                      </>
                    ) : (
                      <span className="muted small">never run</span>
                    )}
                  </td>
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
      {creating ? (
        <ReportForm
          onClose={() => setCreating(false)}
          onDone={(r) => {
            setCreating(false);
            void invalidate('/reports');
            navigate(`/reports/${r.id}`);
          }}
        />
      ) : null}
    </>
  );
}
