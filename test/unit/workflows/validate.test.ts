import { describe, expect, it } from 'vitest';
import { validateGraph, type GraphIssue } from '../../../src/modules/workflows/graph/validate.js';
import { executionOrder } from '../../../src/modules/workflows/graph/order.js';

const trigger = { id: 'start', type: 'trigger.manual', config: {} };
const cond = { id: 'big', type: 'condition', config: { expression: 'document.fields.total.value > 100' } };
const set = { id: 'flag', type: 'set_fields', config: { fields: { approved: 'true' } } };

type Case = {
  name: string;
  graph: { nodes?: unknown; edges?: unknown };
  runnable?: boolean;
  expect: Partial<GraphIssue>[];
};

const cases: Case[] = [
  {
    name: 'a valid branching graph',
    graph: {
      nodes: [trigger, cond, set],
      edges: [
        { source: 'start', target: 'big' },
        { source: 'big', target: 'flag', when: 'true' },
      ],
    },
    runnable: true,
    expect: [],
  },
  { name: 'an empty draft', graph: {}, expect: [] },
  {
    name: 'an empty graph that must run',
    graph: {},
    runnable: true,
    expect: [{ field: 'nodes', message: expect.stringMatching(/exactly one trigger/) }],
  },
  {
    name: 'a cycle',
    graph: {
      nodes: [
        trigger,
        { id: 'a', type: 'set_fields', config: { fields: { x: '1' } } },
        { id: 'b', type: 'set_fields', config: { fields: { y: '2' } } },
      ],
      edges: [
        { source: 'start', target: 'a' },
        { source: 'a', target: 'b' },
        { source: 'b', target: 'a' },
      ],
    },
    expect: [{ field: 'edges[2]', node_id: 'a', message: expect.stringMatching(/cycle: a → b → a/) }],
  },
  {
    name: 'a self loop',
    graph: { nodes: [trigger, set], edges: [{ source: 'flag', target: 'flag' }] },
    expect: [{ field: 'edges[0]', node_id: 'flag', message: expect.stringMatching(/itself/) }],
  },
  {
    name: 'a dangling edge',
    graph: { nodes: [trigger, set], edges: [{ source: 'start', target: 'nowhere' }] },
    expect: [{ field: 'edges[0].target', node_id: 'nowhere', message: expect.stringMatching(/refers to no node/) }],
  },
  {
    name: 'two triggers',
    graph: {
      nodes: [trigger, { id: 'again', type: 'trigger.schedule', config: { cron: '0 9 * * 1' } }, set],
      edges: [{ source: 'start', target: 'flag' }],
    },
    runnable: true,
    expect: [{ field: 'nodes[1].type', node_id: 'again', message: expect.stringMatching(/second trigger/) }],
  },
  {
    name: 'an unknown node type',
    graph: { nodes: [trigger, { id: 'x', type: 'teleport', config: {} }], edges: [{ source: 'start', target: 'x' }] },
    expect: [{ field: 'nodes[1].type', node_id: 'x', message: expect.stringMatching(/not a known node type/) }],
  },
  {
    name: 'a bad config',
    graph: {
      nodes: [trigger, { id: 'mv', type: 'move_to_project', config: { project: 'prj_1' } }],
      edges: [{ source: 'start', target: 'mv' }],
    },
    expect: [
      { field: 'nodes[1].config.project', node_id: 'mv', message: 'is not an accepted field' },
      { field: 'nodes[1].config.project_id', node_id: 'mv', message: 'is required' },
    ],
  },
  {
    name: 'bad JSONata',
    graph: {
      nodes: [trigger, { id: 'big', type: 'condition', config: { expression: 'document.fields.total.value >' } }],
      edges: [{ source: 'start', target: 'big' }],
    },
    expect: [
      {
        field: 'nodes[1].config.expression',
        node_id: 'big',
        message: expect.stringMatching(/not a valid JSONata expression/),
      },
    ],
  },
  {
    name: 'bad JSONata inside a mapping and a template',
    graph: {
      nodes: [
        trigger,
        { id: 'set', type: 'set_fields', config: { fields: { ok: '1', broken: '(((' } } },
        { id: 'call', type: 'http_request', config: { url: 'https://x.test/{{ document.( }}' } },
      ],
      edges: [
        { source: 'start', target: 'set' },
        { source: 'set', target: 'call' },
      ],
    },
    expect: [
      { field: 'nodes[1].config.fields.broken', node_id: 'set' },
      { field: 'nodes[2].config.url', node_id: 'call', message: expect.stringMatching(/placeholder/) },
    ],
  },
  {
    name: 'a condition edge without its branch',
    graph: {
      nodes: [trigger, cond, set],
      edges: [
        { source: 'start', target: 'big' },
        { source: 'big', target: 'flag' },
      ],
    },
    expect: [{ field: 'edges[1].when', node_id: 'big', message: expect.stringMatching(/is required/) }],
  },
  {
    name: 'an unknown branch',
    graph: {
      nodes: [trigger, cond, set],
      edges: [
        { source: 'start', target: 'big' },
        { source: 'big', target: 'flag', when: 'maybe' },
      ],
    },
    expect: [
      { field: 'edges[1].when', node_id: 'big', message: 'must be one of true, false, error for a condition node' },
    ],
  },
  {
    name: 'a bad cron and time zone',
    graph: { nodes: [{ id: 's', type: 'trigger.schedule', config: { cron: '61 * * * *', timezone: 'Mars/Olympus' } }] },
    expect: [
      { field: 'nodes[0].config.timezone', node_id: 's', message: expect.stringMatching(/IANA/) },
      { field: 'nodes[0].config.cron', node_id: 's', message: expect.stringMatching(/not a valid cron/) },
    ],
  },
  {
    name: 'a seconds field in cron',
    graph: { nodes: [{ id: 's', type: 'trigger.schedule', config: { cron: '*/5 * * * * *' } }] },
    expect: [{ field: 'nodes[0].config.cron', node_id: 's', message: expect.stringMatching(/5 fields/) }],
  },
  {
    name: 'a document trigger whose minimum confidence exceeds its maximum',
    graph: {
      nodes: [
        {
          id: 'd',
          type: 'trigger.document',
          config: { events: ['document.extracted'], filters: { min_confidence: 0.9, max_confidence: 0.5 } },
        },
      ],
    },
    expect: [
      { field: 'nodes[0].config.filters.min_confidence', node_id: 'd', message: 'must not exceed max_confidence' },
    ],
  },
  {
    name: 'duplicate node ids',
    graph: { nodes: [trigger, set, { ...set }] },
    expect: [{ field: 'nodes[2].id', node_id: 'flag', message: expect.stringMatching(/duplicates/) }],
  },
  {
    name: 'an unreachable node',
    graph: { nodes: [trigger, set] },
    runnable: true,
    expect: [{ field: 'nodes[1]', node_id: 'flag', message: expect.stringMatching(/not reachable/) }],
  },
  {
    name: 'a bad retry policy',
    graph: { nodes: [trigger, { ...set, retry: { max_tries: 50 } }], edges: [{ source: 'start', target: 'flag' }] },
    expect: [{ field: 'nodes[1].retry.max_tries', node_id: 'flag' }],
  },
  {
    name: 'an edge into the trigger',
    graph: { nodes: [trigger, set], edges: [{ source: 'flag', target: 'start' }] },
    expect: [
      { field: 'edges[0].target', node_id: 'start', message: expect.stringMatching(/trigger cannot have incoming/) },
    ],
  },
  {
    name: 'a delay with both forms',
    graph: {
      nodes: [trigger, { id: 'wait', type: 'delay', config: { seconds: 5, until: 'input.at' } }],
      edges: [{ source: 'start', target: 'wait' }],
    },
    expect: [{ field: 'nodes[1].config', node_id: 'wait', message: 'must set only one entry' }],
  },
];

describe('graph validation', () => {
  for (const c of cases) {
    it(`${c.name}`, async () => {
      const issues = await validateGraph(c.graph, { runnable: c.runnable ?? false });
      if (c.expect.length === 0) expect(issues).toEqual([]);
      else {
        expect(issues).toHaveLength(c.expect.length);
        expect(issues).toEqual(expect.arrayContaining(c.expect.map((e) => expect.objectContaining(e))));
      }
    });
  }

  it('orders nodes topologically, keeping the array order among ready nodes', () => {
    const g = {
      nodes: [
        { id: 'c', type: 'x', config: {} },
        { id: 't', type: 'x', config: {} },
        { id: 'b', type: 'x', config: {} },
        { id: 'a', type: 'x', config: {} },
      ],
      edges: [
        { source: 't', target: 'a' },
        { source: 't', target: 'b' },
        { source: 'a', target: 'c' },
        { source: 'b', target: 'c' },
      ],
    };
    expect(executionOrder(g).map((n) => n.id)).toEqual(['t', 'b', 'a', 'c']);
  });
});
