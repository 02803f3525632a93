// Documents for the documents suites: short texts the built-in classifier recognises, as plain
// text or as real PDFs, plus request helpers around the API.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { body, type Actor } from '../../helpers/app.js';
import type { DocsApp } from '../../helpers/docs-app.js';

export const INVOICE_LINES = [
  'ACME Widgets Ltd',
  'INVOICE',
  'Invoice No: INV-2024-0042',
  'Invoice Date: 05/03/2024',
  'Due Date: 04/04/2024',
  'Bill to: Example Customer Ltd',
  'Description\tQty\tUnit Price\tAmount',
  'Paper A4\t10\t4.50\t45.00',
  'Toner\t2\t60.00\t120.00',
  'Subtotal 165.00',
  'VAT 20% 33.00',
  'Total £198.00',
  'Payment by bank transfer within 30 days.',
];

/** An invoice that no template names (a different vendor), for generic extraction. */
export function invoiceText(n: number | string, vendor = 'Northwind Office Supply GmbH'): string {
  return [
    vendor,
    'Invoice',
    `Invoice No: RE-2024-${n}`,
    'Invoice date: 05.03.2024',
    'Due date: 04.04.2024',
    'Bill to: Example Customer Ltd',
    'Description Qty Unit price Amount',
    'Paper A4 10 4.50 45.00',
    'Subtotal: 45.00 EUR',
    'VAT 19%: 8.55 EUR',
    'Total: 53.55 EUR',
    'IBAN: DE89 3704 0044 0532 0130 00',
  ].join('\n');
}

export const RECEIPT_TEXT = [
  'Corner Coffee House',
  '12 Market Street',
  'Receipt #48213',
  '14/05/2024 08:42',
  'Cashier: Anna',
  '1 x Flat white 3.20',
  '1 x Croissant 2.40',
  'TOTAL 5.60',
  'Paid by card **** 4421',
  'Thank you for your visit!',
].join('\n');

export const LETTER_TEXT = [
  'Julien Clarke',
  'Calle Mayor 134',
  '28013 Madrid',
  '',
  'Tidewater Analytics',
  'Paseo de Gracia 100',
  '08007 Barcelona',
  '',
  'Madrid, 05-09-2023',
  '',
  'Dear Sir or Madam,',
  '',
  'I am writing to let you know that I am moving to a new address next month.',
  'Please send all future correspondence to the address above.',
  '',
  'Yours faithfully,',
  'Julien Clarke',
].join('\n');

type Auth = Actor | { auth: Record<string, string> };

export async function api(
  t: DocsApp,
  actor: Auth,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: actor.auth,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** The response's `data`, after checking the status code (the body is shown when it differs). */
export function dataOf(res: LightMyRequestResponse, status = 200): any {
  expect(res.statusCode, res.body).toBe(status);
  return body(res).data;
}

export function errorCode(res: LightMyRequestResponse): string | undefined {
  return body(res).error?.code;
}

export async function eventTypes(t: DocsApp, actor: Auth, documentId: string): Promise<string[]> {
  const res = await api(t, actor, 'GET', `/events?document_id=${documentId}&limit=100`);
  return dataOf(res)
    .map((e: { type: string }) => e.type)
    .sort();
}
