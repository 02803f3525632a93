import { humanize } from '../lib/format';

/** A labelled horizontal bar list: light enough for any page (charts load on demand elsewhere). */
export function Bars({ data, label }: { data: Record<string, number>; label: string }) {
  const entries = Object.entries(data).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...entries.map(([, v]) => v));
  if (!entries.length) return <p className="muted small">Nothing yet.</p>;
  return (
    <table className="bars" aria-label={label}>
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{humanize(k)}</th>
            <td className="bar-cell">
              <span className="bar" style={{ width: `${(v / max) * 100}%` }} />
            </td>
            <td className="num">{v.toLocaleString()}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
