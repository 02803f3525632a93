import { useState } from 'react';
import { Button } from './ui';

/** A secret shown once, with a copy button; the dialog around it says it will not be shown again. */
export function CopySecret({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // Clipboard refused (permissions): select the text so Ctrl+C works.
      const el = document.getElementById('secret-value');
      if (el) window.getSelection()?.selectAllChildren(el);
    }
  };
  return (
    <div className="stack" style={{ gap: '0.4rem' }}>
      <div className="small muted" id="secret-label">
        {label}
      </div>
      <div className="secret">
        <code id="secret-value" aria-labelledby="secret-label" data-testid="secret-value">
          {value}
        </code>
        <Button variant="primary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <div role="status" className="small">
        {copied ? 'Copied to the clipboard.' : ''}
      </div>
    </div>
  );
}
