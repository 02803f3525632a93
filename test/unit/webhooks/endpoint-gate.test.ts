// The per-endpoint and per-organization limits and the circuit, on a fake clock.
import { describe, expect, it } from 'vitest';
import { createEndpointGate, endpointKey, type Admission } from '../../../src/modules/webhooks/endpoint-gate.js';

function gate(extra: Partial<Parameters<typeof createEndpointGate>[0]> = {}) {
  const clock = { t: 1_000_000 };
  const g = createEndpointGate({
    endpointMax: 10,
    orgMax: 12,
    timeoutMs: 10_000,
    now: () => clock.t,
    random: () => 0.5,
    ...extra,
  });
  return { g, clock };
}
const admitted = (a: Admission) => {
  if (!a.ok) throw new Error(`deferred: ${a.reason}`);
  return a;
};
const E = 'http://dead.example:80';

describe('endpointKey', () => {
  it('groups by scheme, host and port, ignoring path, query and case', () => {
    expect(endpointKey('http://Hooks.Example.com/a?x=1')).toBe('http://hooks.example.com:80');
    expect(endpointKey('https://hooks.example.com/b')).toBe('https://hooks.example.com:443');
    expect(endpointKey('http://127.0.0.1:8080/c')).toBe('http://127.0.0.1:8080');
    expect(endpointKey('not a url')).toBe('');
  });
});

describe('endpoint gate', () => {
  it('starts an endpoint at 4 in flight and puts the fifth off until a slot is likely free', () => {
    const { g, clock } = gate();
    const runs = Array.from({ length: 4 }, () => admitted(g.admit(E, 'org_a')));
    const fifth = g.admit(E, 'org_a');
    expect(fifth).toMatchObject({ ok: false, reason: 'endpoint-busy' });
    // Young attempts: come back soon.
    expect(!fifth.ok && fifth.until - clock.t).toBeLessThan(500);
    // Hanging attempts: come back near when the oldest must end (capped at 5 s).
    clock.t += 8_000;
    const later = g.admit(E, 'org_a');
    expect(!later.ok && later.until - clock.t).toBeGreaterThan(1_000);
    expect(!later.ok && later.until - clock.t).toBeLessThanOrEqual(5_000);
    runs[0].done({ timedOut: false, durationMs: 10 });
    expect(g.admit(E, 'org_a').ok).toBe(true);
  });

  it('grows with quick answers up to endpointMax, halves on slow ones and on timeouts', () => {
    const { g } = gate();
    for (let i = 0; i < 20; i++) admitted(g.admit(E, 'org_a')).done({ timedOut: false, durationMs: 5 });
    expect(g.state(E)?.limit).toBe(10);
    admitted(g.admit(E, 'org_a')).done({ timedOut: false, durationMs: 6_000 });
    expect(g.state(E)?.limit).toBe(5);
    admitted(g.admit(E, 'org_a')).done({ timedOut: false, durationMs: 6_000 });
    expect(g.state(E)?.limit).toBe(4); // slow, but answering: not below the start value
    admitted(g.admit(E, 'org_a')).done({ timedOut: true, durationMs: 10_000 });
    expect(g.state(E)?.limit).toBe(2);
    admitted(g.admit(E, 'org_a')).done({ timedOut: true, durationMs: 10_000 });
    expect(g.state(E)?.limit).toBe(1);
  });

  it('opens the circuit after 3 timeouts in a row, sends one probe after openMs, doubles while dead, closes on an answer', () => {
    const { g, clock } = gate({ openMs: 30_000, maxOpenMs: 100_000 });
    const three = [0, 1, 2].map(() => admitted(g.admit(E, 'org_a')));
    for (const r of three) r.done({ timedOut: true, durationMs: 10_000 });
    const open = g.admit(E, 'org_a');
    expect(open).toMatchObject({ ok: false, reason: 'circuit-open' });
    expect(!open.ok && open.until).toBeGreaterThanOrEqual(clock.t + 30_000);
    expect(g.wouldDefer(E, 'org_a')?.reason).toBe('circuit-open');
    // A manual attempt (resend, test ping) still goes out.
    expect(g.wouldDefer(E, 'org_a', { ignoreCircuit: true })).toBeNull();

    clock.t += 30_000;
    const probe = admitted(g.admit(E, 'org_a'));
    expect(g.admit(E, 'org_a')).toMatchObject({ ok: false, reason: 'circuit-open' }); // one probe at a time
    probe.done({ timedOut: true, durationMs: 10_000 });
    expect(g.state(E)?.openUntil).toBe(clock.t + 60_000);
    clock.t += 60_000;
    admitted(g.admit(E, 'org_a')).done({ timedOut: true, durationMs: 10_000 });
    expect(g.state(E)?.openUntil).toBe(clock.t + 100_000); // capped at maxOpenMs

    clock.t += 100_000;
    admitted(g.admit(E, 'org_a')).done({ timedOut: false, durationMs: 20 });
    expect(g.state(E)).toMatchObject({ openUntil: 0, timeoutsInARow: 0, limit: 4 });
    expect(g.admit(E, 'org_a').ok).toBe(true);
  });

  it('an answer between timeouts resets the count (an error status is an answer)', () => {
    const { g } = gate();
    admitted(g.admit(E, 'org_a')).done({ timedOut: true, durationMs: 10_000 });
    admitted(g.admit(E, 'org_a')).done({ timedOut: true, durationMs: 10_000 });
    admitted(g.admit(E, 'org_a')).done({ timedOut: false, durationMs: 30 });
    admitted(g.admit(E, 'org_a')).done({ timedOut: true, durationMs: 10_000 });
    expect(g.state(E)).toMatchObject({ openUntil: 0, timeoutsInARow: 1 });
  });

  it('caps an organization over all its endpoints, and leaves other organizations alone', () => {
    const { g } = gate({ orgMax: 6 });
    const held = [];
    for (let i = 0; i < 3; i++)
      for (const host of ['a', 'b']) held.push(admitted(g.admit(`http://${host}.example:80`, 'org_a')));
    expect(g.admit('http://c.example:80', 'org_a')).toMatchObject({ ok: false, reason: 'org-busy' });
    expect(g.wouldDefer('http://c.example:80', 'org_a')?.reason).toBe('org-busy');
    expect(g.admit('http://c.example:80', 'org_b').ok).toBe(true);
    held[0].done({ timedOut: false, durationMs: 5 });
    expect(g.admit('http://c.example:80', 'org_a').ok).toBe(true);
  });

  it('marks a busy endpoint whose attempts are young as "soon", and wakes a waiter when one ends', async () => {
    const { g, clock } = gate();
    const runs = Array.from({ length: 4 }, () => admitted(g.admit(E, 'org_a')));
    expect(g.admit(E, 'org_a')).toMatchObject({ ok: false, reason: 'endpoint-busy', soon: true });
    expect(g.wouldDefer(E, 'org_a')).toBeNull(); // worth loading and waiting for
    const woken = g.slotFreed(E, 60_000);
    runs[0].done({ timedOut: false, durationMs: 5 });
    await woken;
    expect(g.admit(E, 'org_a').ok).toBe(true);
    clock.t += 3_000; // the others now hang: no longer "soon"
    admitted(g.admit(E, 'org_a')); // the quick answer raised the limit to 5
    expect(g.admit(E, 'org_a')).toMatchObject({ ok: false, reason: 'endpoint-busy', soon: false });
    expect(g.wouldDefer(E, 'org_a')?.reason).toBe('endpoint-busy');
  });

  it('done twice releases once', () => {
    const { g } = gate();
    const a = admitted(g.admit(E, 'org_a'));
    admitted(g.admit(E, 'org_a'));
    a.done({ timedOut: false, durationMs: 5 });
    a.done({ timedOut: false, durationMs: 5 });
    expect(g.state(E)?.inFlight).toBe(1);
  });
});
