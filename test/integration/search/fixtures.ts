// Texts for the search suites: a contract, a German invoice, an HTML-looking note, and receipts
// of one bakery (same letterhead, different items and totals) with an OCR-noisy copy.

export const CONTRACT_TEXT = [
  'SERVICES AGREEMENT between Harbor Logistics Inc and Pelican Freight LLC.',
  'Section 12. Termination clause: either party may terminate this agreement with ninety days written notice.',
  'Section 13. Governing law: this agreement is governed by the laws of the State of Delaware.',
  'The parties have signed this agreement on the date written above.',
].join('\n');

/** Both words, never next to each other: a phrase query must not find it. */
export const MEMO_TEXT = [
  'Internal memo about the warehouse clause review.',
  'The quarterly termination of the old lease happened last spring and the team moved to the new site.',
  'Please file your expense reports before the end of the month.',
].join('\n');

/** German with enough function words for the language guess: stems match other word forms. */
export const GERMAN_TEXT = [
  'Sehr geehrte Damen und Herren, wir danken Ihnen für den Auftrag und die gute Zusammenarbeit.',
  'Anbei erhalten Sie die Rechnungen für die Lieferungen im März, die wir mit der Spedition versendet haben.',
  'Bitte überweisen Sie den Betrag innerhalb von dreißig Tagen auf das unten genannte Konto, und nicht auf ein anderes.',
  'Mit freundlichen Grüßen, Ihre Buchhaltung der Musterfirma',
].join('\n');

export const HTML_TEXT = [
  'Release notes for the <script>alert(1)</script> widget & gadget bundle.',
  'The zeppelin feature is now available for every customer of the bundle.',
].join('\n');

const ITEMS = [
  ['Sourdough loaf', '4.20'],
  ['Croissant', '1.60'],
  ['Pain au chocolat', '1.90'],
  ['Rye bread', '3.80'],
  ['Cinnamon roll', '2.40'],
  ['Baguette', '1.50'],
  ['Apple strudel', '3.10'],
  ['Poppy seed bagel', '1.30'],
  ['Lemon tart', '3.60'],
  ['Carrot cake slice', '3.30'],
  ['Spelt rolls 6 pack', '3.90'],
  ['Focaccia rosemary', '4.50'],
];

/** Receipt `n` of the one bakery: the same letterhead and footer, its own items, date and total. */
export function bakeryReceipt(n: number): string {
  const items = [0, 1, 2, 3].map((k) => ITEMS[(n * 5 + k * 7) % ITEMS.length]);
  const qty = items.map((_, k) => 1 + ((n + k) % 3));
  const total = items.reduce((s, [, price], k) => s + Number(price) * qty[k], 0);
  return [
    'BAKERY ROSENHOF GMBH',
    'Lindenstrasse 12, 10115 Berlin',
    'Tel 030 1234567  VAT ID DE123456789',
    `Receipt no ${4100 + n * 37}   Date ${String(1 + n).padStart(2, '0')}.03.2026 ${8 + (n % 9)}:${String(10 + n * 3).slice(-2)}`,
    ...items.map(([name, price], k) => `${qty[k]} x ${name} ${price} ${(Number(price) * qty[k]).toFixed(2)}`),
    `TOTAL EUR ${total.toFixed(2)}`,
    `Cash ${(Math.ceil(total / 10) * 10).toFixed(2)}  Change ${(Math.ceil(total / 10) * 10 - total).toFixed(2)}`,
    'Thank you for your visit - see you again soon',
    'Fresh bread every morning from 6 am',
  ].join('\n');
}

/** An OCR-noisy re-scan: a few characters misread, line breaks moved, deterministic. */
export function ocrNoise(text: string, rate = 0.03): string {
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const swaps: Record<string, string> = { o: '0', l: '1', e: 'c', a: 'o', s: '5', i: 'l', B: '8', '0': 'O', '1': 'l' };
  return text
    .split('')
    .map((c) => (rnd() < rate && swaps[c] ? swaps[c] : c === '\n' && rnd() < 0.3 ? ' ' : c))
    .join('');
}
