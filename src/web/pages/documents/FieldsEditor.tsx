import { useEffect, useReducer, useRef, useState, type KeyboardEvent, type MutableRefObject } from 'react';
import { client, ok } from '../../lib/client';
import { useAction } from '../../lib/queries';
import { usePermission } from '../../lib/session';
import { humanize, valueText } from '../../lib/format';
import { Badge, Button, Confidence, Empty } from '../../components/ui';
import type { DocumentRow, FieldPosition } from '../../lib/types';

/** Text picked on the page or in the Text tab for a field, with where it was picked. */
export interface FieldPick {
  name: string;
  text: string;
  position: FieldPosition;
  /** Changes with every pick (the same word picked twice fills twice). */
  seq: number;
}

/** What a page around the editor can do with it from its own shortcuts (the review queue's). */
export interface FieldsHandle {
  /** Focuses the field `by` places after the selected one (the first field waiting for a person when none is). */
  focus(by: number): void;
  /** Confirms every field as corrected, then calls `then`. */
  confirmAll(then?: () => void): void;
}

/**
 * Extracted fields with confidence and method; a person corrects a value or confirms it as is.
 * From the keyboard, in a field: ↓/↑ next or previous field, Enter accepts the field (as
 * corrected) and moves on, Esc undoes the correction, Ctrl+Enter confirms every field and calls
 * `onDone` (the next document). Text picked on the page (`pick`) fills the field it was picked for.
 */
export function FieldsEditor({
  doc,
  onSelect,
  selected,
  pick,
  onDone,
  onLeave,
  handle,
}: {
  doc: DocumentRow;
  /** A field was focused: its value's place is shown on the page. */
  onSelect?: (name: string) => void;
  selected?: string | null;
  pick?: FieldPick | null;
  onDone?: () => void;
  /** Esc in a field with nothing to undo: the page takes the keyboard back (its shortcuts apply). */
  onLeave?: () => void;
  handle?: MutableRefObject<FieldsHandle | null>;
}) {
  const fields = Object.entries(doc.fields ?? {});
  const perm = usePermission('member');
  const [edits, setEdits] = useState<Record<string, string>>({});
  // Where each picked correction was read, sent along so the value keeps its place on the page.
  const [picked, setPicked] = useState<Record<string, { text: string; position: FieldPosition }>>({});
  const table = useRef<HTMLTableElement>(null);
  const inputOf = (name: string) => table.current?.querySelector<HTMLInputElement>(`#${CSS.escape(`field-${name}`)}`);
  useEffect(() => {
    if (!pick || !perm.allowed || !doc.fields?.[pick.name]) return;
    setEdits((e) => ({ ...e, [pick.name]: pick.text }));
    setPicked((p) => ({ ...p, [pick.name]: { text: pick.text, position: pick.position } }));
    inputOf(pick.name)?.focus();
    // Only a new pick fills; re-renders of the same pick do not.
  }, [pick?.seq]);

  const [newName, setNewName] = useState('');
  const save = useAction(
    (body: Record<string, unknown>) =>
      ok(client.PATCH('/api/v1/documents/{id}', { params: { path: { id: doc.id } }, body: { fields: body } })),
    {
      invalidate: [`/documents/${doc.id}`, '/documents'],
      success: 'Fields saved and confirmed',
    },
  );
  const parse = (orig: unknown, text: string): unknown => {
    if (typeof orig === 'number' && text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
    if (orig !== null && typeof orig === 'object') {
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    }
    return text;
  };
  const changed = Object.keys(edits).filter((k) => edits[k] !== valueText(doc.fields?.[k]?.value));
  /** A field's value as it would be saved: with the place it was picked from, while unchanged since. */
  const bodyOf = (k: string, orig: unknown): unknown => {
    if (!(k in edits)) return orig;
    const value = parse(orig, edits[k]);
    const p = picked[k];
    return p && p.text === edits[k] ? { value, position: p.position } : value;
  };
  const confirmAll = (then?: () => void) =>
    send(Object.fromEntries(fields.map(([k, f]) => [k, bodyOf(k, f.value)])), () => {
      setEdits({});
      setPicked({});
      then?.();
    });
  // A key that saves, pressed while an earlier save is still on its way (Enter on one field, then
  // Enter on the next, or Ctrl+Enter), runs once that save has settled, in the order pressed,
  // instead of being lost. It runs from the render that shows the settled result, so Ctrl+Enter
  // confirms the values as they are then. A failed save said so in a toast; what was queued
  // behind it is dropped rather than saved on top of it.
  type Queued = { field: string; body: Record<string, unknown>; typed?: string } | { all: true; then?: () => void };
  const queued = useRef<Queued[]>([]);
  // A save is on its way from the moment `mutate` is called: `save.isPending` only says so from
  // the next render, and a second key pressed before it must queue too.
  const inFlight = useRef(false);
  const [, settled] = useReducer((n: number) => n + 1, 0);
  const busy = () => inFlight.current || save.isPending;
  useEffect(() => {
    if (busy() || !queued.current.length) return;
    if (save.isError) {
      queued.current = [];
      return;
    }
    run(queued.current.shift()!);
  });
  const send = (body: Record<string, unknown>, onSuccess: () => void) => {
    inFlight.current = true;
    save.mutate(body, {
      onSuccess,
      onSettled: () => {
        inFlight.current = false;
        settled(); // a render after the flag drops, for the queue above
      },
    });
  };
  const run = (q: Queued) => {
    if ('all' in q) {
      if (perm.allowed && fields.length) confirmAll(q.then);
      return;
    }
    send(q.body, () => {
      // What was typed into the field after Enter (while its save waited) stays.
      setEdits(({ [q.field]: now, ...rest }) => (now === q.typed ? rest : { ...rest, [q.field]: now }));
      setPicked(({ [q.field]: p, ...rest }) => (p && p.text !== q.typed ? { ...rest, [q.field]: p } : rest));
    });
  };
  const runOrQueue = (q: Queued) => {
    if (busy()) queued.current.push(q);
    else run(q);
  };
  const confirmOrQueue = (then?: () => void) => runOrQueue({ all: true, then });
  const names = fields.map(([k]) => k);
  const move = (from: string, by: number) => {
    const next = names[names.indexOf(from) + by];
    if (next !== undefined) inputOf(next)?.focus();
  };
  // Handed to the page after each render (and taken back on unmount: another document's
  // editor must not answer for this one).
  useEffect(() => {
    if (!handle) return;
    handle.current = {
      focus(by) {
        const at = selected ? names.indexOf(selected) : -1;
        const waiting = fields.find(([, f]) => !f.confirmed && f.method !== 'manual')?.[0] ?? names[0];
        const next = at < 0 ? waiting : names[Math.max(0, Math.min(names.length - 1, at + by))];
        if (next !== undefined) inputOf(next)?.focus();
      },
      confirmAll(then) {
        if (perm.allowed && fields.length) confirmOrQueue(then);
      },
    };
    return () => {
      handle.current = null;
    };
  });
  const onKey = (e: KeyboardEvent<HTMLInputElement>, name: string, orig: unknown) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(name, e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Escape' && name in edits) {
      e.preventDefault();
      setEdits(({ [name]: _dropped, ...rest }) => rest);
    } else if (e.key === 'Escape' && onLeave) {
      e.preventDefault();
      onLeave();
    } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      if (perm.allowed) confirmOrQueue(onDone);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (!perm.allowed) return;
      // Accept this field (as corrected, read now), then go on to the next one; other corrections stay.
      runOrQueue({ field: name, body: { [name]: bodyOf(name, orig) }, typed: edits[name] });
      move(name, 1);
    }
  };
  return (
    <div className="stack">
      {fields.length === 0 ? (
        <Empty>No fields were extracted.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="fields-table" ref={table}>
            <thead>
              <tr>
                <th>Field</th>
                <th>Value</th>
                <th>Confidence</th>
                <th>Method</th>
              </tr>
            </thead>
            <tbody>
              {fields.map(([name, f]) => {
                const id = `field-${name}`;
                return (
                  <tr key={name} className={selected === name ? 'selected' : undefined}>
                    <th scope="row">
                      <label htmlFor={id}>{humanize(name)}</label>
                    </th>
                    <td>
                      <input
                        id={id}
                        value={edits[name] ?? valueText(f.value)}
                        readOnly={!perm.allowed}
                        onFocus={() => onSelect?.(name)}
                        onKeyDown={(e) => onKey(e, name, f.value)}
                        aria-describedby="field-keys"
                        title={f.position ? 'Focus to see where it was read' : undefined}
                        onChange={(e) => setEdits({ ...edits, [name]: e.target.value })}
                      />
                    </td>
                    <td>
                      <Confidence value={f.confidence} />
                    </td>
                    <td className="small">
                      {f.confirmed || f.method === 'manual' ? (
                        <Badge tone="good">confirmed</Badge>
                      ) : name in picked && picked[name].text === edits[name] ? (
                        'picked on the page'
                      ) : (
                        f.method
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p className="small muted" id="field-keys">
        In a field: <kbd>↓</kbd>/<kbd>↑</kbd> next / previous · <kbd>Enter</kbd> accept and go on · <kbd>Esc</kbd> undo
        {onLeave ? ' (again: leave the field)' : ''} · <kbd>Ctrl</kbd>+<kbd>Enter</kbd> confirm all
        {onDone ? ' and open the next document' : ''}. Click a word on the page, or select text in the Text{' '}
        {onLeave ? 'view' : 'tab'}, to fill the selected field.
      </p>
      {perm.allowed ? (
        <div className="row">
          <Button variant="primary" busy={save.isPending} disabled={!fields.length} onClick={() => confirmAll()}>
            {changed.length
              ? `Save ${changed.length} correction${changed.length > 1 ? 's' : ''} and confirm`
              : 'Confirm all fields'}
          </Button>
          {changed.length ? <Button onClick={() => setEdits({})}>Discard changes</Button> : null}
          <span className="spacer" />
          <label htmlFor="new-field" className="sr-only">
            New field name
          </label>
          <input
            id="new-field"
            placeholder="add a field…"
            value={newName}
            onChange={(e) => setNewName(e.target.value.replace(/[^A-Za-z0-9_]/g, '_'))}
            size={14}
          />
          <Button
            disabled={!newName}
            onClick={() => save.mutate({ [newName]: '' }, { onSuccess: () => setNewName('') })}>
            Add
          </Button>
        </div>
      ) : (
        <p className="muted small">{perm.reason} Fields are read-only.</p>
      )}
    </div>
  );
}
