// The sender-authentication DNS cache: answers and definite negatives reused until they expire,
// failures asked again, concurrent lookups shared, names case-insensitive, entries bounded.
import { describe, expect, it } from 'vitest';
import { cachingResolver } from '../../../src/modules/integrations/inbound/dns-cache.js';

function fakeDns(table: Record<string, string[][] | string>) {
  const calls: string[] = [];
  const resolve = async (name: string, rrtype: string) => {
    calls.push(`${rrtype} ${name}`);
    await new Promise((r) => setTimeout(r, 1));
    const v = table[`${rrtype} ${name.toLowerCase()}`];
    if (v === undefined) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    if (typeof v === 'string') throw Object.assign(new Error(`queryTxt ${v} ${name}`), { code: v });
    return v;
  };
  return { calls, resolve };
}

describe('cachingResolver', () => {
  it('reuses an answer until it expires, whatever the case of the name', async () => {
    let now = 1_000;
    const dns = fakeDns({ 'TXT acme.example': [['v=spf1 -all']] });
    const r = cachingResolver(dns.resolve, { ttlMs: 60_000, now: () => now });
    expect(await r('acme.example', 'TXT')).toEqual([['v=spf1 -all']]);
    expect(await r('ACME.example', 'TXT')).toEqual([['v=spf1 -all']]);
    expect(dns.calls).toHaveLength(1);
    now += 60_001;
    expect(await r('acme.example', 'TXT')).toEqual([['v=spf1 -all']]);
    expect(dns.calls).toHaveLength(2);
  });

  it('keeps "no such name" and "no records" but asks again after a failure', async () => {
    const dns = fakeDns({ 'TXT nodata.example': 'ENODATA', 'TXT flaky.example': 'ETIMEOUT' });
    const r = cachingResolver(dns.resolve);
    for (let i = 0; i < 2; i++) {
      await expect(r('_dmarc.none.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
      await expect(r('nodata.example', 'TXT')).rejects.toMatchObject({ code: 'ENODATA' });
      await expect(r('flaky.example', 'TXT')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    }
    expect(dns.calls.filter((c) => c === 'TXT _dmarc.none.example')).toHaveLength(1);
    expect(dns.calls.filter((c) => c === 'TXT nodata.example')).toHaveLength(1);
    expect(dns.calls.filter((c) => c === 'TXT flaky.example')).toHaveLength(2);
  });

  it('shares a lookup in flight and keys by record type', async () => {
    const dns = fakeDns({ 'TXT acme.example': [['a']], 'MX acme.example': [['mx']] });
    const r = cachingResolver(dns.resolve);
    const all = await Promise.all([r('acme.example', 'TXT'), r('acme.example', 'TXT'), r('acme.example', 'MX')]);
    expect(all).toEqual([[['a']], [['a']], [['mx']]]);
    expect(dns.calls.sort()).toEqual(['MX acme.example', 'TXT acme.example']);
  });

  it('holds at most maxEntries names, dropping the oldest', async () => {
    const table = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`TXT d${i}.example`, [[`${i}`]]]));
    const dns = fakeDns(table);
    const r = cachingResolver(dns.resolve, { maxEntries: 3 });
    for (let i = 0; i < 5; i++) await r(`d${i}.example`, 'TXT');
    await r('d4.example', 'TXT'); // kept
    await r('d0.example', 'TXT'); // dropped, asked again
    expect(dns.calls.filter((c) => c === 'TXT d4.example')).toHaveLength(1);
    expect(dns.calls.filter((c) => c === 'TXT d0.example')).toHaveLength(2);
  });
});
