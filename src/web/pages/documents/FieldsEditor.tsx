import { useState } from 'react';
import { client, ok } from '../../lib/client';
import { useAction } from '../../lib/queries';
import { usePermission } from '../../lib/session';
import { humanize, valueText } from '../../lib/format';
import { Badge, Button, Confidence, Empty } from '../../components/ui';
import type { DocumentRow } from '../../lib/types';

/** Extracted fields with confidence and method; a person corrects a value or confirms it as is. */
export function FieldsEditor({
  doc,
  onSelect,
  selected,
}: {
  doc: DocumentRow;
  /** A field was focused: its value's place is shown on the page. */
  onSelect?: (name: string) => void;
  selected?: string | null;
}) {
  const fields = Object.entries(doc.fields ?? {});
  const perm = usePermission('member');
  const [edits, setEdits] = useState<Record<string, string>>({});
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
  const confirmAll = () =>
    save.mutate(Object.fromEntries(fields.map(([k, f]) => [k, k in edits ? parse(f.value, edits[k]) : f.value])), {
      onSuccess: () => setEdits({}),
    });
  return (
    <div className="stack">
      {fields.length === 0 ? (
        <Empty>No fields were extracted.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="fields-table">
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
                        title={f.position ? 'Focus to see where it was read' : undefined}
                        onChange={(e) => setEdits({ ...edits, [name]: e.target.value })}
                      />
                    </td>
                    <td>
                      <Confidence value={f.confidence} />
                    </td>
                    <td className="small">
                      {f.confirmed || f.method === 'manual' ? <Badge tone="good">confirmed</Badge> : f.method}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {perm.allowed ? (
        <div className="row">
          <Button variant="primary" busy={save.isPending} disabled={!fields.length} onClick={confirmAll}>
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
