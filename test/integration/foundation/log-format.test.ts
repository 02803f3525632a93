// Log lines as a process writes them to a pipe: JSON unless LOG_FORMAT asks for pretty lines
// (pino-pretty in its worker thread), secrets redacted either way.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../../helpers/run-ts.mjs', import.meta.url));
const MODULE = fileURLToPath(new URL('./fixtures/log-lines.ts', import.meta.url));

function logsOf(format: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = fork(ENTRY, [MODULE, JSON.stringify({ format })], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err.slice(-2000)}`))));
  });
}

describe('log format', () => {
  it('auto writes JSON lines when stdout is not a terminal, json always does', async () => {
    for (const format of ['auto', 'json']) {
      const lines = (await logsOf(format))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(2);
      // Matched by level, not position: the asynchronous destination may write them in either order.
      const byLevel = (level: number) => lines.find((l: { level: number }) => l.level === level);
      expect(byLevel(30)).toMatchObject({ msg: 'hello from docpipe', documentId: 'doc_1' });
      expect(byLevel(40)).toMatchObject({ password: '[redacted]' });
    }
  });

  it('pretty writes human-readable lines even into a pipe', async () => {
    const out = await logsOf('pretty');
    const lines = out
      .trim()
      .split('\n')
      .filter((l) => l.trim());
    expect(lines[0]).toMatch(/INFO.*hello from docpipe/);
    expect(lines[0].trimStart().startsWith('{')).toBe(false);
    expect(out).toMatch(/documentId: "doc_1"/);
    expect(out).toMatch(/WARN.*with a secret/);
    expect(out).toContain('[redacted]');
    expect(out).not.toContain('hunter2');
  });
});
