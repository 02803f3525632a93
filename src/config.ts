import { z } from 'zod';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PLANS } from './lib/plans.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const list = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

/** The seed retry schedule of webhook deliveries: 1 min, 5 min, 30 min, 2 h, 12 h. */
const DEFAULT_RETRY_DELAYS = '60,300,1800,7200,43200';
/** Longest single retry delay accepted: 7 days. */
const MAX_RETRY_DELAY_SEC = 7 * 24 * 3600;
const MAX_RETRIES = 50;
const DELAY_NUMBER = /^\d+(\.\d+)?$|^\.\d+$/;

/**
 * Parses a comma-separated list of delays in **seconds** (fractions allowed, e.g. `0.05,0.1` for
 * tests) and returns them in **milliseconds**, rounded to whole ms. Empty/undefined gives the
 * seed schedule. The number of entries is the number of retries. Throws on malformed input.
 */
export function parseRetryDelays(spec?: string): number[] {
  const parts = (spec === undefined || spec.trim() === '' ? DEFAULT_RETRY_DELAYS : spec)
    .split(',')
    .map((p) => p.trim());
  if (parts.length > MAX_RETRIES) {
    throw new Error(`retry delays: at most ${MAX_RETRIES} entries allowed, got ${parts.length}`);
  }
  return parts.map((p, i) => {
    if (!DELAY_NUMBER.test(p)) {
      throw new Error(
        `retry delays: entry ${i + 1} ("${p}") is not a non-negative number of seconds; expected e.g. "60,300,1800"`,
      );
    }
    const sec = Number(p);
    if (sec > MAX_RETRY_DELAY_SEC) {
      throw new Error(`retry delays: entry ${i + 1} (${p} s) exceeds the maximum of ${MAX_RETRY_DELAY_SEC} s`);
    }
    return Math.round(sec * 1000);
  });
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(0, 65535).default(8000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** Most PostgreSQL connections one process opens (opened on demand, kept while busy). */
  DATABASE_POOL_SIZE: int(1, 200).default(10),
  /** Named prepared statements; `false` behind a pooler that cannot keep them (see docs/operations.md, PgBouncer). */
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  REDIS_URL: z
    .string()
    // Single server, Sentinel list, or cluster seed list (parsed in lib/redis.ts).
    .regex(
      /^rediss?(\+sentinel|\+cluster)?:\/\//,
      'must be a redis://, rediss://, redis+sentinel:// or redis+cluster:// URL',
    )
    .optional(),
  /** Namespace for every Redis key and BullMQ queue; lets several installs share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('docpipe'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: human-readable lines when stdout is a terminal, JSON lines otherwise (files, collectors). */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  TRUST_PROXY: z.string().optional(),
  BOOTSTRAP_ADMIN_EMAIL: z.string().email().optional(),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  BOOTSTRAP_ORG_NAME: z.string().min(1).optional(),
  /** The plan of the organization that first-run setup or BOOTSTRAP_* creates (self_hosted: no per-minute cap). */
  DEFAULT_PLAN: z.enum(PLANS).default('self_hosted'),
  /** Kept for older installs; DEFAULT_PLAN when unset. */
  BOOTSTRAP_PLAN: z.enum(PLANS).optional(),
  ENTERPRISE_RATE_LIMIT_PER_MINUTE: int(1).default(1000),
  /** Unknown or dead credentials one client IP may present per minute (each costs database reads). */
  FAILED_AUTH_PER_IP_PER_MINUTE: int(1).default(30),
  /** Requests per minute per person signed in to the dashboard (instead of the plan's limit). */
  DASHBOARD_RATE_LIMIT_PER_MINUTE: int(1).default(600),
  MAX_UPLOAD_MB: int(1, 10_000).default(50),
  MAX_PAGES: int(1, 1_000_000).default(500),
  /**
   * Memory one parser process may use (pdf.js and the DOCX/e-mail/HTML/CSV/JSON/text
   * converters run in two of them per worker), ArrayBuffers included; past it the document
   * fails with TOO_LARGE and the process is replaced.
   */
  PARSE_MAX_MEMORY_MB: int(256, 65_536).default(1024),
  /** Bytes a DOCX's parts may inflate to, counted while inflating (sizes the file declares are not trusted). */
  PARSE_MAX_INFLATED_MB: int(1, 4096).default(64),
  /** Images declaring more pixels fail with TOO_LARGE before OCR decodes them. */
  OCR_MAX_MEGAPIXELS: int(1, 1000).default(50),
  WORKER_CONCURRENCY: int(1, 64).default(2),
  /**
   * A stage job that committed goes on with the document's next stage in the same process when
   * that process serves it and has a free slot (each stage still commits with its own event).
   * false: every stage is its own queued job (the behaviour before 2026-11-28; for comparing).
   */
  PIPELINE_CONTINUE: bool.default(true),
  /**
   * Longest a process serves a project list page from its cache. Pages are dropped at once when
   * any process changes a project (a Redis version counter); this only bounds staleness should
   * that signal be lost. 0 turns the cache off.
   */
  PROJECT_LIST_CACHE_SECONDS: int(0, 3600).default(30),
  EMBEDDING_MODEL: z.string().min(1).default('Xenova/all-MiniLM-L6-v2'),
  EMBEDDING_MODEL_DIR: z.string().optional(),
  /**
   * ONNX Runtime threads per embedding call. One keeps a busy worker from paying for thread-pool
   * spin-waits (measured: ~18 ms of CPU per document on 2 cores with the runtime's default);
   * raise it for large documents on many cores.
   */
  EMBEDDING_THREADS: int(1, 64).default(1),
  ALLOW_MODEL_DOWNLOAD: bool.default(true),
  /** Where the built-in classifier trained from samples/ is cached (default DATA_DIR/models). */
  CLASSIFIER_CACHE_DIR: z.string().optional(),
  /**
   * Blend a nearest-neighbour vote over the embeddings of confirmed documents into classification
   * when an embedding model is loaded. Turn it off for a model whose vectors carry no meaning
   * (the tests' random-weight model).
   */
  CLASSIFY_KNN: bool.default(true),
  /** Documents a reprocess batch's walker queues per transaction. */
  REPROCESS_PAGE_SIZE: int(1, 10_000).default(500),
  /** Back-pressure: at most this many documents of one batch queued and not yet finished. */
  REPROCESS_MAX_IN_FLIGHT: int(1, 1_000_000).default(5_000),
  /** Seconds after each failed attempt (fractions allowed), comma-separated; parsed to milliseconds. One retry per entry. */
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .default(DEFAULT_RETRY_DELAYS)
    .transform((spec, ctx) => {
      try {
        return parseRetryDelays(spec);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  WEBHOOK_TIMEOUT_MS: int(100, 120_000).default(10_000),
  WEBHOOK_CONNECT_TIMEOUT_MS: int(50, 120_000).default(3_000),
  WEBHOOK_ALLOWED_HOSTS: list.default([]),
  /** Hosts/IPs/CIDRs a workflow's http_request may reach although private or loopback; separate from webhooks'. */
  WORKFLOW_ALLOWED_HOSTS: list.default([]),
  MAIL_ALLOWED_HOSTS: list.default([]),
  /** Workflow runs one organization may have running at once (others wait for a slot). */
  WORKFLOW_MAX_RUNNING_PER_ORG: int(1, 10_000).default(20),
  /** Active scheduled workflows one organization may have (per environment). */
  WORKFLOW_MAX_ACTIVE_SCHEDULES: int(0, 10_000).default(50),
  /** Expression time one workflow run may use in all, ms; past it the run fails. */
  WORKFLOW_EXPRESSION_BUDGET_MS: int(100, 3_600_000).default(10_000),
  /** Organizations whose admins may pause, resume and retry the shared queues; empty: the only organization of a one-organization install. */
  PIPELINE_OPERATOR_ORGS: list.default([]),
  /** Unset: files in DATA_DIR/files. `s3://bucket/prefix`: an S3-compatible bucket (S3_* below). */
  BLOB_STORE_URL: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'must be s3://bucket/prefix (lower-case bucket name)')
    .optional(),
  /** An S3-compatible server's URL (MinIO, Ceph, R2, …); unset for AWS itself. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Bucket in the path (`endpoint/bucket/key`) instead of the host name; most self-hosted servers need it. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Both or neither; neither = the AWS SDK's own chain (AWS_* variables, profile, instance role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /**
   * Bearer token for GET /metrics. With it (and no METRICS_PORT) the API port serves /metrics to
   * that token only; with METRICS_PORT the separate listener requires it too. Neither set: no metrics.
   */
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .regex(/^\S+$/, 'must not contain spaces')
    .optional(),
  /** A separate listener serving only GET /metrics (workers too; one port per process). */
  METRICS_PORT: int(1, 65535).optional(),
  /** Address of the METRICS_PORT listener; 0.0.0.0 when the scraper runs in another container. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Port of the built-in SMTP receiver (worker role `smtp`); unset: no receiver. */
  SMTP_PORT: int(0, 65535).optional(),
  /** Address the SMTP receiver listens on; 0.0.0.0 behind an MX record. */
  SMTP_HOST: z.string().min(1).default('127.0.0.1'),
  /** The domain of the projects' receiving addresses (`<slug>-<random>@INBOUND_DOMAIN`). */
  INBOUND_DOMAIN: z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i,
      'must be a domain name',
    )
    .transform((d) => d.toLowerCase())
    .optional(),
  /** PEM certificate and key files for STARTTLS (both or neither). */
  SMTP_TLS_CERT: z.string().min(1).optional(),
  SMTP_TLS_KEY: z.string().min(1).optional(),
  /** Largest message accepted (announced as SIZE); default MAX_UPLOAD_MB. */
  SMTP_MAX_MESSAGE_BYTES: int(1024, 10 * 1024 ** 3).optional(),
  /** New SMTP connections one client IP may open per minute (421 past it), across processes. */
  SMTP_CONNECTIONS_PER_IP_PER_MINUTE: int(1).default(60),
  /** Messages one client IP may send per minute (451 past it), across processes. */
  SMTP_MESSAGES_PER_IP_PER_MINUTE: int(1).default(120),
  /** Outgoing relay for replies to senders whose mailed documents were refused or failed: smtp:// or smtps:// URL. */
  SMTP_RELAY_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** From address of those replies; default `noreply@INBOUND_DOMAIN`. */
  SMTP_REPLY_FROM: z.string().email().optional(),
  /** Watched folder (worker role `watch`): files dropped into WATCH_DIR/<project id>/ become documents. */
  WATCH_DIR: z.string().min(1).optional(),
  /** How long a dropped file's size and mtime must stay unchanged before it is taken, ms. */
  WATCH_STABLE_MS: int(0, 3_600_000).default(2000),
  /** Rescan period of the watched folder (the polling fallback for network shares), ms. */
  WATCH_POLL_MS: int(50, 3_600_000).default(1000),
  GOOGLE_API_ROOT_URL: z.string().url().optional(),
  GOOGLE_OAUTH_TOKEN_URL: z.string().url().optional(),
});

type Raw = z.infer<typeof schema>;

export interface Config extends Omit<Raw, 'JWT_SECRET' | 'ENCRYPTION_KEY'> {
  JWT_SECRET: string;
  ENCRYPTION_KEY: string;
  /** Absolute DATA_DIR. */
  dataDir: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Validates the environment once. Outside production, missing JWT_SECRET / ENCRYPTION_KEY are
 * generated on first start and kept in DATA_DIR so restarts keep sessions and sealed secrets.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  opts: { persistSecrets?: boolean } = {},
): Readonly<Config> {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const combined = combinationIssues(raw);
  if (combined.length) throw new ConfigError(`Invalid configuration:\n${combined.map((l) => `  ${l}`).join('\n')}`);
  const dataDir = resolve(raw.DATA_DIR);
  const secret = (name: 'JWT_SECRET' | 'ENCRYPTION_KEY'): string => {
    const given = raw[name];
    if (given) return given;
    if (raw.NODE_ENV === 'production')
      throw new ConfigError(`Invalid configuration:\n  ${name}: required when NODE_ENV=production`);
    if (opts.persistSecrets === false) return randomBytes(32).toString('base64url');
    return persistedSecret(dataDir, name);
  };
  return Object.freeze({ ...raw, JWT_SECRET: secret('JWT_SECRET'), ENCRYPTION_KEY: secret('ENCRYPTION_KEY'), dataDir });
}

function persistedSecret(dataDir: string, name: string): string {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name.toLowerCase());
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = randomBytes(32).toString('base64url');
  writeFileSync(file, value, { mode: 0o600, flag: 'wx' });
  return value;
}

/** Rules between variables, named like single-variable errors. */
function combinationIssues(raw: Raw): string[] {
  const out: string[] = [];
  if (!!raw.S3_ACCESS_KEY_ID !== !!raw.S3_SECRET_ACCESS_KEY) {
    out.push(
      `${raw.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: required with ${raw.S3_ACCESS_KEY_ID ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'}`,
    );
  }
  // The S3 store places an upload with one server-side copy, which S3 limits to 5 GiB.
  if (!!raw.SMTP_TLS_CERT !== !!raw.SMTP_TLS_KEY)
    out.push(
      `${raw.SMTP_TLS_CERT ? 'SMTP_TLS_KEY' : 'SMTP_TLS_CERT'}: required with ${raw.SMTP_TLS_CERT ? 'SMTP_TLS_CERT' : 'SMTP_TLS_KEY'}`,
    );
  if (raw.SMTP_PORT !== undefined && !raw.INBOUND_DOMAIN) out.push('INBOUND_DOMAIN: required with SMTP_PORT');
  if (raw.SMTP_PORT !== undefined && raw.SMTP_PORT !== 0 && raw.SMTP_PORT === raw.PORT)
    out.push('SMTP_PORT: must differ from PORT');
  if (raw.METRICS_PORT !== undefined && raw.METRICS_PORT === raw.PORT) out.push('METRICS_PORT: must differ from PORT');
  if (raw.BLOB_STORE_URL && raw.MAX_UPLOAD_MB > 5120)
    out.push('MAX_UPLOAD_MB: at most 5120 with an S3 blob store (BLOB_STORE_URL)');
  return out;
}
