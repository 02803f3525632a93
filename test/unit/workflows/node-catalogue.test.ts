// The node catalogue is the one list of node types: every type the graph validator accepts has a
// definition with a form field per config entry and an executor, and nothing outside it is
// accepted. Checked against the validator's own answers, not against the list it reads.
import { describe, expect, it } from 'vitest';
import { validateGraph } from '../../../src/modules/workflows/graph/validate.js';
import {
  configPaths,
  createExecutors,
  NODE_CATALOGUE,
  NODE_DEFINITIONS,
  NODE_TYPES,
} from '../../../src/modules/workflows/nodes/catalogue.js';
import type { NodeDeps } from '../../../src/modules/workflows/nodes/definition.js';

/** The node types the validator names as known when it refuses an unknown one. */
async function typesTheValidatorKnows(): Promise<string[]> {
  const [issue] = await validateGraph({ nodes: [{ id: 'x', type: 'no_such_type', config: {} }] }, { runnable: false });
  const m = /\(known: (.+)\)$/.exec(issue.message);
  expect(m, issue.message).not.toBeNull();
  return m![1].split(', ');
}

describe('workflow node catalogue', () => {
  it('has one definition for every node type the validator accepts, and the catalogue serves each once', async () => {
    const known = await typesTheValidatorKnows();
    expect(known.length).toBeGreaterThan(0);
    expect([...known].sort()).toEqual(NODE_DEFINITIONS.map((d) => d.type).sort());
    expect(NODE_CATALOGUE.map((e) => e.type).sort()).toEqual([...known].sort());
    expect(new Set(NODE_TYPES).size).toBe(NODE_TYPES.length);
  });

  it("accepts each type's starting config, or asks only for what the type requires", async () => {
    for (const e of NODE_CATALOGUE) {
      const issues = await validateGraph(
        { nodes: [{ id: 'n', type: e.type, config: e.initial_config }] },
        { runnable: false },
      );
      const required = e.fields.filter((f) => f.required).map((f) => `nodes[0].config.${f.path}`);
      for (const i of issues) {
        expect(required, `${e.type}: ${i.field} ${i.message}`).toContain(i.field);
        expect(i.message).toBe('is required');
      }
    }
  });

  it('describes every config entry of every type as a form field', () => {
    for (const d of NODE_DEFINITIONS) {
      const served = NODE_CATALOGUE.find((e) => e.type === d.type)!;
      expect(served.fields.map((f) => f.path).sort(), d.type).toEqual(configPaths(d.config).sort());
      expect(served.label, d.type).not.toBe('');
      expect(served.description, d.type).not.toBe('');
    }
    const http = NODE_CATALOGUE.find((e) => e.type === 'http_request')!;
    expect(http.fields.find((f) => f.path === 'method')).toMatchObject({
      kind: 'select',
      options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      default: 'POST',
      required: false,
    });
    expect(http.fields.find((f) => f.path === 'url')).toMatchObject({ kind: 'template', required: true });
    expect(http.fields.find((f) => f.path === 'headers')).toMatchObject({ kind: 'map', values: 'template' });
    const trigger = NODE_CATALOGUE.find((e) => e.type === 'trigger.document')!;
    expect(trigger).toMatchObject({ kind: 'trigger', inputs: 0, branches: [] });
    expect(trigger.fields.find((f) => f.path === 'filters.project_ids')?.kind).toBe('projects');
    expect(trigger.fields.find((f) => f.path === 'events')).toMatchObject({ kind: 'checkboxes', required: true });
    expect(NODE_CATALOGUE.find((e) => e.type === 'condition')).toMatchObject({
      inputs: 1,
      branches: ['true', 'false'],
    });
  });

  it('builds an executor for every type', () => {
    // Executors are built, not run: their dependencies are only used when a step runs.
    const executors = createExecutors({ documents: {}, outbound: {} } as unknown as NodeDeps);
    expect(Object.keys(executors).sort()).toEqual([...NODE_TYPES].sort());
    for (const t of NODE_TYPES) expect(typeof executors[t], t).toBe('function');
  });

  it('groups the catalogue by category, triggers first', () => {
    const categories = NODE_CATALOGUE.map((e) => e.category);
    expect(categories.filter((c, i) => c !== categories[i - 1])).toEqual(['trigger', 'flow', 'document', 'outbound']);
    expect(NODE_CATALOGUE.filter((e) => e.kind === 'trigger').every((e) => e.category === 'trigger')).toBe(true);
  });
});
