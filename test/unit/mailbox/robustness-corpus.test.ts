// Hostile real-world e-mails (../shared/corpora, evaluation data kept outside the repo):
// every one must either parse and go through part selection, or be rejected cleanly.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { selectParts, type PartSelection } from '../../../src/modules/documents/message-parts/index.js';

// <repo>/../shared/corpora, located from this file so the working directory does not matter.
const dir = fileURLToPath(new URL('../../../../shared/corpora/robustness/eml', import.meta.url));
const present = existsSync(dir);
const files = present
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort()
  : [];
if (!present) console.warn(`robustness corpus not found at ${dir}: corpus checks skipped`);

async function run(file: string): Promise<PartSelection | Error> {
  const raw = readFileSync(join(dir, file));
  try {
    const parsed = await simpleParser(raw);
    return selectParts(parsed, { consume: 'both' }, { raw });
  } catch (err) {
    return err as Error;
  }
}

describe.skipIf(!present)('robustness corpus (e-mail)', () => {
  it('has the expected files', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it.each(files)('%s parses or rejects cleanly, and every accepted file is sane', async (file) => {
    const res = await run(file);
    if (res instanceof Error) {
      expect(res.message.length).toBeGreaterThan(0);
      return;
    }
    expect(res.accepted[0].kind).toBe('eml');
    for (const part of res.accepted) {
      expect(part.filename).not.toMatch(/[\\/\u0000-\u001f]/);
      expect(part.filename.length).toBeGreaterThan(0);
      expect(part.size).toBe(part.content.length);
      expect(part.size).toBeGreaterThan(0);
    }
    for (const s of res.skipped) expect(s.filename.length).toBeGreaterThan(0);
  });

  it('specific outcomes: embedded logos skipped, real attachments kept, fragments refused', async () => {
    const pick = async (name: string): Promise<PartSelection> => {
      const file = files.find((f) => f.includes(name));
      expect(file, `${name} missing from the corpus`).toBeDefined();
      const res = await run(file!);
      if (res instanceof Error) throw res;
      return res;
    };
    const large = await pick('mail_test_2_large');
    expect(large.accepted.map((a) => a.filename)).toContain('Bollettino.pdf');
    expect(large.skipped.map((s) => [s.filename, s.reason])).toEqual([
      ['intestazione.jpg', 'inline'],
      ['logometeo.jpg', 'inline'],
    ]);
    // "Bollettino … del 29/11/2015" must not become "2015.eml"
    expect(large.accepted[0].filename).toBe('Bollettino Meteorologico del 29-11-2015.eml');

    const uu = await pick('m1014_uuencode');
    expect(uu.accepted.slice(1).map((a) => [a.filename, a.contentType])).toEqual([
      ['redball.png', 'image/png'],
      ['greenball.png', 'image/png'],
      ['blueball.png', 'image/png'],
    ]);
    expect(uu.accepted[1].content.subarray(1, 4).toString()).toBe('PNG');

    const partial = await pick('message-partial.0');
    expect(partial.skipped.map((s) => s.reason)).toEqual(['partial_message']);

    const tnef = await pick('m4006_tnef');
    expect(tnef.accepted.map((a) => a.filename)).toContain('winmail.dat');

    const korean = await pick('korean_jpeg');
    expect(korean.accepted.map((a) => a.filename)).toContain('사진.JPG');

    const empty = await pick('single_part_png');
    expect(empty.skipped.map((s) => s.reason)).toEqual(['empty']);
  });
});
