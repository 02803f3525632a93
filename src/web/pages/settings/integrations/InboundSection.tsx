import { CopyText } from '../../../components/CopyText';
import { Card } from '../../../components/ui';
import { Link } from '../../../lib/router';
import type { Project } from '../../../lib/types';

/** Each project's receiving address: mail sent there becomes its documents, no mailbox needed. */
export function InboundSection({ projects }: { projects: Project[] }) {
  const withAddress = projects.filter((p) => p.inbound_address);
  return (
    <Card title="Receiving addresses">
      {withAddress.length === 0 ? (
        <p className="small muted" style={{ margin: 0 }}>
          {projects.length === 0
            ? 'No projects yet.'
            : 'This server receives no mail directly: set INBOUND_DOMAIN and SMTP_PORT (see docs/email.md).'}
        </p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Receiving addresses">
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">Address</th>
                <th scope="col">Accepts mail from</th>
              </tr>
            </thead>
            <tbody>
              {withAddress.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link to={`/projects/${p.id}`}>{p.name}</Link>
                  </td>
                  <td>
                    <CopyText value={p.inbound_address!} label={`the address of ${p.name}`} />
                  </td>
                  <td className="small">
                    {p.inbound_allowed_senders.length ? p.inbound_allowed_senders.join(', ') : 'anyone'}
                    {p.inbound_authentication !== 'none' ? ` · ${p.inbound_authentication.toUpperCase()} required` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
