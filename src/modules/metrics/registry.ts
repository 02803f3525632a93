// The process's Prometheus metrics: one registry per container, the metric objects the HTTP
// layer and the workers record into, and collectors that read state (queues, mail pollers) only
// when scraped. Recording is kept cheap on purpose: the HTTP hook observes a pre-bound histogram
// child, the workers increment pre-declared counters; nothing is computed per request.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Seconds; spans a fast JSON answer to a slow upload. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds; spans a text extraction to a long OCR'd PDF. */
const STAGE_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180];

/** A mail poller's per-mailbox view (see MailPoller.stats). */
export interface MailPollerView {
  stats(): Record<string, { online: boolean; lastPollAt: number | null }>;
}

export interface Metrics {
  readonly registry: Registry;
  /** `docpipe_http_request_duration_seconds{method,route,status_code}`; `_count` is the request count. */
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** `docpipe_stage_duration_seconds{stage,outcome}`: one stage job, start to finish. */
  readonly stageDuration: Histogram<'stage' | 'outcome'>;
  /** `docpipe_stage_failures_total{stage,code}`: failed stage attempts by error code (TRANSIENT: retried). */
  readonly stageFailures: Counter<'stage' | 'code'>;
  /** `docpipe_stage_jobs_active{stage}`: stage jobs this process is running now. */
  readonly stageActive: Gauge<'stage'>;
  /** `docpipe_webhook_deliveries_total{outcome}`: delivery jobs by what they ended in. */
  readonly webhookDeliveries: Counter<'outcome'>;
  /** `docpipe_sheets_rows_written_total`: rows appended or updated in Google Sheets. */
  readonly sheetsRows: Counter;
  /** Reports this process's mail pollers at each scrape; returns the undo. */
  trackMailPoller(poller: MailPollerView): () => void;
  /** Prometheus text of every metric. */
  scrape(): Promise<string>;
  readonly contentType: string;
}

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  // Memory, CPU, handles, GC and event-loop lag (nodejs_eventloop_lag_*), with their standard names.
  if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const pollers = new Set<MailPollerView>();
  new Gauge({
    name: 'docpipe_mail_mailbox_connected',
    help: 'IMAP connection of a mailbox this process holds the lease of: 1 connected, 0 connecting or failing',
    labelNames: ['mailbox_id'],
    registers,
    collect() {
      this.reset();
      for (const p of pollers)
        for (const [id, s] of Object.entries(p.stats())) this.set({ mailbox_id: id }, s.online ? 1 : 0);
    },
  });
  new Gauge({
    name: 'docpipe_mail_mailbox_leased',
    help: 'Mailboxes whose lease this process holds (1 per mailbox); summed over processes, each mailbox appears once',
    labelNames: ['mailbox_id'],
    registers,
    collect() {
      this.reset();
      for (const p of pollers) for (const id of Object.keys(p.stats())) this.set({ mailbox_id: id }, 1);
    },
  });
  new Gauge({
    name: 'docpipe_mail_last_poll_timestamp_seconds',
    help: 'When this process last finished looking through a mailbox (Unix time)',
    labelNames: ['mailbox_id'],
    registers,
    collect() {
      this.reset();
      for (const p of pollers) {
        for (const [id, s] of Object.entries(p.stats()))
          if (s.lastPollAt !== null) this.set({ mailbox_id: id }, s.lastPollAt / 1000);
      }
    },
  });

  return {
    registry,
    httpDuration: new Histogram({
      name: 'docpipe_http_request_duration_seconds',
      help: 'HTTP requests by route pattern and status, with their latency',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    stageDuration: new Histogram({
      name: 'docpipe_stage_duration_seconds',
      help: 'Pipeline stage jobs by stage and outcome (done, skipped, failed), with their run time',
      labelNames: ['stage', 'outcome'],
      buckets: STAGE_BUCKETS,
      registers,
    }),
    stageActive: new Gauge({
      name: 'docpipe_stage_jobs_active',
      help: 'Pipeline stage jobs this process is running now',
      labelNames: ['stage'],
      registers,
    }),
    stageFailures: new Counter({
      name: 'docpipe_stage_failures_total',
      help: 'Failed pipeline stage attempts by error code (TRANSIENT: retried by the queue)',
      labelNames: ['stage', 'code'],
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'docpipe_webhook_deliveries_total',
      help: 'Webhook delivery jobs by outcome (delivered, retry, failed, gone, deferred, stale, …)',
      labelNames: ['outcome'],
      registers,
    }),
    sheetsRows: new Counter({
      name: 'docpipe_sheets_rows_written_total',
      help: 'Rows written to Google Sheets exports',
      registers,
    }),
    trackMailPoller(poller) {
      pollers.add(poller);
      return () => {
        pollers.delete(poller);
      };
    },
    scrape: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
