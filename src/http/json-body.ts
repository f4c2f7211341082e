/**
 * Reads a request body as one JSON object. Written here rather than taken from koa-body because we need
 * what it does not do: refuse invalid UTF-8 instead of replacing it, refuse deep nesting before
 * parsing, and refuse an oversized body from its Content-Length before reading a byte.
 */
import { BodyTooLargeError, MalformedBodyError } from './errors.ts';
import { ValidationError } from '../domain/errors.ts';
import type { AppContext } from './types.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;
export const MAX_JSON_DEPTH = 20;

export async function readJsonObject(ctx: AppContext, limitBytes = BODY_LIMIT_BYTES): Promise<Record<string, unknown>> {
  assertJsonContentType(ctx);
  const declared = ctx.get('Content-Length');
  if (declared !== '' && Number(declared) > limitBytes) throw new BodyTooLargeError(limitBytes);
  if (declared === '' && ctx.get('Transfer-Encoding') === '') throw emptyBody();

  const bytes = await readCapped(ctx, limitBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new MalformedBodyError('invalid_encoding', 'The request body is not valid UTF-8. Encode the JSON as UTF-8.');
  }
  if (text.trim() === '') throw emptyBody();
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    throw new MalformedBodyError(
      'too_deep',
      `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep. Send a flat object.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const detail = err instanceof SyntaxError ? ` (${err.message})` : '';
    throw new MalformedBodyError('invalid_json', `The request body is not valid JSON${detail}. Send a JSON object.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(
      undefined,
      'The request body must be a JSON object, like {"prompt": "..."}.',
      'invalid_type',
    );
  }
  return value as Record<string, unknown>;
}

function emptyBody(): MalformedBodyError {
  return new MalformedBodyError(
    'body_required',
    'The request body is empty. Send a JSON object, like {"prompt": "..."}.',
  );
}

function assertJsonContentType(ctx: AppContext): void {
  const [mediaType = '', ...params] = ctx
    .get('Content-Type')
    .split(';')
    .map((part) => part.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (mediaType !== 'application/json' || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw new MalformedBodyError(
      'unsupported_media_type',
      'The body must be JSON: send it with "Content-Type: application/json".',
    );
  }
  const encoding = ctx.get('Content-Encoding').toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw new MalformedBodyError(
      'unsupported_media_type',
      `Compressed bodies (Content-Encoding: ${encoding}) are not accepted. Send the JSON uncompressed.`,
    );
  }
}

/** Stops at the limit without draining the rest; the error handler closes the connection after a 413. */
function readCapped(ctx: AppContext, limitBytes: number): Promise<Buffer> {
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) {
        cleanup();
        req.pause();
        reject(new BodyTooLargeError(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, received));
    };
    const onError = () => {
      cleanup();
      reject(
        new ValidationError(
          undefined,
          'The request body could not be read to its end. Send it again.',
          'body_incomplete',
        ),
      );
    };
    const onAborted = onError;
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/** True when brackets nest deeper than `max` (brackets inside strings do not count). Linear, no recursion. */
export function exceedsDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}
