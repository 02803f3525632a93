// BENCHMARK BASELINE ONLY (see thread-evaluator.ts). Worker-thread side of the former expression evaluator. JSONata evaluates synchronously between its
// awaits, so a hostile expression would block whatever thread runs it: it runs here, where the
// parent can terminate the thread, never on the thread that serves HTTP or runs jobs.
import { parentPort } from 'node:worker_threads';
import jsonata from 'jsonata';
import { evaluateOne } from '../../../src/modules/workflows/expressions/outcome.js';
import type { EvalOutcome } from '../../../src/modules/workflows/expressions/protocol.js';

export interface EvalRequest {
  id: number;
  exprs: string[];
  input: string;
  timeoutMs: number;
  maxOutputChars: number;
}

export interface EvalResponse {
  id: number;
  results: EvalOutcome[];
}

const cache = new Map<string, jsonata.Expression>();
const CACHE_MAX = 500;

function compiled(expr: string, timeoutMs: number): jsonata.Expression {
  const key = `${timeoutMs}\u0000${expr}`;
  let c = cache.get(key);
  if (!c) {
    // JSONata's own guardrails stop most runaway expressions cleanly (the thread survives); the
    // parent's hard timer covers what they cannot see (one long built-in call, a slow regex).
    c = jsonata(expr, { timeout: timeoutMs, stack: 300, sequence: 100_000 });
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(key, c);
  }
  return c;
}

parentPort!.on('message', (req: EvalRequest) => {
  void (async () => {
    const input: unknown = JSON.parse(req.input);
    const results: EvalOutcome[] = [];
    for (const expr of req.exprs)
      results.push(await evaluateOne(() => compiled(expr, req.timeoutMs), input, req.maxOutputChars));
    const res: EvalResponse = { id: req.id, results };
    parentPort!.postMessage(res);
  })();
});

// Every import above has loaded: the parent starts its deadline clock from here.
parentPort!.postMessage({ ready: true });
