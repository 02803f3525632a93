import { useGetPage } from '../../../lib/queries';
import { usePermission } from '../../../lib/session';
import { PageHeader } from '../../../components/ui';
import { InboundSection } from './InboundSection';
import { MailboxesSection } from './MailboxesSection';
import { SheetsSection } from './SheetsSection';

export function IntegrationsPage() {
  const perm = usePermission('admin');
  const projects = useGetPage('/api/v1/projects', { query: { limit: 100, sort: 'name', order: 'asc' } });
  const list = projects.data?.data ?? [];
  return (
    <>
      <PageHeader title="Integrations" subtitle="Documents in by e-mail; extracted data out to Google Sheets." />
      {!perm.allowed ? (
        <div className="info-box">{perm.reason} Integrations are managed by admins.</div>
      ) : (
        <div className="stack">
          <InboundSection projects={list} />
          <MailboxesSection projects={list} />
          <SheetsSection projects={list} />
        </div>
      )}
    </>
  );
}
