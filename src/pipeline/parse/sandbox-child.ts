// Entry of the parser process (started by pdf-engine.ts, never imported). It runs pdf.js and
// the other converters under the memory limits its parent set, one document at a time, and
// talks to the parent over the IPC channel:
//   parent → child: {type:'read', id, data, maxPages, minTextChars, render}   a PDF
//                   {type:'ack', id}                after handling a 'page' marked ack
//                   {type:'convert', id, mime, data}   any other convertible type
//   child → parent: {type:'ready'} | {type:'failed', message}   once, at start-up
//                   {type:'page', …} … {type:'done', id, numPages}   for a PDF
//                   {type:'text', id, text}                           for a conversion
//                   {type:'error', id, name, message, code?, numPages?}
import { convertToText } from './convert.js';
import { isParseError } from './errors.js';
import { createPdfReader, isAllocationFailure, type ReadRequest } from './pdf-reader.js';

/** Settings the parent passes as the first argument (JSON). */
export interface SandboxSettings {
  maxImagePixels: number;
  maxInflatedBytes: number;
}

type Request =
  ReadRequest | { type: 'ack'; id: number } | { type: 'convert'; id: number; mime: string; data: Uint8Array };

const settings = JSON.parse(process.argv[2] ?? '{}') as SandboxSettings;
const send = (m: unknown): void => {
  process.send?.(m);
};
// The parent is gone (or closed the channel): nothing is left to do.
process.on('disconnect', () => process.exit(0));

const reader = createPdfReader({ maxImagePixels: settings.maxImagePixels, send });

function errorMessage(id: number, err: unknown): Record<string, unknown> {
  const e = err as { name?: string; message?: string; numPages?: number };
  const message = String(e?.message ?? err);
  if (isParseError(err)) return { type: 'error', id, name: 'ParseError', code: err.code, message };
  if (isAllocationFailure(message)) return { type: 'error', id, name: 'TooLarge', message };
  return { type: 'error', id, name: e?.name ?? 'Error', message, numPages: e?.numPages };
}

process.on('message', (msg: Request) => {
  if (msg.type === 'ack') return reader.ack();
  const id = msg.id;
  // The channel delivers Buffers; pdf.js insists on a plain Uint8Array.
  const data = new Uint8Array(msg.data.buffer, msg.data.byteOffset, msg.data.byteLength);
  const work =
    msg.type === 'read'
      ? reader.read({ ...msg, data })
      : convertToText(msg.mime, Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
          maxInflatedBytes: settings.maxInflatedBytes,
        }).then((text) => send({ type: 'text', id, text }));
  work.catch((err: unknown) => send(errorMessage(id, err)));
});

reader.ready().then(
  () => send({ type: 'ready' }),
  (err: unknown) => send({ type: 'failed', message: String((err as Error)?.message ?? err) }),
);
