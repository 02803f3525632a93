import type { MutableRefObject } from 'react';
import { useGet } from '../../lib/queries';
import { Empty, ErrorBox, Spinner } from '../../components/ui';
import type { FieldPosition } from '../../lib/types';

/**
 * The document's extracted text in a text box that refuses edits, so that text can be selected
 * from the keyboard (a caret moves in it; Shift+arrows select) as well as with the mouse. A selection
 * fills the selected field: on mouse-up, or on Enter from the keyboard (Shift+arrow presses alone
 * only grow the selection). Esc hands the keyboard back to the field. The offsets are those of
 * GET /documents/{id}/text, which the field keeps as its position.
 */
export function ReviewText({
  id,
  span,
  field,
  onPick,
  onLeave,
  boxRef,
  takeFocus,
}: {
  id: string;
  /** The selected field's place in the text, selected when the box gets the focus. */
  span?: { start: number; end: number } | null;
  /** The selected field's label (for the box's description), null when none is selected. */
  field: string | null;
  onPick?: (text: string, position: FieldPosition) => void;
  onLeave?: () => void;
  boxRef?: MutableRefObject<HTMLTextAreaElement | null>;
  /** Set when the box should take the focus once it is shown (its text may still be loading). */
  takeFocus?: MutableRefObject<boolean>;
}) {
  const text = useGet('/api/v1/documents/{id}/text', { path: { id } });
  if (text.isPending) return <Spinner />;
  if (text.error) return <ErrorBox error={text.error} />;
  const t = text.data.text;
  if (!t) return <Empty>No text (yet).</Empty>;
  const pick = (el: HTMLTextAreaElement) => {
    const raw = t.slice(el.selectionStart, el.selectionEnd);
    const lead = raw.length - raw.trimStart().length;
    const picked = raw.trim();
    if (!picked || !onPick) return false;
    const start = el.selectionStart + lead;
    onPick(picked, { start, end: start + picked.length });
    return true;
  };
  return (
    <div className="stack" style={{ gap: '0.4rem' }}>
      <textarea
        ref={(el) => {
          if (boxRef) boxRef.current = el;
          if (el && takeFocus?.current) {
            takeFocus.current = false;
            el.focus();
          }
        }}
        className="review-text"
        // Not \`readOnly\`: Chromium gives a read-only box no caret, so the keyboard could not
        // select in it. Every edit is refused instead, and it is announced as read-only.
        aria-readonly="true"
        value={t}
        onChange={() => undefined}
        onBeforeInput={(e) => e.preventDefault()}
        onPaste={(e) => e.preventDefault()}
        onCut={(e) => e.preventDefault()}
        onDrop={(e) => e.preventDefault()}
        rows={18}
        wrap="off"
        spellCheck={false}
        aria-label="Extracted text"
        aria-describedby="review-text-help"
        data-testid="review-text"
        onFocus={(e) => {
          // Shows where the selected field was read (when it was read from this text).
          const el = e.currentTarget;
          if (span && span.end <= t.length && el.selectionStart === el.selectionEnd)
            el.setSelectionRange(span.start, span.end);
        }}
        onMouseUp={(e) => {
          if (e.currentTarget.selectionStart !== e.currentTarget.selectionEnd) pick(e.currentTarget);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) {
            e.preventDefault();
            pick(e.currentTarget);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            onLeave?.();
          }
        }}
      />
      <p className="small muted" id="review-text-help">
        {field ? (
          <>
            Select text (<kbd>Shift</kbd>+arrows, or the mouse), then <kbd>Enter</kbd> to fill <strong>{field}</strong>{' '}
            · <kbd>Esc</kbd> back to the field
          </>
        ) : (
          <>
            Choose a field first (<kbd>F</kbd>), then select text here to fill it.
          </>
        )}
      </p>
    </div>
  );
}
