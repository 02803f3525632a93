import { useGet, useGetPage } from '../../lib/queries';
import { Link, useSearchState } from '../../lib/router';
import { humanize } from '../../lib/format';
import { PageHeader } from '../../components/ui';
import { RunDetail, RunsTable } from './Runs';
import { RUN_STATUSES } from './types';
import './workflows.css';

/** Runs of every workflow, newest first, with filters. */
export function RunsPage() {
  const [s, set] = useSearchState();
  const page = Number(s.get('page') ?? 1);
  const status = s.get('status') ?? '';
  const mode = s.get('mode') ?? '';
  const workflow = s.get('workflow_id') ?? '';
  const workflows = useGetPage('/api/v1/workflows', { query: { per_page: 100 } });
  const names = new Map((workflows.data?.data ?? []).map((w) => [w.id, w.name]));
  return (
    <>
      <PageHeader
        back={<Link to="/workflows">← Workflows</Link>}
        title="Workflow runs"
        subtitle="Every run of every workflow, newest first. Open a run for each step's input, output and errors."
      />
      <form className="filters" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="runs-wf">Workflow</label>
          <select id="runs-wf" value={workflow} onChange={(e) => set({ workflow_id: e.target.value, page: undefined })}>
            <option value="">All</option>
            {workflows.data?.data.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="runs-status">Status</label>
          <select id="runs-status" value={status} onChange={(e) => set({ status: e.target.value, page: undefined })}>
            <option value="">All</option>
            {RUN_STATUSES.map((x) => (
              <option key={x} value={x}>
                {humanize(x)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="runs-mode">Mode</label>
          <select id="runs-mode" value={mode} onChange={(e) => set({ mode: e.target.value, page: undefined })}>
            <option value="">All</option>
            <option value="execute">Execute</option>
            <option value="dry_run">Dry run</option>
          </select>
        </div>
      </form>
      <RunsTable
        workflowId={workflow || undefined}
        status={status}
        mode={mode}
        page={page}
        onPage={(n) => set({ page: String(n) }, false)}
        names={names}
      />
    </>
  );
}

export function RunPage({ params }: { params: Record<string, string> }) {
  const run = useGet('/api/v1/workflows/runs/{runId}', { path: { runId: params.runId } });
  return (
    <>
      <PageHeader
        back={
          run.data ? (
            <Link to={`/workflows/${run.data.workflow_id}?tab=runs`}>← Runs of this workflow</Link>
          ) : (
            <Link to="/workflows/runs">← Runs</Link>
          )
        }
        title={
          <>
            Run <span className="mono wf-run-id">{params.runId}</span>
          </>
        }
      />
      <RunDetail runId={params.runId} />
    </>
  );
}
