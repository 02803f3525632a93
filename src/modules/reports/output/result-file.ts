// The stored form of a report result: gzip'd lines, each either a section header (a JSON
// object `{"section": …, "columns": …}`) or one row (a JSON array, in the section's column
// order). Every download format is made from it while it streams, so an execution is stored
// once and a 100,000-row export never has to fit in memory.
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ColumnSpec, SectionInfo } from '../reports.types.js';

/** Bytes collected before one write to the compressor. */
const WRITE_CHUNK = 64 * 1024;

export interface SectionStart {
  name: string;
  title: string;
  columns: ColumnSpec[];
}

/** Writes a result with backpressure; `finish` ends the stream and says what was written. */
export class ResultWriter {
  private buffer = '';
  private sections: SectionInfo[] = [];
  private current: SectionInfo | null = null;
  private total = 0;

  constructor(private readonly out: Writable) {}

  get rowCount(): number {
    return this.total;
  }

  async section(s: SectionStart): Promise<void> {
    this.current = { name: s.name, title: s.title, columns: s.columns, rows: 0 };
    this.sections.push(this.current);
    this.buffer += `${JSON.stringify({ section: s.name, title: s.title, columns: s.columns })}\n`;
    await this.maybeFlush();
  }

  /** One row of values in column order. */
  async row(values: unknown[]): Promise<void> {
    this.count(1);
    this.buffer += `${JSON.stringify(values)}\n`;
    await this.maybeFlush();
  }

  /** Rows already serialised as JSON arrays (the database built them). */
  async rawRows(lines: string[]): Promise<void> {
    if (lines.length === 0) return;
    this.count(lines.length);
    // Line by line: the buffer never holds much more than one chunk, however large the page.
    for (const line of lines) {
      this.buffer += `${line}\n`;
      await this.maybeFlush();
    }
  }

  async finish(): Promise<{ sections: SectionInfo[]; rowCount: number }> {
    await this.flush();
    this.out.end();
    return { sections: this.sections, rowCount: this.total };
  }

  private count(n: number): void {
    if (!this.current) throw new Error('row written before any section');
    this.current.rows += n;
    this.total += n;
  }

  private async maybeFlush(): Promise<void> {
    if (this.buffer.length >= WRITE_CHUNK) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    if (this.out.destroyed) throw new Error('result stream closed');
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }
}

export type ResultItem =
  { kind: 'section'; section: SectionStart } | { kind: 'row'; section: string; values: unknown[] };

/** Splits a byte stream into lines without decoding a partial character at a chunk edge. */
async function* lines(source: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest: Buffer | null = null;
  for await (const chunk of source) {
    const buf: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let i = buf.indexOf(10, start); i !== -1; i = buf.indexOf(10, start)) {
      if (i > start) yield buf.toString('utf8', start, i);
      start = i + 1;
    }
    rest = start < buf.length ? buf.subarray(start) : null;
  }
  if (rest && rest.length > 0) yield rest.toString('utf8');
}

/**
 * Reads a stored result back. With `only`, rows of other sections are skipped without being
 * parsed.
 */
export async function* readResult(gzipped: Readable, only?: string): AsyncGenerator<ResultItem> {
  const gunzip = createGunzip();
  gzipped.on('error', (err) => gunzip.destroy(err));
  gzipped.pipe(gunzip);
  let current = '';
  try {
    for await (const line of lines(gunzip)) {
      if (line.charCodeAt(0) === 123 /* { */) {
        const h = JSON.parse(line) as { section: string; title: string; columns: ColumnSpec[] };
        current = h.section;
        if (!only || only === current)
          yield { kind: 'section', section: { name: h.section, title: h.title, columns: h.columns } };
      } else if (!only || only === current) {
        yield { kind: 'row', section: current, values: JSON.parse(line) as unknown[] };
      }
    }
  } finally {
    gzipped.destroy();
    gunzip.destroy();
  }
}
