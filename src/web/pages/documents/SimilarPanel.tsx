import { useGet } from '../../lib/queries';
import { Link } from '../../lib/router';
import { Empty, ErrorBox, Spinner } from '../../components/ui';

export interface DuplicateOf {
  id: string;
  similarity: number;
  method: string;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The warning on a document that nearly repeats an earlier one (found at intake). */
export function DuplicateNotice({ dup }: { dup: DuplicateOf }) {
  const other = useGet('/api/v1/documents/{id}', { path: { id: dup.id } });
  return (
    <div className="warn-box" role="note" data-testid="duplicate-of">
      Possible duplicate of <Link to={`/documents/${dup.id}`}>{other.data?.filename ?? dup.id}</Link> (
      {pct(dup.similarity)} alike by text). Check it is not the same document received twice.
    </div>
  );
}

/** Nearest documents of the organization, by meaning (embeddings) or by text (MinHash). */
export function SimilarPanel({ id }: { id: string }) {
  const similar = useGet('/api/v1/documents/{id}/similar', { path: { id }, query: { limit: 5 } });
  if (similar.isPending) return <Spinner />;
  if (similar.error) return <ErrorBox error={similar.error} />;
  const { method, results } = similar.data;
  if (!results.length) return <Empty>No similar documents.</Empty>;
  return (
    <>
      <p className="muted small">{method === 'embedding' ? 'By meaning (embeddings)' : 'By shared text'}</p>
      <ul className="small similar-list">
        {results.map((r) => (
          <li key={r.document.id}>
            <Link to={`/documents/${r.document.id}`}>{r.document.filename}</Link>{' '}
            <span className="muted">{pct(r.similarity)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
