// The three REDIS_URL forms, the errors for malformed ones, and the hash-tagged prefix on a cluster.
import { describe, expect, it } from 'vitest';
import { effectivePrefix, parseRedisUrl } from '../../../src/lib/redis.js';
import { loadConfig } from '../../../src/config.js';

describe('REDIS_URL forms', () => {
  it('keeps a single-server URL as it is', () => {
    expect(parseRedisUrl('redis://:p%40ss@h:6380/2')).toEqual({ kind: 'single', url: 'redis://:p%40ss@h:6380/2' });
  });

  it('parses Sentinel: hosts (default port 26379), master name, database, credentials, TLS', () => {
    expect(parseRedisUrl('rediss+sentinel://u:p%2Fw@s1:26380,s2,[::1]:1/mymaster/3')).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26380 },
        { host: 's2', port: 26379 },
        { host: '::1', port: 1 },
      ],
      name: 'mymaster',
      db: 3,
      username: 'u',
      password: 'p/w',
      tls: true,
    });
  });

  it('parses a cluster seed list (default port 6379)', () => {
    expect(parseRedisUrl('redis+cluster://n1:7000,n2')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 6379 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
  });

  it('refuses a Sentinel URL without a master name, a cluster URL with a database, and other schemes', () => {
    expect(() => parseRedisUrl('redis+sentinel://s1:26379')).toThrow(/master name/);
    expect(() => parseRedisUrl('redis+cluster://n1:7000/1')).toThrow(/database 0/);
    expect(() => parseRedisUrl('http://n1')).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ REDIS_URL: 'redis+mesh://a' }, { persistSecrets: false })).toThrow();
    expect(loadConfig({ REDIS_URL: 'redis+cluster://a:1,b:2' }, { persistSecrets: false }).REDIS_URL).toBe(
      'redis+cluster://a:1,b:2',
    );
  });

  it('hash-tags the prefix on a cluster only', () => {
    expect(effectivePrefix('redis+cluster://n1:7000', 'docpipe')).toBe('{docpipe}');
    expect(effectivePrefix('redis://h:6379', 'docpipe')).toBe('docpipe');
    expect(effectivePrefix('redis+sentinel://s:1/m', 'docpipe')).toBe('docpipe');
  });
});
