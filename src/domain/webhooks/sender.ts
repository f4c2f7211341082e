/**
 * One webhook attempt: a POST to the checked, pinned address with a time limit, no redirects followed,
 * and the answer's body read up to a small cap and thrown away (only the status matters).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './url-safety.ts';

export interface AttemptResult {
  /** The receiver's status, or null when there was none (timeout, refused connection, …). */
  statusCode: number | null;
  latencyMs: number;
  /** Why it did not count as delivered, or null for a 2xx. */
  error: string | null;
}

export interface SendOptions {
  url: string;
  /** Where to connect: the address the safety check approved (the URL's host still goes in Host and SNI). */
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Enough to see an error page's first lines; the rest is not read. */
const BODY_CAP_BYTES = 4 * 1024;

/** A lookup that answers the pinned address whatever name it is asked (net calls it with all: true on Node 20). */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

export function sendAttempt(options: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const url = new URL(options.url);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ statusCode, latencyMs: Math.round(performance.now() - started), error });
    };
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: pinnedLookup(options.address),
        headers: {
          ...options.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(options.body),
          'user-agent': 'Tunesmith-Webhooks/1',
        },
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= BODY_CAP_BYTES) {
            res.destroy();
            done();
          }
        });
        const done = () => finish(status, status >= 200 && status < 300 ? null : describeStatus(status));
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      },
    );
    const timer = setTimeout(() => {
      finish(null, `no answer within ${options.timeoutMs / 1000} s`);
      req.destroy();
    }, options.timeoutMs);
    const onAbort = () => {
      finish(null, 'the server shut down during the attempt');
      req.destroy();
    };
    options.signal?.addEventListener('abort', onAbort);
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish(null, error.code ? `${error.code}: ${error.message}` : error.message),
    );
    req.end(options.body);
  });
}

function describeStatus(status: number): string {
  if (status >= 300 && status < 400) return `HTTP ${status}: redirects are not followed`;
  return `HTTP ${status}`;
}
