import test from 'ava';
import { TokenBucketLimiter } from '../../src/domain/token-bucket.ts';

test('a fresh bucket allows `capacity` requests at once and then refuses', (t) => {
  const limiter = new TokenBucketLimiter({ windowMs: 60_000 });
  for (let i = 0; i < 5; i++) t.true(limiter.take('a', 5, 0).allowed);
  const refused = limiter.take('a', 5, 0);
  t.false(refused.allowed);
  t.is(refused.retryAfterSeconds, 12);
});

test('over any 60 s span no more than capacity + refill get through', (t) => {
  const limiter = new TokenBucketLimiter({ windowMs: 60_000 });
  let allowed = 0;
  // One attempt every 100 ms for 60 s: 10 up front, then one per 6 s.
  for (let ms = 0; ms < 60_000; ms += 100) if (limiter.take('a', 10, ms).allowed) allowed++;
  t.is(allowed, 10 + 9);
});

test('lowering the capacity takes effect at once without a burst', (t) => {
  const limiter = new TokenBucketLimiter({ windowMs: 60_000 });
  limiter.take('a', 600, 0);
  const after = limiter.take('a', 10, 1);
  t.is(after.limit, 10);
  t.is(after.remaining, 9);
});

test('peek does not consume and does not create entries', (t) => {
  const limiter = new TokenBucketLimiter({ windowMs: 60_000 });
  t.true(limiter.peek('x', 1, 0).allowed);
  t.is(limiter.size, 0);
  limiter.take('x', 1, 0);
  t.false(limiter.peek('x', 1, 0).allowed);
});

test('RateLimit-Reset counts the seconds until the bucket is full', (t) => {
  const limiter = new TokenBucketLimiter({ windowMs: 60_000 });
  limiter.take('a', 60, 0);
  const result = limiter.take('a', 60, 0);
  t.is(result.remaining, 58);
  t.is(result.resetSeconds, 2);
});
