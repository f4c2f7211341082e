/**
 * A token bucket per key: `capacity` tokens, refilled continuously at `capacity` per `windowMs`.
 * Unlike a fixed window it never lets 2 × capacity through around a window edge: after a burst
 * the next request waits for one token's worth of time (windowMs / capacity).
 */
export interface TakeResult {
  allowed: boolean;
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one token is available (0 when allowed). */
  retryAfterSeconds: number;
}

export interface Bucket {
  tokens: number;
  /** Epoch ms the tokens were counted at. */
  at: number;
  capacity: number;
}

/**
 * Counts requests per key (an account id) against a per-minute capacity. The in-memory TokenBucketLimiter below
 * is one process's; PostgresLimiter (src/store/postgres/rate-limit.ts) is shared by every API node on a database.
 */
export interface RequestLimiter {
  /** Consumes one token when one is available. */
  take(key: string, capacity: number, nowMs: number): TakeResult | Promise<TakeResult>;
}

/** What a bucket holding `tokens` of `capacity`, refilled over `windowMs`, tells the client. */
export function describeBucket(tokens: number, capacity: number, windowMs: number, allowed: boolean): TakeResult {
  const msPerToken = windowMs / capacity;
  const missing = capacity - tokens;
  return {
    allowed,
    limit: capacity,
    remaining: Math.floor(tokens),
    resetSeconds: Math.ceil((missing * msPerToken) / 1000),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(((1 - tokens) * msPerToken) / 1000)),
  };
}

const SWEEP_EVERY = 10_000;
/** The accounts' limits are per minute. */
export const ACCOUNT_WINDOW_MS = 60_000;

export class TokenBucketLimiter implements RequestLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #windowMs: number;
  #sinceSweep = 0;

  readonly #onTake: () => void;

  constructor(options: { windowMs: number; buckets?: Iterable<[string, Bucket]>; onTake?: () => void }) {
    this.#windowMs = options.windowMs;
    this.#onTake = options.onTake ?? (() => undefined);
    for (const [key, bucket] of options.buckets ?? []) this.#buckets.set(key, { ...bucket });
  }

  /** Consumes one token when one is available. */
  take(key: string, capacity: number, nowMs: number): TakeResult {
    const bucket = this.#refilled(key, capacity, nowMs);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.#maybeSweep(nowMs);
    this.#onTake();
    return this.#describe(bucket, allowed);
  }

  /** The buckets not yet full again at `nowMs`: all a restart needs to carry on where this one stopped. */
  spent(nowMs: number): [string, Bucket][] {
    return [...this.#buckets].filter(
      ([, bucket]) => bucket.tokens + ((nowMs - bucket.at) * bucket.capacity) / this.#windowMs < bucket.capacity,
    );
  }

  /** The state without consuming anything. */
  peek(key: string, capacity: number, nowMs: number): TakeResult {
    // Unknown keys are full: answer without creating an entry for every caller that is only looked at.
    const bucket = this.#buckets.has(key)
      ? this.#refilled(key, capacity, nowMs)
      : { tokens: capacity, at: nowMs, capacity };
    return this.#describe(bucket, bucket.tokens >= 1);
  }

  #refilled(key: string, capacity: number, nowMs: number): Bucket {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      bucket = { tokens: capacity, at: nowMs, capacity };
      this.#buckets.set(key, bucket);
      return bucket;
    }
    const elapsed = Math.max(0, nowMs - bucket.at);
    // A plan change takes effect at once, without handing out the difference as a burst.
    bucket.capacity = capacity;
    bucket.tokens = Math.min(capacity, bucket.tokens + (elapsed * capacity) / this.#windowMs);
    bucket.at = Math.max(bucket.at, nowMs);
    return bucket;
  }

  #describe(bucket: Bucket, allowed: boolean): TakeResult {
    return describeBucket(bucket.tokens, bucket.capacity, this.#windowMs, allowed);
  }

  /** Full buckets carry no information: drop them now and then so idle keys do not pile up. */
  #maybeSweep(nowMs: number): void {
    if (++this.#sinceSweep < SWEEP_EVERY) return;
    this.#sinceSweep = 0;
    for (const [key, bucket] of this.#buckets) {
      const refilled = bucket.tokens + ((nowMs - bucket.at) * bucket.capacity) / this.#windowMs;
      if (refilled >= bucket.capacity) this.#buckets.delete(key);
    }
  }

  get size(): number {
    return this.#buckets.size;
  }
}
