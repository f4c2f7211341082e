import { limitsFor } from '../plans.ts';
import { RateLimitedError } from './errors.ts';
import { setRateLimitHeaders } from './rate-limit-headers.ts';
import { TokenBucketLimiter } from './token-bucket.ts';
import { authed, type AppMiddleware, type Services } from './types.ts';

/**
 * Per-account limit (all of an account's keys share one bucket), on every authenticated /v1 request.
 * It runs before the body is read or the quota is checked, so a refused request was not considered.
 */
export function rateLimit(services: Services): AppMiddleware {
  const buckets = new TokenBucketLimiter({ windowMs: 60_000 });
  return async function limitRate(ctx, next) {
    const { account } = authed(ctx);
    const result = buckets.take(account.id, limitsFor(account).rpm, services.now().getTime());
    setRateLimitHeaders(ctx, result);
    if (!result.allowed) {
      throw new RateLimitedError(
        result.retryAfterSeconds,
        'rate_limit_exceeded',
        `This account may make ${result.limit} requests per minute and has used them. Retry in ${result.retryAfterSeconds} s.`,
      );
    }
    await next();
  };
}
