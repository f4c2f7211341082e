import { randomBytes } from 'node:crypto';
import type { AppMiddleware } from './types.ts';

/** A caller's own id is echoed when it is short and plain, so it can be followed through their logs too. */
const SAFE_INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
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
