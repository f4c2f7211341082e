/** The production retry schedule: at least 24 h of retries even when every jittered wait comes out short. */
import test from 'ava';
import { RETRY_JITTER, RETRY_SCHEDULE_MS, retryDelay } from '../src/domain/webhooks/schedule.ts';

test('the retries span at least 24 hours at the shortest jitter', (t) => {
  let total = 0;
  for (let failed = 1; ; failed++) {
    const wait = retryDelay(failed, RETRY_SCHEDULE_MS, RETRY_JITTER, () => 0);
    if (wait === null) break;
    total += wait;
  }
  t.true(total >= 24 * 3600 * 1000, `${total / 3600_000} h`);
});

test('the first retry comes after 5 s ±20 %, and waits grow', (t) => {
  t.is(
    retryDelay(1, RETRY_SCHEDULE_MS, RETRY_JITTER, () => 0.5),
    5_000,
  );
  t.is(
    retryDelay(1, RETRY_SCHEDULE_MS, RETRY_JITTER, () => 0),
    4_000,
  );
  t.is(
    retryDelay(1, RETRY_SCHEDULE_MS, RETRY_JITTER, () => 1),
    6_000,
  );
  for (let i = 1; i < RETRY_SCHEDULE_MS.length; i++) t.true(RETRY_SCHEDULE_MS[i]! >= RETRY_SCHEDULE_MS[i - 1]!);
  t.is(retryDelay(RETRY_SCHEDULE_MS.length + 1, RETRY_SCHEDULE_MS, RETRY_JITTER), null);
});
