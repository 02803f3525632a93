// Triggers, condition and delay: nodes that only shape the run.
import type { NodeExecutor } from './types.js';
import { StepError } from './types.js';

const MAX_DELAY_MS = 7 * 86_400_000;

export const triggerNode: NodeExecutor = async (ctx) => {
  const t = ctx.run.trigger;
  if (t.type === 'schedule') return { output: { trigger: 'schedule', scheduled_for: t.scheduled_for ?? null } };
  if (t.type === 'document')
    return {
      output: {
        trigger: 'document',
        event_type: t.event_type ?? null,
        event_id: t.event_id ?? null,
        document_id: ctx.run.document_id,
      },
    };
  return { output: { trigger: 'manual', input: ctx.run.input, document_id: ctx.run.document_id } };
};

export const conditionNode: NodeExecutor = async (ctx) => {
  const expression = ctx.node.config.expression as string;
  // JSONata's own casting ($boolean) decides: empty strings, arrays and objects are false.
  const [value] = await ctx.evaluate([`$boolean((${expression}))`]);
  const result = value === true;
  return { input: { expression }, output: { result }, branch: result ? 'true' : 'false' };
};

function toDate(v: unknown): Date | null {
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v);
  if (typeof v === 'string') {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

export const delayNode: NodeExecutor = async (ctx) => {
  const c = ctx.node.config as { seconds?: number; until?: string };
  const now = ctx.now();
  // The resume time is fixed when the step first runs and kept on the step, so a resumed run
  // waits for the same moment.
  const earlier =
    ctx.previous?.status === 'waiting' ? toDate((ctx.previous.output as { until?: string } | null)?.until) : null;
  let until = earlier;
  if (!until) {
    if (c.seconds !== undefined) until = new Date(now.getTime() + c.seconds * 1000);
    else {
      const [v] = await ctx.evaluate([c.until!]);
      until = toDate(v);
      if (!until)
        throw new StepError(
          'INVALID_DELAY',
          `until evaluated to ${JSON.stringify(v) ?? 'nothing'}, not a time (ISO 8601 text or epoch milliseconds)`,
        );
    }
    if (until.getTime() - now.getTime() > MAX_DELAY_MS)
      throw new StepError('INVALID_DELAY', 'a delay may last at most 7 days');
  }
  const input = c.seconds !== undefined ? { seconds: c.seconds } : { until: c.until };
  if (ctx.dryRun) return { input, output: { would_wait_until: until.toISOString() } };
  if (until.getTime() > now.getTime()) return { input, output: { until: until.toISOString() }, waitUntil: until };
  return { input, output: { until: until.toISOString(), waited: true } };
};
