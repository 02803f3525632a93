import { useEffect, useRef, useState } from 'react';
import { useGetPage } from '../../lib/queries';
import { Link, useSearchState } from '../../lib/router';
import { usePermission } from '../../lib/session';
import { humanize } from '../../lib/format';
import { Button, Card, Confidence, Empty, ErrorBox, PageHeader, Spinner, TabPanel, Tabs } from '../../components/ui';
import { Original } from '../documents/Original';
import { useConfirmType } from '../documents/Classification';
import { DuplicateNotice, type DuplicateOf } from '../documents/SimilarPanel';
import { FieldsEditor, type FieldPick, type FieldsHandle } from '../documents/FieldsEditor';
import { KNOWN_TYPES, type FieldPosition } from '../../lib/types';
import { KeyHelp, useHelpToggle, usePageKeys } from './ReviewKeys';
import { ReviewText } from './ReviewText';

type Queue = 'types' | 'fields';
type View = 'original' | 'text';

/**
 * Documents waiting for a person, one after another, from the keyboard end to end: those whose
 * type the classifier was unsure of, and those whose fields no person has confirmed yet. Keys
 * (see KeyHelp): J/K documents, F/N/P fields, T/O views, A accept all and go on, Enter/1–8 types.
 */
export function ReviewPage() {
  const [s, set] = useSearchState();
  const queue: Queue = s.get('queue') === 'fields' ? 'fields' : 'types';
  const types = useGetPage('/api/v1/documents', { query: { status: 'needs_review', per_page: 50 } });
  const waiting = useGetPage('/api/v1/documents', {
    query: { status: 'completed', fields_unconfirmed: true, per_page: 50 },
  });
  const list = queue === 'types' ? types : waiting;
  const perm = usePermission('member');
  const rows = list.data?.data ?? [];
  // The document shown, by id: when one leaves the queue (reviewed) the next takes its place.
  const [cur, setCur] = useState<string | null>(null);
  const at = Math.max(
    0,
    rows.findIndex((r) => r.id === cur),
  );
  const doc = rows[at];
  const go = (by: number) => {
    const next = rows[Math.max(0, Math.min(rows.length - 1, at + by))];
    if (next) setCur(next.id);
  };
  const [view, setView] = useState<View>('original');
  const [selected, setSelected] = useState<string | null>(null);
  const [pick, setPick] = useState<FieldPick | null>(null);
  const fields = useRef<FieldsHandle | null>(null);
  const text = useRef<HTMLTextAreaElement | null>(null);
  const region = useRef<HTMLDivElement>(null);
  const [help, toggleHelp] = useHelpToggle();
  // Set when the keyboard moved on to another document: its first waiting field takes the focus.
  const focusNext = useRef(false);
  useEffect(() => {
    setSelected(null);
    setPick(null);
    if (focusNext.current && doc) {
      focusNext.current = false;
      // After the new document's fields are drawn.
      requestAnimationFrame(() => fields.current?.focus(0));
    }
  }, [doc?.id]);

  const confirm = useConfirmType(doc ?? { id: '' });
  const choose = (type: string) => {
    if (!doc || !perm.allowed || confirm.isPending) return;
    const next = rows[at + 1] ?? rows[at - 1];
    confirm.mutate(type, { onSuccess: () => setCur(next?.id ?? null) });
  };
  /** The document is done (every field accepted): on to the next one, keyboard focus in its fields. */
  const done = () => {
    const next = rows[at + 1] ?? rows[at - 1];
    focusNext.current = true;
    // (In the fields queue the document also leaves the list once it is reloaded.)
    setCur(next?.id ?? null);
  };
  const onPick = (picked: string, position: FieldPosition) => {
    if (selected) setPick({ name: selected, text: picked, position, seq: (pick?.seq ?? 0) + 1 });
  };
  // The text view takes the focus once drawn (T is pressed to select text in it).
  const textFocus = useRef(false);
  const showView = (v: View) => {
    setView(v);
    if (v === 'text') {
      if (text.current?.isConnected) text.current.focus();
      else textFocus.current = true;
    }
  };
  // The selected field, or the first one waiting for a person.
  const toField = () => fields.current?.focus(0);
  // Arrows scroll the page's picture while it has the focus; elsewhere they move between documents.
  const arrow = (by: number) => () => {
    if (!document.activeElement?.closest('.viewer')) go(by);
  };
  usePageKeys({
    j: () => go(1),
    ArrowDown: arrow(1),
    k: () => go(-1),
    ArrowUp: arrow(-1),
    f: toField,
    n: () => fields.current?.focus(selected ? 1 : 0),
    p: () => fields.current?.focus(selected ? -1 : 0),
    t: () => showView('text'),
    o: () => showView('original'),
    a: () => fields.current?.confirmAll(done),
    '?': toggleHelp,
    Enter: () => {
      if (doc?.status === 'needs_review' && doc.classification) choose(doc.classification.type);
    },
    ...Object.fromEntries(
      KNOWN_TYPES.map((t, i) => [
        String(i + 1),
        () => {
          if (doc?.status === 'needs_review') choose(t);
        },
      ]),
    ),
  });
  const count = (l: typeof types) => (l.data ? ` (${l.data.pagination.total.toLocaleString()})` : '');
  const position = selected ? doc?.fields?.[selected]?.position : null;
  return (
    <>
      <PageHeader
        title="Review queue"
        subtitle={
          list.data
            ? `${list.data.pagination.total.toLocaleString()} ${list.data.pagination.total === 1 ? 'document' : 'documents'} waiting for ${queue === 'types' ? 'a type' : 'their fields to be checked'}`
            : undefined
        }
      />
      <KeyHelp open={help} onToggle={toggleHelp} types={queue === 'types'} />
      <Tabs
        label="Review queues"
        value={queue}
        onChange={(q) => {
          set({ queue: q === 'types' ? undefined : q });
          setCur(null);
        }}
        tabs={[
          { id: 'types', label: `Types to confirm${count(types)}` },
          { id: 'fields', label: `Fields to check${count(waiting)}` },
        ]}
      />
      <TabPanel id={queue}>
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
            <div className="review-layout" ref={region} tabIndex={-1} role="region" aria-label="Document under review">
              <Card title={<Link to={`/documents/${doc.id}`}>{doc.filename}</Link>}>
                <div className="segmented" role="group" aria-label="Document view">
                  <Button aria-pressed={view === 'original'} aria-keyshortcuts="O" onClick={() => showView('original')}>
                    Original
                  </Button>
                  <Button aria-pressed={view === 'text'} aria-keyshortcuts="T" onClick={() => showView('text')}>
                    Text
                  </Button>
                </div>
                {view === 'original' ? (
                  <Original
                    key={doc.id}
                    doc={doc}
                    position={position}
                    onPick={selected && perm.allowed ? onPick : undefined}
                  />
                ) : (
                  <ReviewText
                    key={doc.id}
                    id={doc.id}
                    field={selected ? humanize(selected) : null}
                    span={position && 'start' in position ? position : null}
                    onPick={selected && perm.allowed ? onPick : undefined}
                    onLeave={toField}
                    boxRef={text}
                    takeFocus={textFocus}
                  />
                )}
              </Card>
              <div>
                {doc.status === 'needs_review' ? <TypeCard doc={doc} choose={choose} busy={confirm.isPending} /> : null}
                {doc.fields && Object.keys(doc.fields).length > 0 ? (
                  <Card title="Fields">
                    <FieldsEditor
                      key={doc.id}
                      doc={doc}
                      selected={selected}
                      onSelect={setSelected}
                      pick={pick}
                      onDone={done}
                      onLeave={() => region.current?.focus()}
                      handle={fields}
                    />
                  </Card>
                ) : null}
                <Card>
                  <div className="row" style={{ justifyContent: 'space-between' }}>
                    <Button variant="ghost" disabled={at <= 0} onClick={() => go(-1)} aria-keyshortcuts="K">
                      ← Previous
                    </Button>
                    <span className="small muted">
                      {at + 1} of {rows.length}
                    </span>
                    <Button
                      variant="ghost"
                      disabled={at >= rows.length - 1}
                      onClick={() => go(1)}
                      aria-keyshortcuts="J">
                      Next →
                    </Button>
                  </div>
                </Card>
              </div>
            </div>
          </>
        )}
      </TabPanel>
    </>
  );
}

/** The classifier's suggestion and the types to choose from (documents waiting for a type). */
function TypeCard({
  doc,
  choose,
  busy,
}: {
  doc: { classification?: { type: string; confidence: number } | null };
  choose: (type: string) => void;
  busy: boolean;
}) {
  const perm = usePermission('member');
  return (
    <>
      <Card title="Suggested type">
        {doc.classification ? (
          <div className="stack" style={{ gap: '0.5rem' }}>
            <div className="row">
              <strong>{humanize(doc.classification.type)}</strong>
              <Confidence value={doc.classification.confidence} />
            </div>
            <Button
              variant="primary"
              busy={busy}
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
              disabled={!perm.allowed || busy}
              onClick={() => choose(t)}
              aria-keyshortcuts={String(i + 1)}>
              <span>{humanize(t)}</span>
              <kbd aria-hidden="true">{i + 1}</kbd>
            </Button>
          ))}
        </div>
      </Card>
    </>
  );
}
