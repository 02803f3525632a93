import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { isPretty } from '../../../src/lib/logger.js';

const SECRET = 'x'.repeat(40);
const base = { JWT_SECRET: SECRET, ENCRYPTION_KEY: SECRET };
const load = (env: Record<string, string>) => loadConfig(env, { persistSecrets: false });

function failure(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a configuration error');
}

describe('loadConfig', () => {
  it('defaults', () => {
    const c = load(base);
    expect(c.PORT).toBe(8000);
    expect(c.NODE_ENV).toBe('development');
    expect(c.REDIS_PREFIX).toBe('docpipe');
    expect(c.ENTERPRISE_RATE_LIMIT_PER_MINUTE).toBe(1000);
    expect(c.dataDir.startsWith('/')).toBe(true);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('coerces numbers and booleans from strings', () => {
    const c = load({ ...base, PORT: '9001', ALLOW_MODEL_DOWNLOAD: 'no', WEBHOOK_ALLOWED_HOSTS: 'a.test, b.test,' });
    expect(c.PORT).toBe(9001);
    expect(c.ALLOW_MODEL_DOWNLOAD).toBe(false);
    expect(c.WEBHOOK_ALLOWED_HOSTS).toEqual(['a.test', 'b.test']);
  });

  it('treats empty strings as unset', () => {
    expect(load({ ...base, PORT: '', REDIS_URL: '' }).PORT).toBe(8000);
  });

  it.each([['abc'], ['-1'], ['70000'], ['80.5']])('a bad PORT (%s) is named', (port) => {
    expect(failure({ ...base, PORT: port }).message).toMatch(/^\s*PORT:/m);
  });

  it.each([['http://localhost:6379'], ['localhost:6379'], ['redis//x']])('a bad REDIS_URL (%s) is named', (url) => {
    const msg = failure({ ...base, REDIS_URL: url }).message;
    expect(msg).toMatch(
      /^\s*REDIS_URL: must be a redis:\/\/, rediss:\/\/, redis\+sentinel:\/\/ or redis\+cluster:\/\/ URL/m,
    );
  });

  it('parse limits default and are bounded', () => {
    const c = load(base);
    expect([c.PARSE_MAX_MEMORY_MB, c.PARSE_MAX_INFLATED_MB, c.OCR_MAX_MEGAPIXELS]).toEqual([1024, 64, 50]);
    expect(
      load({ ...base, PARSE_MAX_MEMORY_MB: '512', PARSE_MAX_INFLATED_MB: '8', OCR_MAX_MEGAPIXELS: '100' }),
    ).toMatchObject({
      PARSE_MAX_MEMORY_MB: 512,
      PARSE_MAX_INFLATED_MB: 8,
      OCR_MAX_MEGAPIXELS: 100,
    });
    // Under 256 MB a parser process has little room once pdf.js is loaded.
    const msg = failure({
      ...base,
      PARSE_MAX_MEMORY_MB: '200',
      PARSE_MAX_INFLATED_MB: '0',
      OCR_MAX_MEGAPIXELS: 'lots',
    }).message;
    expect(msg).toMatch(/^\s*PARSE_MAX_MEMORY_MB:/m);
    expect(msg).toMatch(/^\s*PARSE_MAX_INFLATED_MB:/m);
    expect(msg).toMatch(/^\s*OCR_MAX_MEGAPIXELS:/m);
  });

  it('accepts redis:// and rediss:// URLs', () => {
    expect(load({ ...base, REDIS_URL: 'rediss://user:pw@cache.internal:6380/2' }).REDIS_URL).toBe(
      'rediss://user:pw@cache.internal:6380/2',
    );
  });

  it('names every bad variable at once', () => {
    const msg = failure({ ...base, PORT: 'x', DATABASE_URL: 'mysql://db', LOG_LEVEL: 'loud' }).message;
    expect(msg).toMatch(/PORT:/);
    expect(msg).toMatch(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(msg).toMatch(/LOG_LEVEL:/);
  });

  it('production without JWT_SECRET fails naming it', () => {
    const msg = failure({ NODE_ENV: 'production', ENCRYPTION_KEY: SECRET }).message;
    expect(msg).toMatch(/JWT_SECRET: required when NODE_ENV=production/);
  });

  it('production without ENCRYPTION_KEY fails naming it', () => {
    expect(failure({ NODE_ENV: 'production', JWT_SECRET: SECRET }).message).toMatch(/ENCRYPTION_KEY/);
  });

  it('a short JWT_SECRET is refused', () => {
    expect(failure({ ...base, JWT_SECRET: 'short' }).message).toMatch(/JWT_SECRET: must be at least 32 characters/);
  });

  it('outside production missing secrets are generated (not persisted when told not to)', () => {
    const a = load({});
    const b = load({});
    expect(a.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(a.JWT_SECRET).not.toBe(b.JWT_SECRET);
    expect(a.ENCRYPTION_KEY).not.toBe(a.JWT_SECRET);
  });

  it('production with both secrets loads', () => {
    expect(load({ NODE_ENV: 'production', ...base }).NODE_ENV).toBe('production');
  });

  it('LOG_FORMAT is auto, json or pretty; auto means pretty only on a terminal', () => {
    expect(load(base).LOG_FORMAT).toBe('auto');
    expect(load({ ...base, LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(failure({ ...base, LOG_FORMAT: 'xml' }).message).toMatch(
      /LOG_FORMAT: .*"auto"\s*\|\s*"json"\s*\|\s*"pretty"/,
    );
    expect(isPretty('auto', true)).toBe(true);
    expect(isPretty('auto', false)).toBe(false);
    expect(isPretty('json', true)).toBe(false);
    expect(isPretty('pretty', false)).toBe(true);
  });

  it('S3 blob store settings: URL shape, credentials in pairs, upload size within one copy', () => {
    const c = load({
      ...base,
      BLOB_STORE_URL: 's3://docs/prod/files',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(c).toMatchObject({
      BLOB_STORE_URL: 's3://docs/prod/files',
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: true,
    });
    expect(load(base).BLOB_STORE_URL).toBeUndefined();
    expect(failure({ ...base, BLOB_STORE_URL: 'file:///srv/files' }).message).toContain(
      'BLOB_STORE_URL: must be s3://bucket/prefix',
    );
    expect(failure({ ...base, BLOB_STORE_URL: 's3://Docs_Bucket' }).message).toContain('BLOB_STORE_URL');
    expect(failure({ ...base, S3_ACCESS_KEY_ID: 'AKIA' }).message).toContain(
      'S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID',
    );
    expect(failure({ ...base, S3_SECRET_ACCESS_KEY: 'x' }).message).toContain(
      'S3_ACCESS_KEY_ID: required with S3_SECRET_ACCESS_KEY',
    );
    expect(failure({ ...base, BLOB_STORE_URL: 's3://docs', MAX_UPLOAD_MB: '6000' }).message).toContain(
      'MAX_UPLOAD_MB: at most 5120',
    );
    expect(load({ ...base, MAX_UPLOAD_MB: '6000' }).MAX_UPLOAD_MB).toBe(6000);
  });
});
