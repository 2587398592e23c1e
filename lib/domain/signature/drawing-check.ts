import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';

/*
 * A drawn signature decoded in lib/platform/sandbox at sign time (signing.ts), so that it is refused while the signer
 * is there to draw again instead of failing every attempt of the seal. pngjs reads it first — every chunk's CRC, the
 * zlib stream through Node's inflate, the filters — because pdf-lib's own decoder, the seal's, never returns on a
 * truncated or garbled stream; then pdf-lib embeds it as the seal will.
 */
export type DrawingCheck = { ok: true } | { ok: false; message: string };

const why = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0]!.slice(0, 120) : 'undecodable');

export async function decodeDrawing(png: Uint8Array): Promise<DrawingCheck> {
  try {
    const image = PNG.sync.read(Buffer.from(png));
    if (!(image.width > 0 && image.height > 0)) return { ok: false, message: 'the drawing has no pixels' };
  } catch (error) {
    return { ok: false, message: `not a readable PNG image (${why(error)})` };
  }
  try {
    const doc = await PDFDocument.create();
    await doc.embedPng(png);
    await doc.save();
    return { ok: true };
  } catch (error) {
    return { ok: false, message: `a PNG the signed PDF cannot carry (${why(error)})` };
  }
}
