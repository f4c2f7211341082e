import type { AppContext } from './types.ts';
import type { TakeResult } from '../domain/token-bucket.ts';

/** RateLimit-* as in the IETF httpapi draft: the limit per minute, what is left, seconds until full again. */
export function setRateLimitHeaders(ctx: AppContext, result: TakeResult): void {
  ctx.set('RateLimit-Limit', String(result.limit));
  ctx.set('RateLimit-Remaining', String(result.remaining));
  ctx.set('RateLimit-Reset', String(result.resetSeconds));
}
