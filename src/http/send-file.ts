import type { FileHandle } from 'node:fs/promises';
import { RangeNotSatisfiableError } from './errors.ts';
import { parseRange } from './range.ts';
import type { AppContext } from './types.ts';

export interface SendFileOptions {
  contentType: string;
  contentDisposition: string;
  maxAgeSeconds: number;
}

/**
 * Answers with an open file, whole or one byte range of it. Takes ownership of the handle: it is closed
 * on error, and otherwise when Koa destroys the stream body at the end of the response (HEAD included).
 */
export async function sendFile(ctx: AppContext, handle: FileHandle, options: SendFileOptions): Promise<void> {
  try {
    const { size } = await handle.stat();
    // If-Range would need validators we do not issue; RFC 9110 lets us answer it with the whole file.
    const range = ctx.get('If-Range') === '' ? parseRange(ctx.get('Range'), size) : undefined;
    if (range === 'unsatisfiable') throw new RangeNotSatisfiableError(size);
    ctx.set('Accept-Ranges', 'bytes');
    ctx.set('Content-Disposition', options.contentDisposition);
    ctx.set('Cache-Control', `private, max-age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = options.contentType;
    const { start, end } = range ?? { start: 0, end: size - 1 };
    if (range) {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
    }
    if (size === 0) {
      await handle.close();
      ctx.body = '';
      return;
    }
    ctx.body = handle.createReadStream({ start, end });
    ctx.length = end - start + 1;
  } catch (err) {
    await handle.close();
    throw err;
  }
}
