import type { Readable } from 'node:stream';
import { RangeNotSatisfiableError } from './errors.ts';
import { parseRange } from './range.ts';
import type { AppContext } from './types.ts';

export interface SendFileOptions {
  contentType: string;
  contentDisposition: string;
  maxAgeSeconds: number;
}

/** A stored file: its size, and its bytes whole or one inclusive byte range. */
export interface SendableFile {
  size: number;
  open(range?: { start: number; end: number }): Promise<Readable>;
}

/** Answers with a stored file, whole or one byte range of it. Koa destroys the stream at the end of the response (HEAD included). */
export async function sendFile(ctx: AppContext, file: SendableFile, options: SendFileOptions): Promise<void> {
  const { size } = file;
  // If-Range would need validators we do not issue; RFC 9110 lets us answer it with the whole file.
  const range = ctx.get('If-Range') === '' ? parseRange(ctx.get('Range'), size) : undefined;
  if (range === 'unsatisfiable') throw new RangeNotSatisfiableError(size);
  const { start, end } = range ?? { start: 0, end: size - 1 };
  // Opened before any header is set: a file gone meanwhile is an error answer, not half a success.
  const body = size === 0 ? '' : await file.open({ start, end });
  ctx.set('Accept-Ranges', 'bytes');
  setFileHeaders(ctx, options);
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
  }
  ctx.body = body;
  if (size > 0) ctx.length = end - start + 1;
}

/**
 * Answers with a file still being made (an MP3 streamed as it is first encoded): 200, chunked, no length and no
 * ranges yet. Should the stream fail midway, Koa's pipeline destroys the response: the client sees a download cut
 * short, never a shorter file that looks whole.
 */
export function sendGrowingFile(ctx: AppContext, body: Readable, options: SendFileOptions): void {
  setFileHeaders(ctx, options);
  ctx.body = body;
  // Koa sets no length on a stream: the answer goes chunked.
}

function setFileHeaders(ctx: AppContext, options: SendFileOptions): void {
  ctx.set('Content-Disposition', options.contentDisposition);
  ctx.set('Cache-Control', `private, max-age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = options.contentType;
}
