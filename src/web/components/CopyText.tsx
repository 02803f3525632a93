import { useId, useState } from 'react';
import { Button } from './ui';

/** A value to paste elsewhere (an address), with a copy button; selects the text when the clipboard is refused. */
export function CopyText({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      const el = document.getElementById(id);
      if (el) window.getSelection()?.selectAllChildren(el);
    }
  };
  return (
    <span className="row" style={{ gap: '0.5rem', alignItems: 'center', flexWrap: 'wrap' }}>
      <code id={id} data-testid="copy-text">
        {value}
      </code>
      <Button onClick={() => void copy()} aria-label={`Copy ${label}`}>
        {copied ? 'Copied' : 'Copy'}
      </Button>
      <span role="status" className="small muted">
        {copied ? 'Copied to the clipboard.' : ''}
      </span>
    </span>
  );
}
