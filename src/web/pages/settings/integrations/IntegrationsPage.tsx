import { useState } from 'react';
import { useGetPage } from '../../../lib/queries';
import { usePermission } from '../../../lib/session';
import { Link } from '../../../lib/router';
import { Card, PageHeader, RoleButton } from '../../../components/ui';
import { CreateKeyFlow } from '../ApiKeysPage';
import { InboundSection } from './InboundSection';
import { MailboxesSection } from './MailboxesSection';
import { SheetsSection } from './SheetsSection';

/** Programs integrate through API keys too: the card points at them (Settings → API keys lists them). */
function ApiKeysCard() {
  const keys = useGetPage('/api/v1/api-keys', { query: { limit: 100 } });
  const [creating, setCreating] = useState(false);
  const n = keys.data?.data.filter((k) => k.is_active).length;
  return (
    <Card
      title="API keys"
      actions={
        <RoleButton need="admin" variant="primary" onClick={() => setCreating(true)}>
          Create API key
        </RoleButton>
      }>
      <p className="small">
        Scripts, the <code>npx docpipe</code> CLI and other services call the API with a key.{' '}
        {n === undefined ? null : `${n} active ${n === 1 ? 'key' : 'keys'} in this mode. `}
        <Link to="/settings/api-keys">Manage API keys</Link>
      </p>
      {creating ? <CreateKeyFlow onClose={() => setCreating(false)} /> : null}
    </Card>
  );
}

export function IntegrationsPage() {
  const perm = usePermission('admin');
  const projects = useGetPage('/api/v1/projects', { query: { limit: 100, sort: 'name', order: 'asc' } });
  const list = projects.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Integrations"
        subtitle="Documents in by e-mail; extracted data out to Google Sheets; API keys for programs."
      />
      {!perm.allowed ? (
        <div className="info-box">{perm.reason} Integrations are managed by admins.</div>
      ) : (
        <div className="stack">
          <ApiKeysCard />
          <InboundSection projects={list} />
          <MailboxesSection projects={list} />
          <SheetsSection projects={list} />
        </div>
      )}
    </>
  );
}
