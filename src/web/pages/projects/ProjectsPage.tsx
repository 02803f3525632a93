import { useState } from 'react';
import { useGetPage } from '../../lib/queries';
import { Link, navigate, useSearchState } from '../../lib/router';
import { formatDate } from '../../lib/format';
import { Dialog } from '../../components/Dialog';
import { Empty, ErrorBox, PageHeader, Pager, RoleButton, Spinner, StatusBadge } from '../../components/ui';
import { ProjectForm } from './ProjectForm';

const PER_PAGE = 20;

export function ProjectsPage() {
  const [search, setSearch] = useSearchState();
  const page = Number(search.get('page') ?? 1);
  const q = search.get('q') ?? '';
  const archived = search.get('archived') === '1';
  const [creating, setCreating] = useState(false);
  const list = useGetPage('/api/v1/projects', {
    query: {
      search: q || undefined,
      include_archived: archived || undefined,
      limit: PER_PAGE,
      offset: (page - 1) * PER_PAGE,
      sort: 'name',
      order: 'asc',
    },
  });
  const total = list.data?.pagination.total ?? 0;
  return (
    <>
      <PageHeader
        title="Projects"
        subtitle="Documents are organised into projects; each has its own processing settings."
        actions={
          <RoleButton need="member" variant="primary" onClick={() => setCreating(true)}>
            New project
          </RoleButton>
        }
      />
      <div className="filters">
        <div className="field grow">
          <label htmlFor="proj-search">Search</label>
          <input
            id="proj-search"
            type="search"
            value={q}
            placeholder="Name or description"
            onChange={(e) => setSearch({ q: e.target.value, page: undefined })}
          />
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={archived}
            onChange={(e) => setSearch({ archived: e.target.checked ? '1' : undefined, page: undefined })}
          />{' '}
          Show archived
        </label>
      </div>
      <ErrorBox error={list.error} retry={() => list.refetch()} />
      {list.isPending ? (
        <Spinner />
      ) : list.data && list.data.data.length === 0 ? (
        <Empty>{q ? 'No project matches.' : 'No projects yet. Create one to start uploading documents.'}</Empty>
      ) : list.data ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Status</th>
                <th>Threshold</th>
                <th>Auto</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((p) => (
                <tr key={p.id}>
                  <td>
                    <span className="row">
                      <span
                        aria-hidden="true"
                        style={{
                          width: 10,
                          height: 10,
                          borderRadius: 3,
                          background: p.color ?? 'var(--muted)',
                          display: 'inline-block',
                        }}
                      />
                      <Link to={`/projects/${p.id}`}>{p.name}</Link>
                    </span>
                    {p.description ? <div className="muted small">{p.description}</div> : null}
                  </td>
                  <td>
                    <StatusBadge status={p.status} />
                  </td>
                  <td className="num">{p.classification_threshold}</td>
                  <td className="small">
                    {[p.auto_classify && 'classify', p.auto_extract && 'extract'].filter(Boolean).join(', ') ||
                      'manual'}
                  </td>
                  <td className="nowrap">{formatDate(p.created_at, { time: false })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager
        page={page}
        totalPages={Math.ceil(total / PER_PAGE)}
        total={total}
        onPage={(n) => setSearch({ page: String(n) })}
      />
      <Dialog open={creating} title="New project" onClose={() => setCreating(false)}>
        <ProjectForm
          onCancel={() => setCreating(false)}
          onDone={(p) => {
            setCreating(false);
            navigate(`/projects/${p.id}`);
          }}
        />
      </Dialog>
    </>
  );
}
