import { afterAll, describe, expect, it } from 'vitest';
import { createExpressionEvaluator, ExpressionError } from '../../../src/modules/workflows/expressions/evaluator.js';
import {
  expressionProblem,
  templateProblem,
  templateToExpression,
} from '../../../src/modules/workflows/expressions/compile.js';

describe('JSONata evaluator', () => {
  const ev = createExpressionEvaluator({ threads: 1, timeoutMs: 300, maxInputChars: 10_000 });
  afterAll(() => ev.close());

  it('evaluates expressions over the input', async () => {
    const input = { document: { fields: { total: { value: 120.5 } } }, variables: { limit: 100 } };
    expect(
      await ev.evaluate(['document.fields.total.value > variables.limit', '$uppercase("x")', 'nothing.here'], input),
    ).toEqual([true, 'X', undefined]);
  });

  it('turns templates into one expression', async () => {
    const t = templateToExpression('Invoice {{ n }} of {{ who }}: {{missing}}!');
    expect(await ev.evaluate([t], { n: 7, who: 'ACME' })).toEqual(['Invoice 7 of ACME: !']);
    expect(await ev.evaluate([templateToExpression('plain')], {})).toEqual(['plain']);
    expect(templateProblem('a {{ ( }}')).toMatch(/placeholder/);
    expect(templateProblem('a {{ b')).toMatch(/closing/);
  });

  it('reports syntax problems with their position', () => {
    expect(expressionProblem('a.b = ')).toMatch(/not a valid JSONata expression/);
    expect(expressionProblem('a.b = 1')).toBeNull();
    expect(expressionProblem('x'.repeat(5000))).toMatch(/longer/);
  });

  it('refuses an input past the size bound', async () => {
    await expect(ev.evaluate(['a'], { a: 'x'.repeat(20_000) })).rejects.toMatchObject({
      code: 'EXPRESSION_INPUT_TOO_LARGE',
    });
  });

  it('stops an endless recursion and keeps this thread free meanwhile', async () => {
    let settled = false;
    const hostile = '($f := function($n){ $n = 0 ? 0 : $f($n - 1) + $f($n - 1) }; $f(40))';
    const pending = ev
      .evaluate([hostile], {})
      .catch((e: unknown) => e)
      .finally(() => {
        settled = true;
      });
    // A timer of this thread fires while the expression is still running elsewhere: had it run
    // here, the evaluation would have settled before any timer could fire.
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    const err = await pending;
    expect(err).toBeInstanceOf(ExpressionError);
    expect((err as ExpressionError).code).toBe('EXPRESSION_TIMEOUT');
    expect(await ev.evaluate(['1 + 1'], {})).toEqual([2]);
  });

  it('kills a thread stuck inside one built-in call (no guardrail check) and starts another', async () => {
    const before = ev.threadsStarted;
    // A catastrophic regular expression: one built-in call, no JSONata evaluation step inside it.
    const err = await ev.evaluate(['$contains(s, /(x+x+)+y/)'], { s: 'x'.repeat(40) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EXPRESSION_TIMEOUT' });
    // $sum is not on the fast path: this needs a thread, and a new one starts.
    expect(await ev.evaluate(['$sum([20, 22])'], {})).toEqual([42]);
    expect(ev.threadsStarted).toBeGreaterThan(before);
  });

  it('bounds the output size', async () => {
    await expect(ev.evaluate(['$pad("", 2000000, "x")'], {})).rejects.toMatchObject({
      code: 'EXPRESSION_OUTPUT_TOO_LARGE',
    });
  });
});

describe('JSONata fast path (simple expressions on the calling thread)', () => {
  const threads = createExpressionEvaluator({ threads: 1, timeoutMs: 2000, fastPathTimeoutMs: 0 });
  // A generous time bound here: on a loaded machine a descheduled thread could otherwise send a
  // simple expression to a thread (correct, but not what this test is about).
  const fast = createExpressionEvaluator({ threads: 1, timeoutMs: 2000, fastPathTimeoutMs: 1000 });
  afterAll(async () => {
    await threads.close();
    await fast.close();
  });
  const settle = (ev: typeof fast, expr: string, input: unknown) =>
    ev.evaluate([expr], input).then(
      (v) => ({ value: v[0] }),
      (e: ExpressionError) => ({ code: e.code, message: e.message }),
    );

  it('gives the values and errors a thread gives, without starting one', async () => {
    const input = {
      document: {
        id: 'doc_1',
        created_at: new Date(0),
        fields: { total: { value: 120.5 }, items: [{ v: 1 }, { v: 2 }] },
      },
      variables: { limit: 100 },
      steps: { check: { result: true } },
    };
    const exprs = [
      '$boolean((document.fields.total.value > variables.limit))',
      'document.fields.total.value / 1.19',
      '{"doc": document.id, "neg": -document.fields.total.value}',
      '"Invoice " & $string((document.fields.missing))',
      'document.fields.items.v',
      '[1, "a", null, true]',
      'steps.check.result ? "yes" : "no"',
      '$.variables.limit in [100, 200]',
      'document.created_at',
      '$exists(document.nope)',
      '$not(false) and (1 = 1 or 2 != 2)',
      '$number("12") % 5',
      '"a" + 1',
      'document.fields.total.value < "x"',
      'nothing.here',
    ];
    for (const e of exprs) expect(await settle(fast, e, input), e).toEqual(await settle(threads, e, input));
    expect(fast.threadsStarted).toBe(0);
    expect(threads.threadsStarted).toBe(1);
  });

  it('sends filters, wildcards, other functions, variables and lambdas to a thread', async () => {
    const input = { a: [{ v: 1 }, { v: 2 }] };
    for (const e of [
      'a[v > 1].v',
      'a.*',
      '$uppercase("x")',
      '$x',
      '(function($n){ $n })(1)',
      '[1..3]',
      'a^(v)',
      'a{"k": v}',
      'a#$i.v',
      '$$.a',
    ]) {
      const ev = createExpressionEvaluator({ threads: 1, timeoutMs: 2000 });
      try {
        expect(await settle(ev, e, input), e).toEqual(await settle(threads, e, input));
        expect(ev.threadsStarted, e).toBe(1);
      } finally {
        await ev.close();
      }
    }
  });

  it('sends large inputs and long expressions to a thread', async () => {
    const big = createExpressionEvaluator({ threads: 1, timeoutMs: 2000 });
    try {
      expect(await big.evaluate(['x.n'], { x: { n: 1 }, pad: 'p'.repeat(70_000) })).toEqual([1]);
      expect(big.threadsStarted).toBe(1);
      const long = `x.n${' + x.n'.repeat(60)}`;
      expect(await big.evaluate([long], { x: { n: 1 } })).toEqual([61]);
    } finally {
      await big.close();
    }
  });

  it('runs an expression past the step budget here again on a thread, however much time it has', async () => {
    const ev = createExpressionEvaluator({ threads: 1, timeoutMs: 5000, fastPathTimeoutMs: 5000 });
    try {
      const input = { x: Array.from({ length: 3000 }, () => ({ a: { b: 1 } })) };
      const [v] = await ev.evaluate([`[${Array.from({ length: 10 }, () => 'x.a.b').join(', ')}]`], input);
      expect((v as number[]).length).toBe(30_000);
      expect(ev.threadsStarted).toBe(1);
      // Small inputs stay here.
      expect(await ev.evaluate(['x.a.b'], { x: { a: { b: 2 } } })).toEqual([2]);
      expect(ev.threadsStarted).toBe(1);
    } finally {
      await ev.close();
    }
  });

  it('runs an expression that outgrows its time bound here again on a thread, with the same result', async () => {
    const slow = createExpressionEvaluator({ threads: 1, timeoutMs: 5000, fastPathTimeoutMs: 1 });
    try {
      // 3,000 items walked ten times: far more than 1 ms of evaluation steps.
      const input = { x: Array.from({ length: 3000 }, () => ({ a: { b: 1 } })) };
      const expr = `[${Array.from({ length: 10 }, () => 'x.a.b').join(', ')}]`;
      const [v] = await slow.evaluate([expr], input);
      expect((v as number[]).length).toBe(30_000);
      expect(slow.threadsStarted).toBe(1);
    } finally {
      await slow.close();
    }
  });
});
