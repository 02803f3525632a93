import type { AddressObject, ParsedMail } from 'mailparser';
import { ParseError } from './errors.js';
import { htmlToText } from './html.js';
import { normalizeText } from './text.js';
import { lazy } from '../../lib/lazy.js';

// Loaded on first use: mailparser costs ~20 MB that a process parsing no e-mail never needs.
const loadMailparser = lazy(() => import('mailparser'));

function addresses(a: AddressObject | AddressObject[] | undefined): string {
  if (!a) return '';
  return (Array.isArray(a) ? a : [a])
    .flatMap((x) => x.value)
    .map((v) => (v.name && v.address ? `${v.name} <${v.address}>` : v.address || v.name))
    .filter(Boolean)
    .join(', ');
}

/**
 * An uploaded e-mail (.eml): the main headers, then the body (plain part, or the HTML part as
 * text). Attachments are not parsed here; mail intake turns them into documents of their own.
 */
export async function emlToText(buf: Buffer): Promise<string> {
  const { simpleParser } = await loadMailparser();
  let mail: ParsedMail;
  try {
    mail = await simpleParser(buf, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
  } catch (err) {
    throw new ParseError('CORRUPT', `e-mail could not be read: ${(err as Error)?.message ?? String(err)}`, {
      cause: err,
    });
  }
  const header = [
    mail.subject ? `Subject: ${mail.subject}` : '',
    mail.from ? `From: ${addresses(mail.from)}` : '',
    mail.to ? `To: ${addresses(mail.to)}` : '',
    mail.cc ? `Cc: ${addresses(mail.cc)}` : '',
    mail.date ? `Date: ${mail.date.toISOString()}` : '',
  ].filter(Boolean);
  const body = mail.text?.trim() ? mail.text : typeof mail.html === 'string' ? htmlToText(mail.html) : '';
  const attachments = mail.attachments.map((a) => a.filename).filter((n): n is string => !!n);
  const footer = attachments.length > 0 ? [`Attachments: ${attachments.join(', ')}`] : [];
  return normalizeText([header.join('\n'), body, footer.join('\n')].filter((s) => s.trim() !== '').join('\n\n'));
}
