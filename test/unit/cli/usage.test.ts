// The help text must show every flag each command's parser accepts, and nothing it refuses.
import { describe, expect, it } from 'vitest';
import {
  COMMANDS,
  helpText,
  parseCommand,
  usageLines,
  type CommandName,
  type CommandSpec,
} from '../../../src/cli/usage.js';

const entries = Object.entries(COMMANDS) as [CommandName, CommandSpec][];
const flagsIn = (usage: string) => [...usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]).sort();

describe('CLI usage', () => {
  it.each(entries)('%s: the usage line lists exactly the flags the parser accepts', (name, spec) => {
    expect(flagsIn(spec.usage)).toEqual(Object.keys(spec.options).sort());
  });

  it.each(entries)('%s: the parser takes every listed flag and refuses others', (name, spec) => {
    for (const [flag, o] of Object.entries(spec.options)) {
      const args = o.type === 'string' ? [`--${flag}`, 'x'] : [`--${flag}`];
      expect(parseCommand(name, args).values).toMatchObject({ [flag]: o.type === 'string' ? 'x' : true });
    }
    expect(() => parseCommand(name, ['--surely-not-a-flag'])).toThrow(
      expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }),
    );
  });

  it('the help shows every command with its full usage line', () => {
    const help = helpText('9.9.9');
    expect(help.startsWith('docpipe 9.9.9')).toBe(true);
    for (const [, spec] of entries) expect(help).toContain(`docpipe ${spec.usage}`);
  });

  it('a command prefix selects its usage lines', () => {
    expect(
      usageLines('admin')
        .split('\n')
        .filter((l) => l.includes('docpipe admin')),
    ).toHaveLength(3);
    expect(usageLines('admin create-user')).toContain('--password P');
    expect(usageLines('admin create-user')).not.toContain('create-api-key');
    expect(usageLines('worker')).toContain('--queues a,b');
  });
});
