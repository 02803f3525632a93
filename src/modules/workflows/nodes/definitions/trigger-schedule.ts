import { defineNode } from '../definition.js';
import { triggerNode } from '../flow-nodes.js';
import { obj } from '../specs.js';

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
  fields: [
    { path: 'cron', label: 'Cron', help: 'Five fields: minute hour day-of-month month day-of-week.' },
    { path: 'timezone', label: 'Time zone', help: 'IANA name such as Europe/Berlin.' },
  ],
  initial: { cron: '0 7 * * 1-5', timezone: 'UTC' },
  executor: () => triggerNode,
});
