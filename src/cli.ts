#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { VERSION } from './version.js';

const HELP = `docpipe ${VERSION} — self-hosted document processing

Usage:
  docpipe start                      API + all workers in one process (runs a private redis-server when REDIS_URL is unset)
  docpipe api                        HTTP API only (needs REDIS_URL)
  docpipe worker [--queues a,b] [--concurrency N]
                                     pipeline workers only (needs REDIS_URL)
  docpipe migrate                    apply database migrations
  docpipe admin create-user --email E --password P --org NAME [--role owner|admin|member|viewer] [--plan free|pro|enterprise]
  docpipe admin create-api-key --email E --name NAME [--environment live|test]
  docpipe admin status               counts of organizations, users, projects, documents
                                     (admin commands go through a running server that holds the embedded database)
  docpipe ingest PATH... --project ID [--url URL] [--key KEY]
  docpipe reprocess --project ID --stage S[,S] [--missing|--all] [--url URL] [--key KEY]

Configuration comes only from environment variables; see the README.`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    console.log(HELP);
    return 0;
  }
  if (cmd === '--version' || cmd === 'version') {
    console.log(VERSION);
    return 0;
  }
  // Client commands talk to a running server over HTTP and need no server configuration.
  if (cmd === 'ingest' || cmd === 'reprocess') {
    const { runClientCommand } = await import('./cli/client-commands.js');
    return runClientCommand(cmd, rest);
  }
  const config = loadConfig();
  switch (cmd) {
    case 'start':
    case 'api':
    case 'worker': {
      const { runServer } = await import('./cli/server.js');
      const { values } = parseArgs({ args: rest, options: { queues: { type: 'string' }, concurrency: { type: 'string' } } });
      await runServer(config, cmd, { queues: values.queues?.split(',').map((q) => q.trim()).filter(Boolean), concurrency: values.concurrency ? Number(values.concurrency) : undefined });
      return -1; // keeps running
    }
    case 'migrate': {
      const { runMigrate } = await import('./cli/admin.js');
      return runMigrate(config);
    }
    case 'admin': {
      const { runAdmin } = await import('./cli/admin.js');
      return runAdmin(config, rest);
    }
    default:
      console.error(`Unknown command "${cmd}".\n\n${HELP}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => { if (code >= 0) process.exit(code); },
  (err: unknown) => {
    if (err instanceof ConfigError) console.error(err.message);
    else console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
