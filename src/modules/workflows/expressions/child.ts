// Entry of an expression evaluator process (started by evaluator.ts, never imported). JSONata
// evaluates synchronously between its awaits and can allocate without bound, so hostile
// expressions run here, in a process with a hard memory limit that the parent can kill: a bomb
// costs this process, never the service's. One request at a time, over the IPC channel.
import { compileBounded, loadBuiltins } from './bounded.js';
import { expressionProblem, templateProblem } from './compile.js';
import { evaluateOne } from './outcome.js';
import type { CheckRequest, ChildResponse, EvalOutcome, EvalRequest } from './protocol.js';
import type jsonata from 'jsonata';

/** Most items of an array any step may produce (and JSONata's range and sequence bound). */
const MAX_ITEMS = 100_000;
// Compiled once per expression text (a workflow's expressions repeat on every run); bounded.
const cache = new Map<string, jsonata.Expression>();
const CACHE_MAX = 500;

function compiled(expr: string, req: EvalRequest): jsonata.Expression {
  const key = `${req.timeoutMs}\u0000${req.maxOutputChars}\u0000${expr}`;
  let c = cache.get(key);
  if (!c) {
    c = compileBounded(expr, { timeoutMs: req.timeoutMs, maxStringChars: req.maxOutputChars, maxItems: MAX_ITEMS });
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(key, c);
  }
  return c;
}

const send = (m: ChildResponse) => process.send?.(m);
// The parent is gone (or closed the channel): nothing is left to do.
process.on('disconnect', () => process.exit(0));

process.on('message', (req: EvalRequest | CheckRequest) => {
  if (req.type === 'check') {
    void (async () => {
      const problems: (string | null)[] = [];
      for (const i of req.items)
        problems.push(await (i.template ? templateProblem(i.text) : expressionProblem(i.text)));
      send({ type: 'check', id: req.id, problems });
    })();
    return;
  }
  void (async () => {
    const input: unknown = JSON.parse(req.input);
    const results: EvalOutcome[] = [];
    for (const expr of req.exprs) results.push(await evaluateOne(() => compiled(expr, req), input, req.maxOutputChars));
    send({ type: 'eval', id: req.id, results });
  })();
});

loadBuiltins().then(
  () => send({ type: 'ready' }),
  () => process.exit(1),
);
