import { Field } from '../../components/ui';
import type { Project } from '../../lib/types';

export const AUTH_LABELS: Record<Project['inbound_authentication'], string> = {
  none: 'No sender authentication',
  spf: 'SPF (the sending server is listed by the envelope domain)',
  dkim: 'DKIM (a valid signature)',
  dmarc: 'DMARC (SPF or DKIM aligned with the From domain)',
};

export interface InboundState {
  senders: string;
  authentication: Project['inbound_authentication'];
  consume: Project['inbound_consume'];
}

export function inboundState(p?: Project): InboundState {
  return {
    senders: (p?.inbound_allowed_senders ?? []).join('\n'),
    authentication: p?.inbound_authentication ?? 'none',
    consume: p?.inbound_consume ?? 'attachments',
  };
}

export function inboundBody(s: InboundState) {
  return {
    inbound_allowed_senders: s.senders
      .split(/[\n,]/)
      .map((x) => x.trim())
      .filter(Boolean),
    inbound_authentication: s.authentication,
    inbound_consume: s.consume,
  };
}

/** The inbound-mail settings of a project, in the create form and the edit dialog. */
export function InboundFields({
  value,
  onChange,
  idPrefix,
  errors = {},
}: {
  value: InboundState;
  onChange(v: InboundState): void;
  idPrefix: string;
  errors?: Record<string, string>;
}) {
  return (
    <fieldset className="stack" style={{ border: 'none', padding: 0, margin: 0 }}>
      <legend className="small muted">Mail to the project’s receiving address</legend>
      <Field
        label="Allowed senders"
        htmlFor={`${idPrefix}-senders`}
        hint="One per line: an address (ap@acme.example) or a whole domain (@acme.example). Empty: anyone."
        error={errors.inbound_allowed_senders}>
        <textarea
          id={`${idPrefix}-senders`}
          rows={3}
          value={value.senders}
          onChange={(e) => onChange({ ...value, senders: e.target.value })}
        />
      </Field>
      {/* Full width: the choices are sentences (cut off in a half-width select). */}
      <Field label="Sender authentication" htmlFor={`${idPrefix}-auth`}>
        <select
          id={`${idPrefix}-auth`}
          value={value.authentication}
          onChange={(e) => onChange({ ...value, authentication: e.target.value as InboundState['authentication'] })}>
          {Object.entries(AUTH_LABELS).map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Documents from" htmlFor={`${idPrefix}-consume`}>
        <select
          id={`${idPrefix}-consume`}
          value={value.consume}
          onChange={(e) => onChange({ ...value, consume: e.target.value as InboundState['consume'] })}>
          <option value="attachments">The attachments</option>
          <option value="eml">The message (.eml)</option>
          <option value="both">Both</option>
        </select>
      </Field>
    </fieldset>
  );
}
