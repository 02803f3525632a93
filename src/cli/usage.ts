// Every command's synopsis next to the options its parser accepts, so that the help cannot
// forget a flag (test/unit/cli/usage.test.ts compares each synopsis with its options).
import { parseArgs } from 'node:util';
import { STAGES } from '../pipeline/stages.js';

interface Option {
  type: 'string' | 'boolean';
  short?: string;
}

export interface CommandSpec {
  /** After `docpipe `: positionals and every flag of `options`, optional ones in brackets. */
  usage: string;
  summary: string;
  options: Record<string, Option>;
  positionals?: boolean;
}

const CLIENT = { url: { type: 'string' }, key: { type: 'string' } } as const;

export const COMMANDS = {
  start: {
    usage: 'start [--concurrency N]',
    summary: 'API + all workers in one process (runs a private redis-server when REDIS_URL is unset)',
    options: { concurrency: { type: 'string' } },
  },
  api: { usage: 'api', summary: 'HTTP API only (needs REDIS_URL)', options: {} },
  worker: {
    usage: 'worker [--queues a,b] [--concurrency N]',
    summary: `worker roles only (needs REDIS_URL); --queues picks roles (${STAGES.join(', ')}, webhooks, workflows, events, …)`,
    options: { queues: { type: 'string' }, concurrency: { type: 'string' } },
  },
  migrate: { usage: 'migrate', summary: 'apply database migrations', options: {} },
  'admin create-user': {
    usage:
      'admin create-user --email E --password P --org NAME [--role owner|admin|member|viewer] [--plan free|pro|enterprise|self_hosted]',
    summary: 'create a user (and the organization when it does not exist)',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      org: { type: 'string' },
      role: { type: 'string' },
      plan: { type: 'string' },
    },
  },
  'admin create-api-key': {
    usage: 'admin create-api-key --email E --name NAME [--environment live|test]',
    summary: "create an API key for the user's organization; prints it once",
    options: { email: { type: 'string' }, name: { type: 'string' }, environment: { type: 'string' } },
  },
  'admin status': {
    usage: 'admin status',
    summary:
      'counts of organizations, users, projects, documents\n(admin commands go through a running server that holds the embedded database)',
    options: {},
  },
  ingest: {
    usage: 'ingest PATH... --project ID [--wait] [--allow-duplicate] [--concurrency N] [--url URL] [--key KEY]',
    summary: 'upload files and folders; --wait follows them until processed',
    options: {
      project: { type: 'string' },
      wait: { type: 'boolean' },
      'allow-duplicate': { type: 'boolean' },
      concurrency: { type: 'string' },
      ...CLIENT,
    },
    positionals: true,
  },
  reprocess: {
    usage:
      'reprocess --project ID|--documents ID,ID [--stage S[,S]] [--missing|--all] [--no-wait] [--url URL] [--key KEY]',
    summary: 're-run stages as a batch and follow it (default: every stage, --missing)',
    options: {
      project: { type: 'string' },
      documents: { type: 'string' },
      stage: { type: 'string' },
      missing: { type: 'boolean' },
      all: { type: 'boolean' },
      'no-wait': { type: 'boolean' },
      ...CLIENT,
    },
  },
  watch: {
    usage: 'watch DIR --project ID [--stable-ms N] [--poll-ms N] [--url URL] [--key KEY]',
    summary: 'upload files dropped into DIR once stable; settled files move to DIR/.done or DIR/.failed',
    options: {
      project: { type: 'string' },
      'stable-ms': { type: 'string' },
      'poll-ms': { type: 'string' },
      ...CLIENT,
    },
    positionals: true,
  },
  'templates import-dir': {
    usage: 'templates import-dir PATH [--dry-run] [--verbose] [--url URL] [--key KEY]',
    summary: 'import every invoice2data template (.yml, .yaml, .json) under PATH, with a summary',
    options: { 'dry-run': { type: 'boolean' }, verbose: { type: 'boolean' }, ...CLIENT },
    positionals: true,
  },
  'models list': {
    usage: 'models list',
    summary: 'embedding models in the model folder (EMBEDDING_MODEL_DIR) and the one in use',
    options: {},
  },
  'models install': {
    usage: 'models install PATH|ID [--id ID]',
    summary:
      'install a transformers.js model folder (or download model ID) into the model folder,\nafter checking that it loads and embeds',
    options: { id: { type: 'string' } },
    positionals: true,
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

const INDENT = '  ';
const COLUMN = 37;

/** Usage lines of the commands whose name starts with `prefix` (all when empty). */
export function usageLines(prefix = ''): string {
  const out: string[] = [];
  for (const [name, spec] of Object.entries(COMMANDS) as [string, CommandSpec][]) {
    if (prefix && name !== prefix && !name.startsWith(`${prefix} `)) continue;
    const synopsis = `${INDENT}docpipe ${spec.usage}`;
    const [first, ...more] = spec.summary.split('\n');
    if (synopsis.length < COLUMN - 1) out.push(synopsis.padEnd(COLUMN) + first);
    else out.push(synopsis, ' '.repeat(COLUMN) + first);
    for (const m of more) out.push(' '.repeat(COLUMN) + m);
  }
  return out.join('\n');
}

export function helpText(version: string): string {
  return `docpipe ${version} — self-hosted document processing

Usage:
${usageLines()}
  docpipe --help | COMMAND --help    this text, or one command's
  docpipe --version

In a clone of the repository the command is \`npx docpipe\` (or \`node dist/src/cli.js\`); installed
globally or in a container it is \`docpipe\`.

Client commands (ingest, reprocess, watch) take the server from --url or DOCPIPE_URL and the key from
--key or DOCPIPE_API_KEY. Everything else is configured only through environment variables; see
docs/configuration.md.`;
}

/** Whether the arguments ask for help instead of running the command. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

type OptionsOf<K extends CommandName> = (typeof COMMANDS)[K]['options'];
/** Parsed flag values of command `K`: strings and booleans by the option's type. */
export type CommandValues<K extends CommandName> = {
  [F in keyof OptionsOf<K>]?: OptionsOf<K>[F] extends { type: 'boolean' } ? boolean : string;
};

/** Parses a command's arguments with exactly the options its usage line shows (unknown flags throw). */
export function parseCommand<K extends CommandName>(
  name: K,
  args: readonly string[],
): { values: CommandValues<K>; positionals: string[] } {
  const spec: CommandSpec = COMMANDS[name];
  const { values, positionals } = parseArgs({
    args: [...args],
    options: spec.options,
    allowPositionals: spec.positionals === true,
    strict: true,
  });
  return { values: values as CommandValues<K>, positionals };
}
