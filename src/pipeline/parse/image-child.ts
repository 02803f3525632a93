// Entry of the short-lived image process (started by image-normalize.ts, never imported). It
// decodes one untrusted image with libvips (sharp) under the memory limit its parent set, turns
// it upright by its EXIF orientation, and answers with a PNG:
//   parent → child: {data, maxPixels, maxSide}
//   child → parent: {type:'png', data, width, height} | {type:'error', message}
import { createRequire } from 'node:module';

interface Request {
  data: Uint8Array;
  maxPixels: number;
  /** Longest side of the answer; larger images are scaled down (0: full size). */
  maxSide: number;
}

// The parent kills the process once it has the answer (exiting here could outrun the message).
const send = (m: unknown) => process.send?.(m);
process.on('disconnect', () => process.exit(0));

process.once('message', (msg: Request) => {
  void (async () => {
    try {
      // Loaded here only: libvips never enters the service's own processes.
      const sharp = createRequire(import.meta.url)('sharp') as typeof import('sharp').default;
      sharp.concurrency(1);
      sharp.cache(false);
      const data = Buffer.from(msg.data.buffer, msg.data.byteOffset, msg.data.byteLength);
      // The first page (TIFF), refusing pixel counts over the limit before decoding them.
      let img = sharp(data, { limitInputPixels: msg.maxPixels, pages: 1, failOn: 'error' }).rotate();
      if (msg.maxSide > 0) img = img.resize(msg.maxSide, msg.maxSide, { fit: 'inside', withoutEnlargement: true });
      const out = await img.png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true });
      send({ type: 'png', data: out.data, width: out.info.width, height: out.info.height });
    } catch (err) {
      send({ type: 'error', message: String((err as Error)?.message ?? err) });
    }
  })();
});
