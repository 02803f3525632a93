import { useEffect, useState } from 'react';
import { Button } from '../../components/ui';

/** A page shortcut: the key (as KeyboardEvent.key, lower case for letters) and what it does. */
export type KeyMap = Record<string, () => void>;

/** Focus is where a person types: their keys are theirs, not the page's. */
function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el?.closest?.('input, textarea, select, [contenteditable]:not([contenteditable="false"]), dialog');
}

/**
 * The review queue's page shortcuts: single keys without modifiers, ignored while the focus is
 * in a text box (where the field editor and the text view have keys of their own) or a dialog.
 * Enter is left to buttons and links, which it activates.
 */
export function usePageKeys(keys: KeyMap): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || typing(e.target)) return;
      const t = e.target as HTMLElement;
      if (e.key === 'Enter' && (t.tagName === 'BUTTON' || t.tagName === 'A')) return;
      const run = keys[e.key.length === 1 ? e.key.toLowerCase() : e.key] ?? keys[e.key];
      if (!run) return;
      e.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
}

const ROWS: Array<[keys: string[], what: string]> = [
  [['J', '↓'], 'next document'],
  [['K', '↑'], 'previous document'],
  [['F'], 'go to the fields (the first one waiting)'],
  [['N'], 'next field'],
  [['P'], 'previous field'],
  [['T'], 'text view: select text to correct the selected field'],
  [['O'], 'original view: click a word to fill the selected field'],
  [['A'], 'accept every field and open the next document'],
  [['Enter'], 'confirm the suggested type (documents waiting for a type)'],
  [['1–8'], 'choose a type'],
  [['?'], 'show or hide these keys'],
];

const IN_FIELD: Array<[keys: string[], what: string]> = [
  [['↓', '↑'], 'next / previous field'],
  [['Enter'], 'accept the field (as corrected) and go on'],
  [['Esc'], 'undo the correction; again: leave the field'],
  [['Ctrl', 'Enter'], 'accept every field and open the next document'],
];

function Keys({ keys }: { keys: string[] }) {
  return (
    <>
      {keys.map((k, i) => (
        <span key={k}>
          {i > 0 ? (keys[0] === 'Ctrl' ? '+' : ' / ') : null}
          <kbd>{k}</kbd>
        </span>
      ))}
    </>
  );
}

/** The legend under the header, and the full list of keys behind `?`. */
export function KeyHelp({ open, onToggle, types }: { open: boolean; onToggle: () => void; types?: boolean }) {
  return (
    <div className="key-help">
      <p className="small muted" id="review-keys">
        Keys: <kbd>J</kbd>/<kbd>K</kbd> next / previous document · <kbd>F</kbd> fields · <kbd>N</kbd>/<kbd>P</kbd> next
        / previous field · <kbd>T</kbd> select text to correct · <kbd>A</kbd> accept all and go on ·{' '}
        {types ? (
          <>
            <kbd>Enter</kbd> confirm the type · <kbd>1</kbd>–<kbd>8</kbd> choose one ·{' '}
          </>
        ) : null}
        <Button
          variant="ghost"
          className="btn-sm"
          aria-expanded={open}
          aria-controls="review-keys-all"
          onClick={onToggle}>
          <kbd>?</kbd> all keys
        </Button>
      </p>
      {open ? (
        <section id="review-keys-all" className="card key-table" aria-label="Keyboard shortcuts">
          <h2 className="small">On the page</h2>
          <dl>
            {ROWS.map(([k, what]) => (
              <div key={what}>
                <dt>
                  <Keys keys={k} />
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
          <h2 className="small">In a field</h2>
          <dl>
            {IN_FIELD.map(([k, what]) => (
              <div key={what}>
                <dt>
                  <Keys keys={k} />
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
          <p className="small muted">
            Keys do nothing while you type in a box. In the text view, <kbd>Shift</kbd>+arrows select and{' '}
            <kbd>Enter</kbd> fills the selected field.
          </p>
        </section>
      ) : null}
    </div>
  );
}

/** Whether the full key list shows; `?` toggles it. */
export function useHelpToggle(): [boolean, () => void] {
  const [open, setOpen] = useState(false);
  return [open, () => setOpen((o) => !o)];
}
