import { ParseError } from './errors.js';
import { jpegOrientation } from './image-orientation.js';
import { diedOfMemory, spawnLimited } from '../../lib/limited-process.js';

/** An image turned upright and re-encoded as PNG. */
export interface NormalizedImage {
  png: Buffer;
  width: number;
  height: number;
}

export interface NormalizeOptions {
  /** Images declaring more pixels are refused before decoding. */
  maxPixels: number;
  /** Longest side of the result; larger images are scaled down. Default 0 (full size). */
  maxSide?: number;
  /** Default 30,000 ms; the process is killed past it. */
  timeoutMs?: number;
  /** RLIMIT_DATA of the process. Default 768 MB (a 50 MP RGBA image is 200 MB decoded). */
  maxMemoryMb?: number;
}

/**
 * Whether OCR and browsers would see different pictures unless the image is normalised first:
 * TIFFs (browsers cannot show them) and JPEGs whose EXIF orientation turns them.
 */
export function needsNormalizing(mime: string, bytes: Buffer): boolean {
  if (mime === 'image/tiff') return true;
  if (mime !== 'image/jpeg') return false;
  const o = jpegOrientation(bytes);
  return o !== null && o !== 1;
}

/**
 * Decodes an untrusted image in a separate memory-limited process (libvips through sharp),
 * applies its EXIF orientation, keeps the first page and answers a PNG. Fails with a
 * ParseError: CORRUPT when it cannot be decoded, TOO_LARGE past the pixel or memory limit.
 */
export function normalizeImage(bytes: Buffer, o: NormalizeOptions): Promise<NormalizedImage> {
  const maxMemoryMb = o.maxMemoryMb ?? 768;
  const p = spawnLimited({
    entry: new URL(`./image-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
    args: [],
    maxHeapMb: 128,
    maxMemoryMb,
  });
  return new Promise<NormalizedImage>((resolve, reject) => {
    let done = false;
    const finish = (err: Error | null, value?: NormalizedImage) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      if (err) reject(err);
      else resolve(value!);
    };
    const timer = setTimeout(
      () => finish(new ParseError('CORRUPT', `the image could not be decoded within ${o.timeoutMs ?? 30_000} ms`)),
      o.timeoutMs ?? 30_000,
    );
    p.child.on(
      'message',
      (m: { type: string; data?: Uint8Array; width?: number; height?: number; message?: string }) => {
        if (m.type === 'png' && m.data) {
          finish(null, {
            png: Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength),
            width: m.width ?? 0,
            height: m.height ?? 0,
          });
        } else {
          const msg = m.message ?? 'unknown error';
          finish(
            /pixel limit/i.test(msg)
              ? new ParseError('TOO_LARGE', `the image has more than ${o.maxPixels} pixels`)
              : new ParseError('CORRUPT', `the image could not be decoded: ${msg}`),
          );
        }
      },
    );
    p.child.on('error', (err) => finish(new ParseError('CORRUPT', `image process failed: ${err.message}`)));
    p.child.on('exit', (code, signal) =>
      finish(
        diedOfMemory(p.stderrTail())
          ? new ParseError('TOO_LARGE', `decoding the image needed more than ${maxMemoryMb} MB`)
          : new ParseError('CORRUPT', `image process stopped (${signal ?? `exit ${code}`})`),
      ),
    );
    p.child.send({ data: bytes, maxPixels: o.maxPixels, maxSide: o.maxSide ?? 0 });
  });
}
