import { useEffect, useState } from 'react';
import { client, ok } from '../../lib/client';
import { useAction, useGet, useGetPage } from '../../lib/queries';
import { Link, navigate, useSearchState } from '../../lib/router';
import { bytes, formatDate, humanize } from '../../lib/format';
import { ConfirmDialog } from '../../components/Dialog';
import {
  Badge,
  Card,
  Empty,
  ErrorBox,
  KeyValue,
  PageHeader,
  RoleButton,
  Spinner,
  StatusBadge,
  TabPanel,
  Tabs,
} from '../../components/ui';
import type { FieldPosition } from '../../lib/types';
import { Original } from './Original';
import { FieldsEditor, type FieldPick } from './FieldsEditor';
import { Classification } from './Classification';
import { ReprocessDialog } from './ReprocessDialog';
import { DuplicateNotice, SimilarPanel, type DuplicateOf } from './SimilarPanel';

const DONE = ['completed', 'failed', 'needs_review'];

function Timeline({ id }: { id: string }) {
  const events = useGetPage('/api/v1/events', { query: { document_id: id, limit: 50 } });
  if (events.isPending) return <Spinner />;
  if (events.error) return <ErrorBox error={events.error} />;
  const rows = [...events.data.data].reverse();
  if (!rows.length) return <Empty>No events yet.</Empty>;
  return (
    <ol className="timeline">
      {rows.map((e) => (
        <li key={e.id}>
          <div>
            <strong>{e.type}</strong> <span className="muted small">{formatDate(e.createdAt)}</span>
          </div>
          <div className="small muted">
            {typeof e.data.status === 'string' ? <>status {humanize(e.data.status)}</> : null}
            {e.data.classification && typeof e.data.classification === 'object' ? (
              <> · {(e.data.classification as { type: string }).type}</>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}

/** Offsets of the selection inside `root`'s text, or null when nothing in it is selected. */
function selectedSpan(root: HTMLElement): { text: string; start: number; end: number } | null {
  const sel = window.getSelection();
  if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const range = sel.getRangeAt(0);
  if (!root.contains(range.startContainer) || !root.contains(range.endContainer)) return null;
  const before = document.createRange();
  before.setStart(root, 0);
  before.setEnd(range.startContainer, range.startOffset);
  const raw = range.toString();
  const lead = raw.length - raw.trimStart().length;
  const text = raw.trim();
  if (!text) return null;
  const start = before.toString().length + lead;
  return { text, start, end: start + text.length };
}

function TextView({
  id,
  span,
  onPick,
}: {
  id: string;
  span?: { start: number; end: number } | null;
  /** Text selected (mouse or Shift+arrows) fills the selected field. */
  onPick?: (text: string, position: FieldPosition) => void;
}) {
  const text = useGet('/api/v1/documents/{id}/text', { path: { id } });
  if (text.isPending) return <Spinner />;
  if (text.error) return <ErrorBox error={text.error} />;
  const t = text.data.text;
  const picked = (e: { currentTarget: HTMLElement }) => {
    const s = onPick ? selectedSpan(e.currentTarget) : null;
    if (s) onPick?.(s.text, { start: s.start, end: s.end });
  };
  return t ? (
    <pre
      tabIndex={0}
      aria-label="Extracted text"
      onMouseUp={picked}
      onKeyUp={(e) => {
        if (e.shiftKey) picked(e);
      }}>
      {span && span.end <= t.length ? (
        <>
          {t.slice(0, span.start)}
          <mark data-testid="field-span" ref={(el) => el?.scrollIntoView({ block: 'center' })}>
            {t.slice(span.start, span.end)}
          </mark>
          {t.slice(span.end)}
        </>
      ) : (
        t
      )}
    </pre>
  ) : (
    <Empty>No text (yet).</Empty>
  );
}

export function DocumentPage({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const [s, set] = useSearchState();
  const tab = (s.get('tab') as 'original' | 'text') ?? 'original';
  const doc = useGet(
    '/api/v1/documents/{id}',
    { path: { id } },
    {
      refetchInterval: (q) => (q.state.data && !DONE.includes(q.state.data.status) ? 2000 : false),
    },
  );
  const project = useGet('/api/v1/projects/{id}', doc.data ? { path: { id: doc.data.project_id } } : null);
  const [reprocess, setReprocess] = useState(false);
  // The field whose value is outlined on the page (or marked in the text).
  const [selected, setSelected] = useState<string | null>(null);
  // Text picked on the page or in the text for the selected field.
  const [pick, setPick] = useState<FieldPick | null>(null);
  const onPick = (text: string, position: FieldPosition) => {
    if (selected) setPick({ name: selected, text, position, seq: (pick?.seq ?? 0) + 1 });
  };
  // Another document opened in this page: nothing of the last one stays selected.
  useEffect(() => {
    setSelected(null);
    setPick(null);
  }, [id]);
  // The next document of the list (as the documents page orders it), for reviewing one after another.
  const list = useGetPage('/api/v1/documents', { query: { per_page: 100 } });
  const nextDoc = () => {
    const rows = list.data?.data ?? [];
    const at = rows.findIndex((r) => r.id === id);
    const next = at >= 0 ? rows[at + 1] : undefined;
    navigate(next ? `/documents/${next.id}` : '/documents');
  };
  const learn = useAction(() => ok(client.POST('/api/v1/templates/learn', { body: { document_id: id } })), {
    invalidate: ['/templates'],
    success: 'Template created from this document',
  });
  const [deleting, setDeleting] = useState(false);
  const remove = useAction(() => ok(client.DELETE('/api/v1/documents/{id}', { params: { path: { id } } })), {
    invalidate: ['/documents', '/projects'],
    success: 'Document deleted',
  });
  if (doc.isPending) return <Spinner />;
  if (doc.error) return <ErrorBox error={doc.error} />;
  const d = doc.data;
  // (Not in the dashboard's DocumentRow type yet: read as the API documents it.)
  const duplicateOf = (d as { duplicate_of?: DuplicateOf | null }).duplicate_of ?? null;
  return (
    <>
      <PageHeader
        title={d.filename}
        back={<Link to="/documents">← Documents</Link>}
        subtitle={
          <span className="row">
            <StatusBadge status={d.status} />{' '}
            {project.data ? <Link to={`/projects/${d.project_id}`}>{project.data.name}</Link> : null}{' '}
            <span className="muted small">
              {bytes(d.size_bytes)} ·{' '}
              {d.page_count === null ? 'pages unknown' : d.page_count === 1 ? '1 page' : `${d.page_count} pages`} · from{' '}
              {/* A watched folder uploads like the API (source "upload"); say where the file came from. */}
              {d.source_metadata?.watch ? 'the watched folder' : d.source}
            </span>
          </span>
        }
        actions={
          <>
            {Object.values(d.fields ?? {}).some((f) => f.confirmed) ? (
              <RoleButton
                need="member"
                onClick={() => learn.mutate(undefined, { onSuccess: (t) => navigate(`/templates/${t.id}`) })}>
                Create template from this document
              </RoleButton>
            ) : null}
            <RoleButton need="member" onClick={() => setReprocess(true)}>
              Reprocess
            </RoleButton>
            <RoleButton need="member" variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </RoleButton>
          </>
        }
      />
      {d.error ? (
        <div className="error-box" role="alert">
          <strong>Failed at {d.error.stage}:</strong> {d.error.code} — {d.error.message}
        </div>
      ) : null}
      {Object.entries(d.pipeline.skipped ?? {}).map(([stage, why]) => (
        // A run that went past a stage without its work must not look complete.
        <div key={stage} className="warn-box" role="status">
          <strong>{stage === 'embed' ? 'Embeddings skipped' : `${stage} skipped`}:</strong> {why.message}. Search by
          meaning and similar documents leave this document out until the stage runs again (Settings → Pipeline).
        </div>
      ))}
      {d.status === 'needs_review' ? (
        <div className="warn-box">
          The classifier was not sure enough (below the project's threshold of{' '}
          {project.data?.classification_threshold ?? '…'}). Confirm or correct the type to continue.
        </div>
      ) : null}
      {duplicateOf ? <DuplicateNotice dup={duplicateOf} /> : null}
      <div className="doc-layout">
        <Card>
          <Tabs
            label="Document views"
            value={tab}
            onChange={(t) => set({ tab: t === 'original' ? undefined : t })}
            tabs={[
              { id: 'original', label: 'Original' },
              { id: 'text', label: 'Text' },
            ]}
          />
          <TabPanel id={tab}>
            {tab === 'original' ? (
              <Original
                doc={d}
                position={selected ? d.fields?.[selected]?.position : null}
                onPick={selected ? onPick : undefined}
              />
            ) : (
              <TextView
                id={d.id}
                onPick={selected ? onPick : undefined}
                span={(() => {
                  const p = selected ? d.fields?.[selected]?.position : undefined;
                  return p && 'start' in p ? p : null;
                })()}
              />
            )}
          </TabPanel>
        </Card>
        <div>
          <Card title="Classification">
            <Classification
              key={d.classification?.type ?? ''}
              doc={d}
              threshold={project.data?.classification_threshold}
            />
          </Card>
          <Card title="Similar documents">
            <SimilarPanel key={d.version} id={d.id} />
          </Card>
          <Card title="Fields">
            <FieldsEditor key={d.id} doc={d} onSelect={setSelected} selected={selected} pick={pick} onDone={nextDoc} />
          </Card>
          <Card title="Exports">
            {!d.exports?.length ? (
              <p className="muted small">No export targets for this document.</p>
            ) : (
              <ul className="small">
                {d.exports.map((e, i) => (
                  <li key={i}>
                    <Badge tone={e.status === 'exported' ? 'good' : e.status === 'failed' ? 'bad' : 'neutral'}>
                      {String(e.status)}
                    </Badge>{' '}
                    {String(e.sheet_name ?? e.export_id)} · version {String(e.document_version ?? '')}
                    {e.error ? <span className="field-error"> {String(e.error)}</span> : null}
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Card title="Timeline">
            <Timeline id={d.id} />
          </Card>
          {d.source_metadata?.smtp ? <SmtpVerdicts smtp={d.source_metadata.smtp as Record<string, unknown>} /> : null}
          <Card title="Details">
            <KeyValue
              rows={[
                ['Id', <code key="id">{d.id}</code>],
                ['Type of file', d.mime_type],
                [
                  'SHA-256',
                  <code key="sha" className="small">
                    {d.sha256}
                  </code>,
                ],
                ['Version', String(d.version)],
                ['Stages', d.pipeline.stages.join(' → ')],
                ['Current stage', d.pipeline.current_stage ?? 'none'],
                ['Classifier', d.models.classifier_version ?? '—'],
                [
                  'Template',
                  d.models.template_id ? (
                    <Link key="t" to={`/templates/${d.models.template_id}`}>
                      {d.models.template_id} v{d.models.template_version}
                    </Link>
                  ) : (
                    'generic extractors'
                  ),
                ],
                ...Object.entries(d.timestamps)
                  .filter(([, v]) => v)
                  .map(([k, v]) => [humanize(k), formatDate(v)] as [string, string]),
                ...Object.entries(d.source_metadata ?? {})
                  .filter(([k, v]) => k !== 'smtp' && (typeof v !== 'object' || v === null))
                  .map(([k, v]) => [humanize(k), String(v)] as [string, string]),
              ]}
            />
          </Card>
        </div>
      </div>
      {reprocess ? <ReprocessDialog target={{ document_ids: [d.id] }} onClose={() => setReprocess(false)} /> : null}
      <ConfirmDialog
        open={deleting}
        title="Delete this document?"
        danger
        confirmLabel="Delete"
        busy={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/documents') })}>
        <p>{d.filename} and its file are removed. Rows already written to a spreadsheet stay.</p>
      </ConfirmDialog>
    </>
  );
}

/** How the message carrying this document arrived: client, sender and the authentication verdicts. */
function SmtpVerdicts({ smtp }: { smtp: Record<string, unknown> }) {
  const verdict = (k: string) => {
    const v = String(smtp[k] ?? 'none');
    return (
      <span key={k} className={`badge ${v === 'pass' ? 'badge-good' : v === 'none' ? 'badge-neutral' : 'badge-bad'}`}>
        {v}
      </span>
    );
  };
  return (
    <Card title="Received by e-mail">
      <KeyValue
        rows={[
          ['Envelope sender', String(smtp.from ?? '(none)')],
          ['From', String(smtp.header_from ?? '—')],
          ['Client', `${String(smtp.remote_ip ?? '')} (${String(smtp.helo ?? '')})`],
          ['SPF', verdict('spf')],
          ['DKIM', verdict('dkim')],
          ['DMARC', verdict('dmarc')],
          ['ARC', verdict('arc')],
        ]}
      />
    </Card>
  );
}
