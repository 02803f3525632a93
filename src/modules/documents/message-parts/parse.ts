// Reading a message: one set of parser options for every source (no HTML↔text conversion and
// no link detection, which only cost time: the text is read again by the parse stage).
import type { ParsedMail } from 'mailparser';
import { lazy } from '../../../lib/lazy.js';

// Loaded on first use: mailparser costs ~20 MB that a process receiving no mail never needs.
const loadMailparser = lazy(() => import('mailparser'));

const PARSE_OPTIONS = {
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipImageLinks: true,
  skipTextLinks: true,
} as const;

export async function parseMessage(raw: Buffer): Promise<{ parsed: ParsedMail | null; error?: string }> {
  const { simpleParser } = await loadMailparser();
  try {
    return { parsed: await simpleParser(raw, PARSE_OPTIONS) };
  } catch (err) {
    return { parsed: null, error: `message could not be parsed: ${(err as Error).message}` };
  }
}

/** First sender address of a parsed message ('' when there is none). */
export function senderOf(parsed: Pick<ParsedMail, 'from'>): string {
  return parsed.from?.value?.find((v) => v.address)?.address ?? '';
}
