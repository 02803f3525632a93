import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { createExpressionEvaluator, ExpressionError } from '../../../src/modules/workflows/expressions/evaluator.js';
import {
  expressionProblem,
  templateProblem,
  templateToExpression,
} from '../../../src/modules/workflows/expressions/compile.js';

describe('JSONata evaluator', () => {
  const ev = createExpressionEvaluator({ processes: 1, timeoutMs: 300, maxInputChars: 10_000 });
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
    expect(await templateProblem('a {{ ( }}')).toMatch(/placeholder/);
    expect(await templateProblem('a {{ b')).toMatch(/closing/);
  });

  it('reports syntax problems with their position', async () => {
    expect(await expressionProblem('a.b = ')).toMatch(/not a valid JSONata expression/);
    expect(await expressionProblem('a.b = 1')).toBeNull();
    expect(await expressionProblem('x'.repeat(5000))).toMatch(/longer/);
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

  it('kills a process stuck inside one built-in call (no guardrail check) and starts another', async () => {
    const before = ev.processesStarted;
    // Quadratic work inside one built-in call, with no JSONata evaluation step inside it.
    const err = await ev.evaluate(['$distinct([1..100000])'], {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EXPRESSION_TIMEOUT' });
    // $sum is not on the fast path: this needs a thread, and a new one starts.
    expect(await ev.evaluate(['$sum([20, 22])'], {})).toEqual([42]);
    expect(ev.processesStarted).toBeGreaterThan(before);
  });

  it('bounds the output size', async () => {
    // A result built by steps that each stay under the bound, larger than it as JSON.
    await expect(ev.evaluate(['[1..3].$pad("", 400000, "x")'], {})).rejects.toMatchObject({
      code: 'EXPRESSION_OUTPUT_TOO_LARGE',
    });
  });

  it('refuses allocation bombs before they allocate, with a clear error', async () => {
    // A generous deadline: what is asserted is the bound's error, not how fast a busy machine gets there.
    const ev = createExpressionEvaluator({ processes: 1, timeoutMs: 20_000 });
    onTestFinished(() => ev.close());
    const doubling = `($s := "${'x'.repeat(16)}"; ${'$s := $s & $s; '.repeat(27)} $length($s))`;
    for (const [bomb, message] of [
      ['$length($pad("", 100000000, "x")) > 0', /\$pad would be 100000000 characters/],
      ['$pad("", 1e8, "x")', /\$pad would be/],
      [doubling, /would be \d+ characters long/],
      ['$join([1..10000].$pad("", 1000, "y"))', /\$join would be 10000000 characters/],
      ['$string([1..10000].$pad("", 1000, "y"))', /\$string of a value larger/],
      ['$reduce([1..40], function($a, $i){ $append($a, $a) }, [1])', /sequence length|at most 100000/],
      ['[1..20000000]', /range/],
      ['$eval("1 + 1")', /\$eval is not available/],
    ] as const) {
      const err = await ev.evaluate([bomb], {}).catch((e: unknown) => e);
      expect(err, bomb).toBeInstanceOf(ExpressionError);
      expect((err as ExpressionError).code, bomb).toBe('EXPRESSION_LIMIT');
      expect((err as ExpressionError).message, bomb).toMatch(message);
    }
    // Bounded versions give the built-ins' results.
    expect(await ev.evaluate(['$pad("ab", 6, "xy") & "|" & $pad("ab", -5) & "|" & $join(["a","b"], "-")'], {})).toEqual(
      ['abxyxy|   ab|a-b'],
    );
  });

  it('runs regular expressions in linear time and refuses what that engine cannot run', async () => {
    // Catastrophic backtracking on a backtracking engine; linear here.
    expect(await ev.evaluate(['$contains(s, /(x+x+)+y/)'], { s: 'x'.repeat(5000) })).toEqual([false]);
    expect(await ev.evaluate(['$replace("a1b22", /[0-9]+/, "#")', '$split("a,b,,c", /,/)'], {})).toEqual([
      'a#b#',
      ['a', 'b', '', 'c'],
    ]);
    expect((await ev.evaluate(['$match("abcabc", /(a)(b)c/)'], {}))[0]).toMatchObject([
      { match: 'abc', index: 0, groups: ['a', 'b'] },
      { match: 'abc', index: 3 },
    ]);
    await expect(ev.evaluate(['$contains("aa", /(a)\\1/)'], {})).rejects.toMatchObject({ code: 'EXPRESSION_REGEX' });
    expect(await expressionProblem('$contains(x, /(a)\\1/)')).toMatch(/backreference/);
  });

  it('a process that dies mid-call fails that call only (EXPRESSION_CRASHED) and is replaced', async () => {
    const small = createExpressionEvaluator({ processes: 1, timeoutMs: 20_000, maxHeapMb: 32, maxMemoryMb: 512 });
    try {
      // Every value stays under the bounds; together they are far more than the process's heap.
      const hog = '$count([1..200].$uppercase($pad("", 900000, $string($)))) > 0';
      const err = await small.evaluate([hog], {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExpressionError);
      expect((err as ExpressionError).code).toBe('EXPRESSION_CRASHED');
      expect((err as ExpressionError).message).toMatch(/more memory than its limit \(32 MB\)/);
      expect(await small.evaluate(['$sum([1, 2])'], {})).toEqual([3]);
    } finally {
      await small.close();
    }
  });
});

describe('JSONata fast path (simple expressions on the calling thread)', () => {
  const threads = createExpressionEvaluator({ processes: 1, timeoutMs: 2000, fastPathTimeoutMs: 0 });
  // A generous time bound here: on a loaded machine a descheduled thread could otherwise send a
  // simple expression to a thread (correct, but not what this test is about).
  const fast = createExpressionEvaluator({ processes: 1, timeoutMs: 2000, fastPathTimeoutMs: 1000 });
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
    expect(fast.processesStarted).toBe(0);
    expect(threads.processesStarted).toBe(1);
  });

  it('sends filters, wildcards, other functions, variables and lambdas to a thread', async () => {
    const input = { a: [{ v: 1 }, { v: 2 }] };
    const ev = createExpressionEvaluator({ processes: 1, timeoutMs: 2000 });
    onTestFinished(() => ev.close());
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
      // One process serves them all: each expression must be one more call handed to it.
      const before = ev.processCalls;
      expect(await settle(ev, e, input), e).toEqual(await settle(threads, e, input));
      expect(ev.processCalls - before, e).toBe(1);
    }
    expect(ev.processesStarted).toBe(1);
  });

  it('sends large inputs and long expressions to a thread', async () => {
    const big = createExpressionEvaluator({ processes: 1, timeoutMs: 2000 });
    try {
      expect(await big.evaluate(['x.n'], { x: { n: 1 }, pad: 'p'.repeat(70_000) })).toEqual([1]);
      expect(big.processesStarted).toBe(1);
      const long = `x.n${' + x.n'.repeat(60)}`;
      expect(await big.evaluate([long], { x: { n: 1 } })).toEqual([61]);
    } finally {
      await big.close();
    }
  });

  it('runs an expression past the step budget here again on a thread, however much time it has', async () => {
    const ev = createExpressionEvaluator({ processes: 1, timeoutMs: 5000, fastPathTimeoutMs: 5000 });
    try {
      const input = { x: Array.from({ length: 3000 }, () => ({ a: { b: 1 } })) };
      const [v] = await ev.evaluate([`[${Array.from({ length: 10 }, () => 'x.a.b').join(', ')}]`], input);
      expect((v as number[]).length).toBe(30_000);
      expect(ev.processesStarted).toBe(1);
      // Small inputs stay here.
      expect(await ev.evaluate(['x.a.b'], { x: { a: { b: 2 } } })).toEqual([2]);
      expect(ev.processesStarted).toBe(1);
    } finally {
      await ev.close();
    }
  });

  it('runs an expression that outgrows its time bound here again on a thread, with the same result', async () => {
    const slow = createExpressionEvaluator({ processes: 1, timeoutMs: 5000, fastPathTimeoutMs: 1 });
    try {
      // 3,000 items walked ten times: far more than 1 ms of evaluation steps.
      const input = { x: Array.from({ length: 3000 }, () => ({ a: { b: 1 } })) };
      const expr = `[${Array.from({ length: 10 }, () => 'x.a.b').join(', ')}]`;
      const [v] = await slow.evaluate([expr], input);
      expect((v as number[]).length).toBe(30_000);
      expect(slow.processesStarted).toBe(1);
    } finally {
      await slow.close();
    }
  });
});
