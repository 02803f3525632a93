// `docpipe watch DIR --project ID`: the watched-folder loop of the `watch` worker role, run on
// any machine (a scanner's share, a laptop) against a remote server with an API key. Files in
// DIR are uploaded like `docpipe ingest` once stable, then moved to DIR/.done or DIR/.failed.
import { mkdir } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { resolve } from 'node:path';
import { startFolderWatcher, type UploadResult } from '../modules/integrations/watch/folder-watcher.js';
import { createApiClient, errorText } from './http-client.js';
import { parseCommand, usageLines } from './usage.js';

export async function runWatchCommand(args: string[]): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = parseCommand('watch', args));
  } catch (err) {
    console.error(`${(err as Error).message}\n\nUsage:\n${usageLines('watch')}`);
    return 2;
  }
  if (!values.project || positionals.length !== 1) {
    console.error(`Give one folder and --project ID\n\nUsage:\n${usageLines('watch')}`);
    return 2;
  }
  const key = values.key ?? process.env.DOCPIPE_API_KEY;
  if (!key) {
    console.error('An API key is needed: --key svc_… or DOCPIPE_API_KEY');
    return 2;
  }
  const dir = resolve(positionals[0]);
  await mkdir(dir, { recursive: true });
  const projectId = values.project;
  const api = createApiClient(values.url ?? process.env.DOCPIPE_URL ?? 'http://localhost:8000', key);

  const upload = async (path: string, filename: string): Promise<UploadResult> => {
    const form = new FormData();
    form.set('project_id', projectId);
    form.set('file', await openAsBlob(path), filename);
    const res = await api.call('POST', '/documents', { form });
    if (res.status === 201) return { kind: 'created', documentId: res.body.data.id };
    if (res.status === 200 && res.body.data.duplicate) return { kind: 'duplicate', documentId: res.body.data.id };
    // 4xx: the file (or the project) is the problem; 5xx: try again later.
    if (res.status >= 400 && res.status < 500 && res.status !== 429) return { kind: 'refused', reason: errorText(res) };
    throw new Error(`server answered ${res.status}: ${errorText(res)}`);
  };

  const log = (level: string) => (obj: unknown, msg?: string) =>
    console.error(
      `${level}: ${msg ?? ''} ${typeof obj === 'string' ? obj : JSON.stringify(obj, (k, v) => (k === 'err' ? String(v) : v))}`,
    );
  const watcher = await startFolderWatcher({
    source: { folders: async () => [{ dir, projectId }] },
    upload: (path, filename) => upload(path, filename),
    logger: { info: log('info'), warn: log('warn') } as never,
    stableMs: values['stable-ms'] !== undefined ? Number(values['stable-ms']) : undefined,
    pollMs: values['poll-ms'] !== undefined ? Number(values['poll-ms']) : undefined,
    onSettled: (e) =>
      console.log(`${e.result.kind}: ${e.filename}${'reason' in e.result ? ` (${e.result.reason})` : ''}`),
  });
  console.log(`watching ${dir} for project ${projectId} (Ctrl-C to stop)`);
  // Either signal stops it, and both listeners go: one left behind would keep the other signal
  // from ending a process that runs the command more than once (the tests do).
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await watcher.close();
  return 0;
}
