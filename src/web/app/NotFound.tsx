import { Link } from '../lib/router';
import { PageHeader } from '../components/ui';

export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" subtitle="There is nothing at this address." />
      <p>
        <Link to="/">Go to the overview</Link>
      </p>
    </>
  );
}
