import { useState } from 'react';
import { client, ok } from '../../lib/client';
import { useAction, useGet } from '../../lib/queries';
import { usePermission } from '../../lib/session';
import { Link } from '../../lib/router';
import { ConfirmDialog } from '../../components/Dialog';
import { Badge, Button, Card, ErrorBox, PageHeader, Spinner } from '../../components/ui';
import { STAGES, type Stage } from '../../lib/types';
import { ReprocessDialog } from '../documents/ReprocessDialog';

const STAGE_HELP: Record<string, string> = {
  parse: 'text from the file (OCR for scans)',
  embed: 'vectors for search and similarity',
  classify: 'document type',
  extract: 'fields',
};

export function PipelinePage() {
  const perm = usePermission('admin');
  const o = useGet('/api/v1/pipeline', perm.allowed ? {} : null, { refetchInterval: 3000 });
  const [confirm, setConfirm] = useState<{ stage: Stage; mode: 'missing' | 'all' } | null>(null);
  const [batch, setBatch] = useState<string | null>(null);
  const inv = ['/pipeline', '/documents'];
  const queueAction = useAction(
    (x: { name: string; action: 'pause' | 'resume' | 'retry-failed' }) => {
      const init = { params: { path: { name: x.name } } };
      if (x.action === 'pause') return ok(client.POST('/api/v1/pipeline/queues/{name}/pause', init));
      if (x.action === 'resume') return ok(client.POST('/api/v1/pipeline/queues/{name}/resume', init));
      return ok(client.POST('/api/v1/pipeline/queues/{name}/retry-failed', init));
    },
    { invalidate: inv, success: (q) => `${q.name}: ${q.paused ? 'paused' : 'running'}` },
  );
  const retryDocs = useAction(
    (stage: Stage) => ok(client.POST('/api/v1/pipeline/stages/{stage}/retry-failed', { params: { path: { stage } } })),
    {
      invalidate: inv,
      success: (b) => `${b.total} documents queued again`,
    },
  );
  const reprocess = useAction(
    (x: { stage: Stage; mode: 'missing' | 'all' }) =>
      ok(
        client.POST('/api/v1/pipeline/stages/{stage}/reprocess', {
          params: { path: { stage: x.stage } },
          body: { mode: x.mode },
        }),
      ),
    { invalidate: inv, success: (b) => `${b.total} documents queued` },
  );
  if (!perm.allowed)
    return (
      <>
        <PageHeader title="Pipeline" />
        <div className="info-box">{perm.reason}</div>
      </>
    );
  if (o.isPending) return <Spinner />;
  if (o.error) return <ErrorBox error={o.error} />;
  const d = o.data;
  const skipped = STAGES.filter((s) => d.stages[s]?.skipped);
  return (
    <>
      <PageHeader
        title="Pipeline"
        subtitle="What the workers are doing, and re-running stages after a model or template change."
      />
      {skipped.map((s) => (
        // Documents went past this stage without its work: the pipeline must not look complete.
        <div key={s} className="warn-box" role="status">
          <strong>{s === 'embed' ? 'Embeddings skipped' : `${s} skipped`}:</strong> {d.stages[s].skipped_reason} (
          {d.stages[s].skipped} {d.stages[s].skipped === 1 ? 'document' : 'documents'}). Once the cause is fixed, run{' '}
          {s} on “Missing” below.
        </div>
      ))}
      <Card title="Your documents by stage">
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Stage</th>
                <th className="num">In progress</th>
                <th className="num">Failed</th>
                <th className="num">Skipped</th>
                <th>Run again</th>
              </tr>
            </thead>
            <tbody>
              {STAGES.map((s) => (
                <tr key={s}>
                  <td>
                    <strong>{s}</strong> <span className="small muted">{STAGE_HELP[s]}</span>
                  </td>
                  <td className="num">{d.stages[s]?.in_progress ?? 0}</td>
                  <td className="num">
                    {d.stages[s]?.failed ? <Link to="/documents?status=failed">{d.stages[s].failed}</Link> : 0}
                  </td>
                  <td className="num">
                    {d.stages[s]?.skipped ? (
                      <span title={d.stages[s].skipped_reason ?? undefined}>{d.stages[s].skipped}</span>
                    ) : (
                      0
                    )}
                  </td>
                  <td className="nowrap">
                    <span className="row">
                      <Button
                        className="btn-sm"
                        disabled={!d.stages[s]?.failed}
                        onClick={() => retryDocs.mutate(s, { onSuccess: (b) => setBatch(b.id) })}
                        aria-label={`Retry failed ${s}`}>
                        Retry failed
                      </Button>
                      <Button
                        className="btn-sm"
                        onClick={() => setConfirm({ stage: s, mode: 'missing' })}
                        aria-label={`Run ${s} on missing`}>
                        Missing
                      </Button>
                      <Button
                        className="btn-sm"
                        onClick={() => setConfirm({ stage: s, mode: 'all' })}
                        aria-label={`Run ${s} on all`}>
                        All
                      </Button>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="small muted">
          “Missing” runs a stage where it never ran or ran with an older model or template; “All” runs it on every
          document of this mode.
        </p>
      </Card>
      <Card title="Queues" actions={<Badge>shared by the whole install</Badge>}>
        {!d.queues ? (
          <div className="info-box">{d.queues_reason}</div>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Queue</th>
                  <th className="num">Waiting</th>
                  <th className="num">Active</th>
                  <th className="num">Delayed</th>
                  <th className="num">Failed</th>
                  <th>State</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.queues.map((q) => (
                  <tr key={q.name}>
                    <td>{q.name}</td>
                    <td className="num">{q.waiting}</td>
                    <td className="num">{q.active}</td>
                    <td className="num">{q.delayed}</td>
                    <td className="num">{q.failed}</td>
                    <td>{q.paused ? <Badge tone="warn">paused</Badge> : <Badge tone="good">running</Badge>}</td>
                    <td className="nowrap">
                      <span className="row">
                        <Button
                          className="btn-sm"
                          onClick={() => queueAction.mutate({ name: q.name, action: q.paused ? 'resume' : 'pause' })}>
                          {q.paused ? 'Resume' : 'Pause'}
                        </Button>
                        <Button
                          className="btn-sm"
                          disabled={!q.failed}
                          onClick={() => queueAction.mutate({ name: q.name, action: 'retry-failed' })}
                          aria-label={`Retry failed jobs of ${q.name}`}>
                          Retry failed
                        </Button>
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <ConfirmDialog
        open={!!confirm}
        title={`Run ${confirm?.stage} on ${confirm?.mode === 'all' ? 'every document' : 'documents missing it'}?`}
        confirmLabel="Start"
        busy={reprocess.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          reprocess.mutate(confirm!, {
            onSuccess: (b) => {
              setConfirm(null);
              setBatch(b.id);
            },
          })
        }>
        <p>Every document of this mode is considered; the progress is shown next.</p>
      </ConfirmDialog>
      {batch ? <ReprocessDialog follow={batch} onClose={() => setBatch(null)} /> : null}
    </>
  );
}
