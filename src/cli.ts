#!/usr/bin/env node
import { ConfigError, loadConfig } from './config.js';
import { COMMANDS, helpText, parseCommand, usageLines, wantsHelp, type CommandName } from './cli/usage.js';
import { VERSION } from './version.js';

/** Usage errors (unknown flag, missing value) name the problem and show the command's usage. */
function usageError(cmd: string, err: unknown): number {
  console.error(`${(err as Error).message}\n\nUsage:\n${usageLines(cmd)}`);
  return 2;
}

const isParseError = (err: unknown) => ((err as { code?: string }).code ?? '').startsWith('ERR_PARSE_ARGS');

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    console.log(helpText(VERSION));
    return 0;
  }
  if (cmd === '--version' || cmd === 'version') {
    console.log(VERSION);
    return 0;
  }
  if (!Object.keys(COMMANDS).some((name) => name === cmd || name.startsWith(`${cmd} `))) {
    console.error(`Unknown command "${cmd}".\n\n${helpText(VERSION)}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    const sub =
      (cmd === 'admin' || cmd === 'templates' || cmd === 'models') && rest[0] && `${cmd} ${rest[0]}` in COMMANDS
        ? `${cmd} ${rest[0]}`
        : cmd;
    console.log(`Usage:\n${usageLines(sub)}`);
    return 0;
  }
  // Client commands talk to a running server over HTTP and need no server configuration.
  if (cmd === 'ingest' || cmd === 'reprocess') {
    const { runClientCommand } = await import('./cli/client-commands.js');
    return runClientCommand(cmd, rest);
  }
  if (cmd === 'watch') {
    const { runWatchCommand } = await import('./cli/watch-command.js');
    return runWatchCommand(rest);
  }
  if (cmd === 'templates') {
    const { runTemplatesCommand } = await import('./cli/templates-command.js');
    return runTemplatesCommand(rest);
  }
  if (cmd === 'models') {
    const { runModelsCommand } = await import('./cli/models-command.js');
    try {
      return await runModelsCommand(loadConfig(), rest);
    } catch (err) {
      if (isParseError(err)) return usageError(`models ${rest[0] ?? ''}`.trim(), err);
      console.error((err as Error).message);
      return 1;
    }
  }
  if (cmd === 'admin') {
    const { runAdmin } = await import('./cli/admin.js');
    return runAdmin(loadConfig(), rest);
  }
  let values: { queues?: string; concurrency?: string };
  try {
    values = parseCommand(cmd as CommandName, rest).values as typeof values;
  } catch (err) {
    if (isParseError(err)) return usageError(cmd, err);
    throw err;
  }
  const config = loadConfig();
  switch (cmd) {
    case 'start':
    case 'api':
    case 'worker': {
      // Long-running roles only: a command that exits soon has no heap worth keeping small.
      const { tuneHeap } = await import('./cli/heap-tuning.js');
      tuneHeap({ postgres: Boolean(config.DATABASE_URL) });
      const { runServer } = await import('./cli/server.js');
      await runServer(config, cmd, {
        queues: values.queues
          ?.split(',')
          .map((q) => q.trim())
          .filter(Boolean),
        concurrency: values.concurrency ? Number(values.concurrency) : undefined,
      });
      return -1; // keeps running
    }
    case 'migrate': {
      const { runMigrate } = await import('./cli/admin.js');
      return runMigrate(config);
    }
    default:
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof ConfigError) console.error(err.message);
    else console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
