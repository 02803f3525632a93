import { useState } from 'react';
import { useGetPage } from '../../lib/queries';
import { Link, useSearchState } from '../../lib/router';
import { formatDate } from '../../lib/format';
import { Empty, ErrorBox, PageHeader, Pager, RoleButton, Spinner } from '../../components/ui';
import { ImportDialog } from './ImportDialog';

const PER_PAGE = 25;

export function TemplatesPage() {
  const [s, set] = useSearchState();
  const page = Number(s.get('page') ?? 1);
  const list = useGetPage('/api/v1/templates', { query: { limit: PER_PAGE, offset: (page - 1) * PER_PAGE } });
  const [importing, setImporting] = useState(false);
  const total = list.data?.pagination.total ?? 0;
  return (
    <>
      <PageHeader
        title="Templates"
        subtitle="Extraction templates in invoice2data's format: chosen by keywords and priority, or as a project's default."
        actions={
          <RoleButton need="member" variant="primary" onClick={() => setImporting(true)}>
            Import templates
          </RoleButton>
        }
      />
      <ErrorBox error={list.error} retry={() => list.refetch()} />
      {list.isPending ? (
        <Spinner />
      ) : !list.data?.data.length ? (
        <Empty>
          No templates yet. Without one, generic extractors read the fields. To start from examples, import the
          invoice2data templates in <code>samples/templates/</code> of the repository (“Import templates”, or{' '}
          <code>npx docpipe templates import-dir samples/templates</code>).
        </Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Issuer</th>
                <th className="num">Priority</th>
                <th className="num">Version</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((t) => (
                <tr key={t.id}>
                  <td>
                    <Link to={`/templates/${t.id}`}>{t.name || t.issuer}</Link>
                  </td>
                  <td>{t.issuer}</td>
                  <td className="num">{t.priority}</td>
                  <td className="num">{t.version}</td>
                  <td className="small nowrap">{formatDate(t.updated_at)}</td>
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
        onPage={(n) => set({ page: String(n) })}
      />
      {importing ? <ImportDialog onClose={() => setImporting(false)} /> : null}
    </>
  );
}
