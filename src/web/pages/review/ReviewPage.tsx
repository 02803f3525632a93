import { useEffect, useState } from 'react';
import { useGetPage } from '../../lib/queries';
import { Link } from '../../lib/router';
import { usePermission } from '../../lib/session';
import { humanize } from '../../lib/format';
import { Button, Card, Confidence, Empty, ErrorBox, PageHeader, Spinner } from '../../components/ui';
import { Original } from '../documents/Original';
import { useConfirmType } from '../documents/Classification';
import { DuplicateNotice, type DuplicateOf } from '../documents/SimilarPanel';
import { KNOWN_TYPES } from '../../lib/types';

/**
 * Documents waiting for a person: the classifier was below the project's threshold. Keys:
 * Enter confirms the suggested type, 1–8 pick a type, J / K move between documents.
 */
export function ReviewPage() {
  const list = useGetPage('/api/v1/documents', { query: { status: 'needs_review', per_page: 50 } });
  const [index, setIndex] = useState(0);
  const perm = usePermission('member');
  const rows = list.data?.data ?? [];
  const doc = rows[Math.min(index, Math.max(rows.length - 1, 0))];
  const confirm = useConfirmType(doc ?? { id: '' });
  const choose = (type: string) => {
    if (!doc || !perm.allowed || confirm.isPending) return;
    confirm.mutate(type);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, [contenteditable], dialog') || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'j' || e.key === 'ArrowDown') {
        setIndex((i) => Math.min(i + 1, rows.length - 1));
        e.preventDefault();
      } else if (e.key === 'k' || e.key === 'ArrowUp') {
        setIndex((i) => Math.max(i - 1, 0));
        e.preventDefault();
      } else if (e.key === 'Enter' && doc?.classification && t.tagName !== 'BUTTON' && t.tagName !== 'A') {
        choose(doc.classification.type);
        e.preventDefault();
      } else if (/^[1-8]$/.test(e.key)) {
        choose(KNOWN_TYPES[Number(e.key) - 1]);
        e.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  return (
    <>
      <PageHeader
        title="Review queue"
        subtitle={list.data ? `${list.data.pagination.total.toLocaleString()} documents waiting for a type` : undefined}
      />
      <p className="small muted" id="review-keys">
        Keys: <kbd>Enter</kbd> confirm the suggestion · <kbd>1</kbd>–<kbd>8</kbd> choose a type · <kbd>J</kbd>/
        <kbd>K</kbd> next / previous
      </p>
      <ErrorBox error={list.error} retry={() => list.refetch()} />
      {!perm.allowed ? <div className="info-box">{perm.reason} You can look, not confirm.</div> : null}
      {list.isPending ? (
        <Spinner />
      ) : !doc ? (
        <Empty>Nothing to review. Well done.</Empty>
      ) : (
        <>
          {/* A project with on_near_duplicate=review stops near-duplicates here. */}
          {(doc as { duplicate_of?: DuplicateOf | null }).duplicate_of ? (
            <DuplicateNotice key={doc.id} dup={(doc as unknown as { duplicate_of: DuplicateOf }).duplicate_of} />
          ) : null}
          <div className="review-layout">
            <Card title={<Link to={`/documents/${doc.id}`}>{doc.filename}</Link>}>
              <Original key={doc.id} doc={doc} />
            </Card>
            <div>
              <Card title="Suggested type">
                {doc.classification ? (
                  <div className="stack" style={{ gap: '0.5rem' }}>
                    <div className="row">
                      <strong>{humanize(doc.classification.type)}</strong>
                      <Confidence value={doc.classification.confidence} />
                    </div>
                    <Button
                      variant="primary"
                      busy={confirm.isPending}
                      disabled={!perm.allowed}
                      onClick={() => choose(doc.classification!.type)}
                      aria-keyshortcuts="Enter">
                      Confirm {humanize(doc.classification.type)}
                    </Button>
                  </div>
                ) : (
                  <p className="muted">No suggestion.</p>
                )}
              </Card>
              <Card title="Or choose">
                <div className="type-choices" role="group" aria-label="Document types">
                  {KNOWN_TYPES.map((t, i) => (
                    <Button
                      key={t}
                      disabled={!perm.allowed || confirm.isPending}
                      onClick={() => choose(t)}
                      aria-keyshortcuts={String(i + 1)}>
                      <span>{humanize(t)}</span>
                      <kbd aria-hidden="true">{i + 1}</kbd>
                    </Button>
                  ))}
                </div>
              </Card>
              <Card>
                <div className="row" style={{ justifyContent: 'space-between' }}>
                  <Button
                    variant="ghost"
                    disabled={index <= 0}
                    onClick={() => setIndex(index - 1)}
                    aria-keyshortcuts="K">
                    ← Previous
                  </Button>
                  <span className="small muted">
                    {Math.min(index, rows.length - 1) + 1} of {rows.length}
                  </span>
                  <Button
                    variant="ghost"
                    disabled={index >= rows.length - 1}
                    onClick={() => setIndex(index + 1)}
                    aria-keyshortcuts="J">
                    Next →
                  </Button>
                </div>
              </Card>
            </div>
          </div>
        </>
      )}
    </>
  );
}
