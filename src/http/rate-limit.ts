import { limitsFor } from '../domain/plans.ts';
import type { Account } from '../domain/model.ts';
import { RateLimitedError } from '../domain/errors.ts';
import { setRateLimitHeaders } from './rate-limit-headers.ts';
import type { RequestLimiter, TakeResult } from '../domain/token-bucket.ts';
import { authed, type AppMiddleware } from './types.ts';

/** What the account limit needs of the app's services: the bucket, shared with the dashboard's playground, and the clock. */
export interface AccountLimit {
  accountLimiter: RequestLimiter;
  now: () => Date;
}

/**
 * Per-account limit (all of an account's keys share one bucket), on every authenticated /v1 request.
 * It runs before the body is read or the quota is checked, so a refused request was not considered.
 */
export function rateLimit(services: AccountLimit): AppMiddleware {
  return async function limitRate(ctx, next) {
    const result = await takeAccountRequest(services, authed(ctx).account);
    setRateLimitHeaders(ctx, result);
    refuseWhenSpent(result);
    await next();
  };
}

/** Counts one request against the account's bucket, which the API and the dashboard's playground share. */
export async function takeAccountRequest(services: AccountLimit, account: Account): Promise<TakeResult> {
  return await services.accountLimiter.take(account.id, limitsFor(account).rpm, services.now().getTime());
}

export function refuseWhenSpent(result: TakeResult): void {
  if (result.allowed) return;
  throw new RateLimitedError(
    result.retryAfterSeconds,
    'rate_limit_exceeded',
    `This account may make ${result.limit} requests per minute and has used them. Retry in ${result.retryAfterSeconds} s.`,
  );
}
