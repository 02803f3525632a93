import { CronExpressionParser } from 'cron-parser';
import { defineNode } from '../definition.js';
import { triggerNode } from '../flow-nodes.js';
import { obj, type ConfigProblem } from '../specs.js';

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function checkSchedule(c: Record<string, unknown>): ConfigProblem[] {
  if (typeof c.cron !== 'string') return [];
  const out: ConfigProblem[] = [];
  const tz = typeof c.timezone === 'string' ? c.timezone : 'UTC';
  if (!validTimeZone(tz)) out.push({ path: 'timezone', message: 'is not an IANA time zone (such as Europe/Berlin)' });
  const fields = c.cron.trim().split(/\s+/);
  if (fields.length !== 5) {
    out.push({ path: 'cron', message: 'must have 5 fields: minute hour day-of-month month day-of-week' });
  } else {
    try {
      CronExpressionParser.parse(`0 ${c.cron.trim()}`, { tz: validTimeZone(tz) ? tz : 'UTC' });
    } catch (err) {
      out.push({ path: 'cron', message: `is not a valid cron expression: ${(err as Error).message}` });
    }
  }
  return out;
}

export const scheduleTrigger = defineNode({
  type: 'trigger.schedule',
  kind: 'trigger',
  label: 'Schedule',
  category: 'trigger',
  description: 'One run per tick of a cron schedule.',
  config: obj(
    {
      cron: { type: 'string', minLength: 9, maxLength: 200 },
      timezone: { type: 'string', minLength: 1, maxLength: 64, default: 'UTC' },
    },
    ['cron'],
  ),
  sideEffects: false,
  check: checkSchedule,
  fields: [
    { path: 'cron', label: 'Cron', help: 'Five fields: minute hour day-of-month month day-of-week.' },
    { path: 'timezone', label: 'Time zone', help: 'IANA name such as Europe/Berlin.' },
  ],
  initial: { cron: '0 7 * * 1-5', timezone: 'UTC' },
  executor: () => triggerNode,
});
