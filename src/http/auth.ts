import { AuthenticationError, RateLimitedError } from './errors.ts';
import { setRateLimitHeaders } from './rate-limit-headers.ts';
import { TokenBucketLimiter } from './token-bucket.ts';
import type { AppContext, AppMiddleware, Services } from './types.ts';

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
 * Bearer-key authentication for /v1. An address that keeps presenting bad keys is throttled before its
 * keys are even looked at, so guessing costs the server nothing.
 */
export function authenticate(services: Services): AppMiddleware {
  const failures = new TokenBucketLimiter({ windowMs: 60_000 });
  return async function authenticateRequest(ctx, next) {
    const nowMs = services.now().getTime();
    // Nobody has failed lately (the usual case): no address to look up.
    const budget = failures.size === 0 ? undefined : failures.peek(ctx.ip, AUTH_FAILURES_PER_MINUTE, nowMs);
    if (budget && !budget.allowed) {
      setRateLimitHeaders(ctx, budget);
      throw new RateLimitedError(
        budget.retryAfterSeconds,
        'too_many_failed_authentications',
        `Too many requests with a missing or invalid API key came from this address. Wait ${budget.retryAfterSeconds} s and retry with a valid key.`,
      );
    }
    try {
      const secret = presentedSecret(ctx);
      const key = services.store.findKey(secret);
      if (!key) throw new AuthenticationError('invalid_api_key');
      if (key.revoked_at !== null) throw new AuthenticationError('revoked_api_key');
      const account = services.store.getAccount(key.account_id);
      if (!account) throw new AuthenticationError('invalid_api_key');
      services.store.touchKey(key.id, services.now());
      ctx.state.apiKey = key;
      ctx.state.account = account;
    } catch (err) {
      if (err instanceof AuthenticationError) setRateLimitHeaders(ctx, failures.take(ctx.ip, AUTH_FAILURES_PER_MINUTE, nowMs));
      throw err;
    }
    await next();
  };
}
