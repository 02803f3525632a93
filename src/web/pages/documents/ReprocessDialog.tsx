import { useState } from 'react';
import { client, ok } from '../../lib/client';
import { useAction, useGet, useInvalidate } from '../../lib/queries';
import { duration, percent } from '../../lib/format';
import { usePace } from '../../lib/pace';
import { Dialog } from '../../components/Dialog';
import { Button, Progress } from '../../components/ui';
import { STAGES, type Stage } from '../../lib/types';

/** Re-runs stages for the chosen documents (or a project) and follows the batch to the end. */
export function ReprocessDialog({
  target,
  follow,
  onClose,
}: {
  target?: { document_ids: string[] } | { project_id: string; label: string };
  follow?: string;
  onClose(): void;
}) {
  const [stages, setStages] = useState<Stage[]>(['classify', 'extract']);
  const [mode, setMode] = useState<'missing' | 'all'>('all');
  const [batchId, setBatchId] = useState<string | null>(follow ?? null);
  const invalidate = useInvalidate();
  const start = useAction(() => ok(client.POST('/api/v1/documents/reprocess', { body: { ...target, stages, mode } })), {
    success: 'Reprocessing queued',
  });
  const [invalidated, setInvalidated] = useState(false);
  const batch = useGet('/api/v1/batches/{id}', batchId ? { path: { id: batchId } } : null, {
    refetchInterval: (q) => (q.state.data?.status === 'completed' ? false : 1500),
  });
  const b = batch.data;
  const done = b?.status === 'completed';
  const finished = b ? b.completed + b.failed + b.skipped : undefined;
  const pace = usePace(finished, b?.total);
  if (done && !invalidated) {
    setInvalidated(true);
    void invalidate('/documents', '/pipeline');
  }
  const count = !target
    ? ''
    : 'document_ids' in target
      ? `${target.document_ids.length} selected documents`
      : `every document of ${target.label}`;
  return (
    <Dialog
      open
      title="Reprocess documents"
      onClose={onClose}
      footer={
        batchId ? (
          <Button onClick={onClose}>{done ? 'Close' : 'Hide (keeps running)'}</Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              variant="primary"
              busy={start.isPending}
              disabled={!stages.length}
              onClick={() => start.mutate(undefined, { onSuccess: (r) => setBatchId(r.id) })}>
              Start
            </Button>
          </>
        )
      }>
      {!batchId ? (
        <>
          <p>Re-run pipeline stages for {count}.</p>
          <fieldset className="stack" style={{ border: 'none', padding: 0, margin: '0 0 1rem', gap: '0.2rem' }}>
            <legend className="small muted">Stages</legend>
            {STAGES.map((s) => (
              <label key={s} className="check">
                <input
                  type="checkbox"
                  checked={stages.includes(s)}
                  onChange={(e) => setStages(e.target.checked ? [...stages, s] : stages.filter((x) => x !== s))}
                />{' '}
                {s}
              </label>
            ))}
          </fieldset>
          <fieldset className="stack" style={{ border: 'none', padding: 0, margin: 0, gap: '0.2rem' }}>
            <legend className="small muted">Which documents</legend>
            <label className="check">
              <input type="radio" name="rp-mode" checked={mode === 'all'} onChange={() => setMode('all')} /> All of them
              (redo the stages)
            </label>
            <label className="check">
              <input type="radio" name="rp-mode" checked={mode === 'missing'} onChange={() => setMode('missing')} />{' '}
              Only those missing a stage (never run, or run with an older model or template)
            </label>
          </fieldset>
        </>
      ) : b ? (
        <div className="stack" aria-live="polite">
          <Progress value={b.completed + b.failed + b.skipped} max={b.total} label="Reprocessing progress" />
          <p className="small">
            {done ? 'Finished' : 'Running'} · {percent(b.progress)} · {b.completed} done, {b.failed} failed, {b.skipped}{' '}
            skipped, {b.pending} waiting
          </p>
          {!done ? (
            <p className="small muted" data-testid="reprocess-pace">
              {b.walking ? `Queued ${b.queued.toLocaleString()} of ${b.total.toLocaleString()} so far. ` : ''}
              {pace.left !== null
                ? `${pace.perSecond.toFixed(pace.perSecond < 10 ? 1 : 0)} documents a second · about ${duration(pace.left)} left`
                : 'Measuring the pace…'}
            </p>
          ) : null}
          {b.failures.length ? (
            <ul className="small">
              {b.failures.slice(0, 10).map((f) => (
                <li key={f.document_id}>
                  <code>{f.document_id}</code>: {JSON.stringify(f.error)}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : (
        <p>Starting…</p>
      )}
    </Dialog>
  );
}
