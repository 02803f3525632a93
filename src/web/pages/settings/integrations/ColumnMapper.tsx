import { useState, type DragEvent } from 'react';
import { Button } from '../../../components/ui';

export interface Column {
  header: string;
  field: string;
}

/** Field paths the export understands; a document's own extracted fields are added to these. */
export const BASE_FIELDS = [
  'document.id',
  'document.filename',
  'document.created_at',
  'document.source',
  'document.status',
  'document.page_count',
  'classification.type',
  'classification.confidence',
];

const headerFor = (field: string) =>
  field
    .split('.')
    .slice(-1)[0]
    .replace(/_/g, ' ')
    .replace(/^\w/, (c) => c.toUpperCase());

/**
 * Columns of the sheet, in order: add a field by dragging it from the list or picking it, reorder by
 * dragging a column or with its arrow buttons (the keyboard way), rename headers.
 */
export function ColumnMapper({
  columns,
  onChange,
  fields,
}: {
  columns: Column[];
  onChange(c: Column[]): void;
  fields: string[];
}) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [pick, setPick] = useState('');
  const add = (field: string) => onChange([...columns, { header: headerFor(field), field }]);
  const move = (from: number, to: number) => {
    if (to < 0 || to >= columns.length) return;
    const next = [...columns];
    const [c] = next.splice(from, 1);
    next.splice(to, 0, c);
    onChange(next);
  };
  const onDrop = (e: DragEvent, at: number) => {
    e.preventDefault();
    const field = e.dataTransfer.getData('text/x-docpipe-field');
    if (field) {
      const next = [...columns];
      next.splice(at, 0, { header: headerFor(field), field });
      onChange(next);
    } else if (dragging !== null) move(dragging, at);
    setDragging(null);
  };
  const unused = fields.filter((f) => !columns.some((c) => c.field === f));
  return (
    <div className="mapper">
      <div>
        <h3 className="small">Fields</h3>
        <ul className="chips" aria-label="Available fields">
          {unused.map((f) => (
            <li key={f}>
              <button
                type="button"
                className="chip"
                draggable
                onDragStart={(e) => e.dataTransfer.setData('text/x-docpipe-field', f)}
                onClick={() => add(f)}
                title="Drag onto the columns, or click to add at the end">
                {f}
              </button>
            </li>
          ))}
        </ul>
        <div className="row">
          <label htmlFor="map-custom" className="sr-only">
            Field path
          </label>
          <input
            id="map-custom"
            list="map-fields"
            placeholder="fields.total"
            value={pick}
            onChange={(e) => setPick(e.target.value)}
            size={18}
          />
          <datalist id="map-fields">
            {fields.map((f) => (
              <option key={f} value={f} />
            ))}
          </datalist>
          <Button
            className="btn-sm"
            disabled={!/^(document|classification|fields)\.[A-Za-z0-9_.-]+$/.test(pick)}
            onClick={() => {
              add(pick);
              setPick('');
            }}>
            Add column
          </Button>
        </div>
      </div>
      <div>
        <h3 className="small">Columns of the sheet</h3>
        <ol
          className="columns"
          aria-label="Columns"
          onDragOver={(e) => e.preventDefault()}
          onDrop={(e) => onDrop(e, columns.length)}>
          {columns.map((c, i) => (
            <li
              key={`${c.field}-${i}`}
              draggable
              onDragStart={() => setDragging(i)}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => {
                e.stopPropagation();
                onDrop(e, i);
              }}
              className={dragging === i ? 'dragging' : undefined}>
              <span className="grip" aria-hidden="true">
                ⋮⋮
              </span>
              <label className="sr-only" htmlFor={`col-h-${i}`}>
                Header of column {i + 1}
              </label>
              <input
                id={`col-h-${i}`}
                value={c.header}
                onChange={(e) => onChange(columns.map((x, j) => (j === i ? { ...x, header: e.target.value } : x)))}
                size={12}
              />
              <code className="small" title={c.field}>
                {c.field}
              </code>
              <button
                type="button"
                className="icon-btn"
                aria-label={`Move ${c.header} up`}
                disabled={i === 0}
                onClick={() => move(i, i - 1)}>
                ↑
              </button>
              <button
                type="button"
                className="icon-btn"
                aria-label={`Move ${c.header} down`}
                disabled={i === columns.length - 1}
                onClick={() => move(i, i + 1)}>
                ↓
              </button>
              <button
                type="button"
                className="icon-btn"
                aria-label={`Remove ${c.header}`}
                onClick={() => onChange(columns.filter((_, j) => j !== i))}>
                ×
              </button>
            </li>
          ))}
          {!columns.length ? <li className="muted small">Drop fields here.</li> : null}
        </ol>
      </div>
    </div>
  );
}
