import { useState } from 'react';
import { client, ok } from '../../lib/client';
import { useAction } from '../../lib/queries';
import { humanize } from '../../lib/format';
import { Badge, Confidence, RoleButton } from '../../components/ui';
import type { DocumentRow } from '../../lib/types';
import { KNOWN_TYPES } from '../../lib/types';

export function useConfirmType(doc: Pick<DocumentRow, 'id'>) {
  const patch = (type: string) =>
    ok(
      client.PATCH('/api/v1/documents/{id}', { params: { path: { id: doc.id } }, body: { classification: { type } } }),
    );
  return useAction(patch, {
    invalidate: ['/documents'],
    success: (d) => `Type confirmed: ${humanize(d.classification?.type ?? '')}`,
  });
}

export function Classification({ doc, threshold }: { doc: DocumentRow; threshold?: number }) {
  const c = doc.classification;
  const [type, setType] = useState(c?.type ?? '');
  const confirm = useConfirmType(doc);
  return (
    <div className="stack" style={{ gap: '0.6rem' }}>
      {c ? (
        <div className="row">
          <strong style={{ fontSize: '1.2rem' }}>{humanize(c.type)}</strong>
          <Confidence value={c.confidence} threshold={threshold} />
          <span className="muted small">by {c.method}</span>
          {c.confirmed ? <Badge tone="good">confirmed</Badge> : null}
        </div>
      ) : (
        <p className="muted">Not classified yet.</p>
      )}
      <div className="row">
        <label htmlFor="type-input" className="small">
          Type
        </label>
        <input id="type-input" list="doc-types" value={type} onChange={(e) => setType(e.target.value)} size={16} />
        <datalist id="doc-types">
          {KNOWN_TYPES.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <RoleButton
          need="member"
          variant="primary"
          busy={confirm.isPending}
          disabled={!type.trim()}
          onClick={() => confirm.mutate(type.trim())}>
          {c && type === c.type ? 'Confirm type' : 'Set and confirm type'}
        </RoleButton>
      </div>
    </div>
  );
}
