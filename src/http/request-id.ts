import { randomBytes } from 'node:crypto';
import type { AppMiddleware } from './types.ts';

/** A caller's own id is echoed when it is short and plain, so it can be followed through their logs too. */
const SAFE_INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

// Request ids need to be unique, not secret: a random per-process prefix and a counter are enough,
// and spare a call into the CSPRNG on every request.
const PROCESS_PREFIX = randomBytes(6).toString('base64url');
let counter = 0;

export function newRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `req_${PROCESS_PREFIX}${counter.toString(36).padStart(6, '0')}`;
}

/** Outermost middleware: every response, error or not, carries X-Request-Id. */
export function requestId(): AppMiddleware {
  return async function assignRequestId(ctx, next) {
    const incoming = ctx.get('X-Request-Id');
    ctx.state.requestId = SAFE_INCOMING_ID.test(incoming) ? incoming : newRequestId();
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
