import { AuthenticationError, RateLimitedError } from '../domain/errors.ts';
import { setRateLimitHeaders } from './rate-limit-headers.ts';
import { TokenBucketLimiter } from '../domain/token-bucket.ts';
import type { AppContext, AppMiddleware } from './types.ts';
import type { Accounts } from '../domain/accounts.ts';

/** Failed authentications one address may make per minute before it is refused outright. */
export const AUTH_FAILURES_PER_MINUTE = 20;

// RFC 6750 b64token, with a length cap so a huge header is refused before any hashing.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,512}=*)$/i;

function presentedSecret(ctx: AppContext): string {
  const header = ctx.get('Authorization');
  if (header === '') throw new AuthenticationError('missing_api_key');
  const match = BEARER.exec(header);
  if (!match?.[1]) throw new AuthenticationError('malformed_api_key');
  return match[1];
}

/**
 * Bearer-key authentication for /v1. An address that keeps presenting bad keys gets 429 instead of 401 for
 * them, which slows guessing and log noise; a good key from the same address (people behind one NAT) still
 * works, because a sha256 lookup costs next to nothing and locking out a valid key helps no one.
 */
export function authenticate(services: { accounts: Pick<Accounts, 'authenticate'>; now: () => Date }): AppMiddleware {
  const failures = new TokenBucketLimiter({ windowMs: 60_000 });
  return async function authenticateRequest(ctx, next) {
    try {
      const secret = presentedSecret(ctx);
      const { account, key } = await services.accounts.authenticate(secret);
      ctx.state.apiKey = key;
      ctx.state.account = account;
    } catch (err) {
      if (err instanceof AuthenticationError) throttleFailure(ctx, failures, services.now().getTime());
      throw err;
    }
    await next();
  };
}

/** Counts a failed authentication against the address, or refuses it with 429 once the budget is spent. */
function throttleFailure(ctx: AppContext, failures: TokenBucketLimiter, nowMs: number): void {
  const budget = failures.peek(ctx.ip, AUTH_FAILURES_PER_MINUTE, nowMs);
  if (!budget.allowed) {
    setRateLimitHeaders(ctx, budget);
    throw new RateLimitedError(
      budget.retryAfterSeconds,
      'too_many_failed_authentications',
      `Too many requests with a missing or invalid API key came from this address. Wait ${budget.retryAfterSeconds} s and retry with a valid key.`,
    );
  }
  setRateLimitHeaders(ctx, failures.take(ctx.ip, AUTH_FAILURES_PER_MINUTE, nowMs));
}
