import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createPdfEngine, INLINE_MAX_BYTES, parseDocument, type PdfEngine } from '../../../src/pipeline/parse/index.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';

/** This process's live parser children, from /proc (the engine does not expose them). */
function parserPids(): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1]);
      const state = /State:\s+(\S)/.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1];
      if (ppid === process.pid && state !== 'Z' && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('sandbox-child'))
        out.push(Number(d));
    } catch {
      /* exited while listed */
    }
  }
  return out.sort();
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 50));
  }
}

let engine: PdfEngine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

const read = async (e: PdfEngine, word: string) =>
  (await parseDocument({ bytes: await makeTextPdf({ pages: [[word]] }), maxPages: 5 }, { pdf: e })).text;

describe('parser process pool', () => {
  it('runs documents read one at a time in a single process, however large the pool', async () => {
    engine = createPdfEngine({ workers: 2 });
    for (const w of ['first', 'second', 'third']) expect(await read(engine, w)).toBe(w);
    expect(parserPids()).toHaveLength(1);
  });

  it('starts a second process for concurrent documents and stops it once idle', async () => {
    // Long enough that the second process cannot be stopped before the burst is over, on a slow machine.
    engine = createPdfEngine({ workers: 2, idleTimeoutMs: 3_000, spawnDelayMs: 0 });
    const e = engine;
    expect(await Promise.all(['one', 'two', 'three', 'four'].map((w) => read(e, w)))).toEqual([
      'one',
      'two',
      'three',
      'four',
    ]);
    expect(parserPids()).toHaveLength(2);
    await until(() => parserPids().length === 1);
    // The remaining process still serves.
    expect(await read(e, 'after')).toBe('after');
    expect(parserPids()).toHaveLength(1);
  });

  it('serves concurrent documents from one process while none has waited spawnDelayMs for it', async () => {
    engine = createPdfEngine({ workers: 2, spawnDelayMs: 600_000 });
    const e = engine;
    const words = ['one', 'two', 'three', 'four', 'five', 'six'];
    expect(await Promise.all(words.map((w) => read(e, w)))).toEqual(words);
    expect(parserPids()).toHaveLength(1);
  });

  it('a document waiting for a process leaves the queue when its signal aborts', async () => {
    engine = createPdfEngine({ workers: 1 });
    const e = engine;
    const long = await makeTextPdf({ pages: Array.from({ length: 40 }, (_, i) => [`page ${i + 1}`]) });
    const small = await makeTextPdf({ pages: [['small']] });
    let longDone = false;
    const first = parseDocument({ bytes: long, maxPages: 50 }, { pdf: e }).then((r) => {
      longDone = true;
      return r;
    });
    const controller = new AbortController();
    const waiting = parseDocument({ bytes: small, maxPages: 5 }, { pdf: e }, { signal: controller.signal });
    const after = read(e, 'after');
    controller.abort(new Error('given up'));
    // It is refused while the only process is still on the long document, not once it is free.
    await expect(waiting).rejects.toThrow('given up');
    expect(longDone).toBe(false);
    expect((await first).pages).toBe(40);
    expect(await after).toBe('after');
    expect(parserPids()).toHaveLength(1);
  });

  it('starts the second process once the first has been on one document for spawnDelayMs', async () => {
    // Forty pages take the first process far longer than 1 ms, so the others wait past the delay.
    engine = createPdfEngine({ workers: 2, spawnDelayMs: 1, idleTimeoutMs: 600_000 });
    const e = engine;
    const long = await makeTextPdf({ pages: Array.from({ length: 40 }, (_, i) => [`page ${i + 1}`]) });
    const [first, ...rest] = await Promise.all([
      parseDocument({ bytes: long, maxPages: 50 }, { pdf: e }),
      read(e, 'two'),
      read(e, 'three'),
    ]);
    expect(first.pages).toBe(40);
    expect(rest.map((r) => r)).toEqual(['two', 'three']);
    expect(parserPids()).toHaveLength(2);
  });

  it('reads small plain text, CSV and JSON in the calling process and larger ones in a parser process', async () => {
    engine = createPdfEngine({ workers: 1 });
    const parse = (body: string, filename: string) =>
      parseDocument({ bytes: Buffer.from(body), filename, maxPages: 5 }, { pdf: engine });
    expect((await parse('Total 12.00\n', 'a.txt')).text).toBe('Total 12.00');
    expect((await parse('a,b\n1,2\n', 'a.csv')).text).toBe('a\tb\n1\t2');
    expect((await parse('{"total":12}', 'a.json')).text).toBe('{\n  "total": 12\n}');
    expect(parserPids()).toHaveLength(0);
    const large = 'word '.repeat(INLINE_MAX_BYTES / 5 + 1);
    expect((await parse(large, 'b.txt')).text).toBe(large.trim());
    expect(parserPids()).toHaveLength(1);
  });

  it('replaces a process after recycleAfterJobs documents', async () => {
    engine = createPdfEngine({ workers: 1, recycleAfterJobs: 2 });
    expect(await read(engine, 'a')).toBe('a');
    const [first] = parserPids();
    expect(await read(engine, 'b')).toBe('b');
    expect(await read(engine, 'c')).toBe('c');
    await until(() => parserPids().length === 1 && !parserPids().includes(first));
  });
});
