// Nodes that reach outside the service: export_sheets (through the Sheets export queue),
// http_request (SSRF-safe client, signed with the workflow's secret) and send_webhook_event
// (through the webhook delivery machinery). A dry run stops at the plan: the row, the request,
// the delivery it would make.
import type { Scope } from '../../../lib/scope.js';
import type { SafeResponse } from '../../../lib/http-client/index.js';
import { customEventTypeProblem } from '../../events/events.types.js';
import type { WorkflowExport } from '../../integrations/sheets/workflow-export.js';
import type { DirectDeliveries } from '../../webhooks/direct-delivery.js';
import { buildSignatureHeaders } from '../../webhooks/signature.js';
import { StepError, type NodeContext, type NodeExecutor } from './types.js';

export interface OutboundNodeDeps {
  sheets?: WorkflowExport;
  deliveries?: DirectDeliveries;
  http: {
    request(
      url: string,
      o: {
        method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
        headers: Record<string, string>;
        body: string;
        timeoutMs: number;
      },
    ): Promise<SafeResponse>;
  };
  /** The workflow's signing secret, in clear. */
  secretFor(scope: Scope, workflowId: string): Promise<string>;
  /** Why an outbound URL can never be used, or null. */
  checkUrl(url: string): string | null;
}

// Headers the service sets itself on a signed request; a node cannot override them.
const RESERVED = new Set([
  'content-type',
  'content-length',
  'x-service-signature',
  'x-service-event-id',
  'x-service-event-type',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'idempotency-key',
  'x-workflow-id',
  'x-workflow-run-id',
  'host',
]);
const MAX_BODY_CHARS = 1_000_000;

function jsonOrText(body: string, headers: Record<string, string>): unknown {
  if (/json/i.test(headers['content-type'] ?? '')) {
    try {
      return JSON.parse(body);
    } catch {
      /* kept as text */
    }
  }
  return body;
}

/** The request id of a step: the same for every attempt and every resume of the run. */
export const requestIdOf = (ctx: NodeContext) => `${ctx.run.id}.${ctx.node.id}`;

export const exportSheetsNode =
  (deps: OutboundNodeDeps): NodeExecutor =>
  async (ctx) => {
    if (!deps.sheets) throw new StepError('SHEETS_UNAVAILABLE', 'Sheets export is not configured in this installation');
    if (!ctx.document)
      throw new StepError(
        'NO_DOCUMENT',
        'export_sheets needs a document: start the run from a document trigger or pass input.document_id',
      );
    const exportId = ctx.node.config.export_id as string;
    const planned = await deps.sheets.plan(ctx.scope, exportId, ctx.document);
    if (!planned.ok) throw new StepError(planned.code, planned.message);
    const p = planned.plan;
    const output = {
      export_id: p.export.id,
      spreadsheet_id: p.export.spreadsheet_id,
      sheet_name: p.export.sheet_name,
      mode: p.export.mode,
      document_version: p.version,
      header: p.header,
      row: p.row,
    };
    if (ctx.dryRun) return { input: { export_id: exportId }, output: { ...output, would_append: true } };
    let outcome = '';
    return {
      input: { export_id: exportId },
      output,
      effects: {
        async db(q) {
          outcome = await deps.sheets!.queue(q, p);
        },
        async after() {
          if (outcome === 'queued' || outcome === 'requeued') await deps.sheets!.flush(p.export.id);
        },
      },
    };
  };

export const httpRequestNode =
  (deps: OutboundNodeDeps): NodeExecutor =>
  async (ctx) => {
    const c = ctx.node.config as {
      method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      url: string;
      headers?: Record<string, string>;
      body?: string;
      timeout_seconds?: number;
    };
    const method = c.method ?? 'POST';
    const names = Object.keys(c.headers ?? {});
    const rendered = await ctx.render([c.url, ...names.map((n) => c.headers![n])]);
    const url = rendered[0];
    const bad = deps.checkUrl(url);
    if (bad) throw new StepError('INVALID_URL', `url ${bad}`);
    const [bodyValue] = c.body ? await ctx.evaluate([c.body]) : [undefined];
    const body = bodyValue === undefined ? '' : JSON.stringify(bodyValue);
    if (body.length > MAX_BODY_CHARS)
      throw new StepError('BODY_TOO_LARGE', `the request body is larger than ${MAX_BODY_CHARS} characters`);
    const userHeaders: Record<string, string> = {};
    names.forEach((n, i) => {
      if (!RESERVED.has(n.toLowerCase())) userHeaders[n] = rendered[i + 1];
    });
    const requestId = requestIdOf(ctx);
    const request = {
      method,
      url,
      headers: userHeaders,
      body: bodyValue ?? null,
      request_id: requestId,
      timeout_seconds: c.timeout_seconds ?? 30,
    };
    if (ctx.dryRun) return { input: request, output: { would_send: request } };
    return {
      input: request,
      output: { request_id: requestId },
      effects: {
        async external() {
          const secret = await deps.secretFor(ctx.scope, ctx.run.workflow_id);
          // The request id doubles as the signature's message id and as Idempotency-Key: a
          // receiver sees the same id however often a crash makes the step send again.
          const signed = buildSignatureHeaders({
            rawBody: body,
            secrets: [secret],
            eventId: requestId,
            eventType: 'workflow.http_request',
          });
          const headers = {
            ...userHeaders,
            ...signed,
            'Idempotency-Key': requestId,
            'X-Workflow-Id': ctx.run.workflow_id,
            'X-Workflow-Run-Id': ctx.run.id,
          };
          const res = await deps.http.request(url, {
            method,
            headers,
            body,
            timeoutMs: (c.timeout_seconds ?? 30) * 1000,
          });
          const response = {
            status: res.status,
            headers: res.headers,
            body: jsonOrText(res.body, res.headers),
            truncated: res.truncated,
            duration_ms: res.durationMs,
          };
          const output = { request_id: requestId, response };
          if (res.error)
            return {
              output,
              error: {
                code: `HTTP_${res.error.code}`,
                message: res.error.message,
                retryable: res.error.code !== 'FORBIDDEN_ADDRESS' && res.error.code !== 'INVALID_URL',
              },
            };
          if (res.status < 200 || res.status >= 300) {
            return {
              output,
              error: {
                code: 'HTTP_STATUS',
                message: `the server answered ${res.status}`,
                retryable: res.status >= 500 || res.status === 429 || res.status === 408,
              },
            };
          }
          return { output };
        },
      },
    };
  };

export const sendWebhookEventNode =
  (deps: OutboundNodeDeps): NodeExecutor =>
  async (ctx) => {
    if (!deps.deliveries)
      throw new StepError('WEBHOOKS_UNAVAILABLE', 'webhook delivery is not configured in this installation');
    const c = ctx.node.config as { url: string; event?: string; payload?: string };
    const [url] = await ctx.render([c.url]);
    const bad = deps.deliveries.checkUrl(url);
    if (bad) throw new StepError('INVALID_URL', `url ${bad}`);
    const [value] = c.payload ? await ctx.evaluate([c.payload]) : [undefined];
    const base = {
      workflowId: ctx.run.workflow_id,
      runId: ctx.run.id,
      mode: ctx.run.mode,
      documentId: ctx.run.document_id,
    };
    const data =
      value === undefined
        ? base
        : value !== null && typeof value === 'object' && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : { value };
    const eventType = c.event ?? 'workflow.event';
    // Refused on save; checked again for a workflow saved before the rule existed.
    const forged = customEventTypeProblem(eventType);
    if (forged) throw new StepError('FORBIDDEN_EVENT_TYPE', `event ${forged}`);
    const input = { url, event: eventType, data };
    if (ctx.dryRun) return { input, output: { would_deliver: input } };
    let sent: Awaited<ReturnType<DirectDeliveries['enqueue']>> | undefined;
    const output: Record<string, unknown> = { url, event: eventType };
    return {
      input,
      output,
      effects: {
        async db(q) {
          sent = await deps.deliveries!.enqueue(q, {
            workflowId: ctx.run.workflow_id,
            url,
            eventType,
            data,
            source: { type: 'workflow', workflow_id: ctx.run.workflow_id, run_id: ctx.run.id, node_id: ctx.node.id },
          });
          output.delivery_id = sent.deliveryId;
          output.event_id = sent.eventId;
        },
        async after() {
          if (sent) await deps.deliveries!.dispatch(sent);
        },
      },
    };
  };
