import { defineNode, TEMPLATE_HELP } from '../definition.js';
import { expr, obj } from '../specs.js';

// Scratch: proves the recipe "A workflow node type" (reverted in the next commit).
export const dummyEcho = defineNode({
  type: 'dummy_echo',
  kind: 'action',
  label: 'Echo (dummy)',
  category: 'flow',
  description: 'Renders a message into its output.',
  config: obj({ message: expr, times: { type: 'integer', minimum: 1, maximum: 3, default: 1 } }, ['message']),
  templates: ['message'],
  sideEffects: false,
  fields: [
    { path: 'message', label: 'Message', help: TEMPLATE_HELP },
    { path: 'times', label: 'Times' },
  ],
  initial: { message: 'Hello {{ run.id }}' },
  executor: () => async (ctx) => {
    const c = ctx.node.config as { message: string; times?: number };
    const [message] = await ctx.render([c.message]);
    return { input: c, output: { echoed: Array(c.times ?? 1).fill(message) } };
  },
});
