import { afterAll, describe, expect, it } from 'vitest';
import { createExpressionEvaluator, ExpressionError } from '../../../src/modules/workflows/expressions/evaluator.js';
import { expressionProblem, templateProblem, templateToExpression } from '../../../src/modules/workflows/expressions/compile.js';

describe('JSONata evaluator', () => {
  const ev = createExpressionEvaluator({ threads: 1, timeoutMs: 300, maxInputChars: 10_000 });
  afterAll(() => ev.close());

  it('evaluates expressions over the input', async () => {
    const input = { document: { fields: { total: { value: 120.5 } } }, variables: { limit: 100 } };
    expect(await ev.evaluate(['document.fields.total.value > variables.limit', '$uppercase("x")', 'nothing.here'], input)).toEqual([true, 'X', undefined]);
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
    await expect(ev.evaluate(['a'], { a: 'x'.repeat(20_000) })).rejects.toMatchObject({ code: 'EXPRESSION_INPUT_TOO_LARGE' });
  });

  it('stops an endless recursion and keeps this thread free meanwhile', async () => {
    let settled = false;
    const hostile = '($f := function($n){ $n = 0 ? 0 : $f($n - 1) + $f($n - 1) }; $f(40))';
    const pending = ev.evaluate([hostile], {}).catch((e: unknown) => e).finally(() => { settled = true; });
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
    expect(await ev.evaluate(['2 * 21'], {})).toEqual([42]);
    expect(ev.threadsStarted).toBeGreaterThan(before);
  });

  it('bounds the output size', async () => {
    await expect(ev.evaluate(['$pad("", 2000000, "x")'], {})).rejects.toMatchObject({ code: 'EXPRESSION_OUTPUT_TOO_LARGE' });
  });
});
