import type { MailboxTest } from '../../../lib/types';

const STAGES: { id: string; label: string }[] = [
  { id: 'dns', label: 'Find the server' },
  { id: 'blocked', label: 'Address allowed' },
  { id: 'connect', label: 'Connect' },
  { id: 'tls', label: 'Secure the connection' },
  { id: 'auth', label: 'Log in' },
  { id: 'folder', label: 'Open the folder' },
];

/** The connection test, stage by stage: what passed, where it stopped and why. */
export function MailboxTestResult({ result, security }: { result: MailboxTest; security: string }) {
  const failedAt = result.ok ? -1 : STAGES.findIndex((s) => s.id === result.stage);
  return (
    <ol className="stages" aria-label="Connection test" data-testid="mailbox-test">
      {STAGES.filter((s) => s.id !== 'tls' || security !== 'none').map((s) => {
        const i = STAGES.indexOf(s);
        const state = result.ok || i < failedAt ? 'ok' : i === failedAt ? 'failed' : 'skipped';
        return (
          <li key={s.id} className={`stage stage-${state}`}>
            <span aria-hidden="true">{state === 'ok' ? '✓' : state === 'failed' ? '✗' : '–'}</span> {s.label}
            <span className="sr-only">
              : {state === 'ok' ? 'passed' : state === 'failed' ? 'failed' : 'not reached'}
            </span>
            {state === 'failed' && !result.ok ? <div className="field-error small">{result.message}</div> : null}
            {s.id === 'folder' && result.ok ? (
              <span className="small muted">
                {' '}
                — {result.folder}: {result.messages} messages, {result.unseen} unread
              </span>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
