// The API's shapes as the pages use them: aliases of the schemas generated from the OpenAPI
// document (src/api/types.ts), so a change to a response fails the dashboard's typecheck.
import { allOf, type Data, type Item, type Operation, type Schemas, type Success } from './client';

export type Project = Schemas['Project'];
export type ProjectStats = Data<'/api/v1/projects/{id}/stats'>;
/** Where a value was read: a box on a page (PDF points or image pixels) or offsets into the text. */
export type FieldPosition = Schemas['FieldPosition'];
export type DocumentRow = Schemas['Document'];
export type FieldValue = NonNullable<DocumentRow['fields']>[string];
export type DocumentStatus = DocumentRow['status'];
export type Stage = DocumentRow['pipeline']['stages'][number];
export type ExportStatus = Item<'/api/v1/documents/{id}/exports'>;
export type Batch = Schemas['Batch'];
export type EventRow = Schemas['EventRecord'];
export type ApiKey = Schemas['ApiKey'] & { key?: string };
export type Template = Schemas['Template'];
export type TemplateTest = Success<Operation<'/api/v1/templates/test', 'post'>>['data'];
export type Webhook = Schemas['WebhookSubscription'] & { secret?: string; released_deliveries?: number };
export type Delivery = Schemas['WebhookDelivery'];
export type DeliveryDetail = Data<'/api/v1/webhooks/deliveries/{id}'>;
export type Attempt = DeliveryDetail['attempt_log'][number];
export type Mailbox = Schemas['Mailbox'];
export type MailboxTest = Success<Operation<'/api/v1/integrations/mailboxes/{id}/test', 'post'>>['data'];
export type MailMessage = Schemas['MailMessage'];
export type SheetsConnection = Schemas['SheetsConnection'];
export type SheetsExport = Schemas['SheetsExport'];
export type ConnectionTest = Success<Operation<'/api/v1/integrations/sheets/connections/{id}/test', 'post'>>['data'];

export const DOCUMENT_STATUSES = allOf<DocumentStatus>()([
  'uploaded',
  'processing',
  'processed',
  'classified',
  'extracted',
  'completed',
  'needs_review',
  'failed',
]);
export const STAGES = allOf<Stage>()(['parse', 'embed', 'classify', 'extract']);
export const SOURCES = allOf<DocumentRow['source']>()(['upload', 'email', 'api']);
export const DELIVERY_STATUSES = allOf<Delivery['status']>()(['pending', 'delivered', 'failed', 'suspended', 'gone']);
export const MESSAGE_STATUSES = allOf<MailMessage['status']>()(['processing', 'consumed', 'skipped', 'failed']);
/** The built-in classifier's types (an organization's own corrections can add more). */
export const KNOWN_TYPES = [
  'invoice',
  'receipt',
  'purchase_order',
  'bank_statement',
  'contract',
  'letter',
  'resume',
  'other',
];
/** The event types a webhook can subscribe to (all the platform sends but the test ping). */
export const EVENT_TYPES = allOf<Exclude<Schemas['Event']['type'], 'webhook.test'>>()([
  'document.uploaded',
  'document.processed',
  'document.classified',
  'document.extracted',
  'document.failed',
  'document.deleted',
  'workflow.started',
  'workflow.step_completed',
  'workflow.completed',
  'workflow.failed',
  'report.completed',
]);
