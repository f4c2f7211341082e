/** The per-account rate limit: a token bucket, so no burst slips through at a minute boundary. */
import test from 'ava';
import { errorOf, startApp } from './helpers/app.ts';

test('every /v1 response carries RateLimit-Limit, -Remaining and -Reset', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('developer');
  const first = await app.call(key, '/v1/account');
  t.is(first.headers.get('ratelimit-limit'), '60');
  t.is(first.headers.get('ratelimit-remaining'), '59');
  t.is(first.headers.get('ratelimit-reset'), '1');
  const missing = await app.call(key, '/v1/generation/gen_nope');
  t.is(missing.status, 404);
  t.is(missing.headers.get('ratelimit-remaining'), '58');
});

test('the starter plan allows 10 requests, then answers 429 with Retry-After', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  for (let i = 0; i < 10; i++) t.is((await app.call(key, '/v1/styles')).status, 200);
  const res = await app.call(key, '/v1/styles');
  t.is(res.status, 429);
  t.like(await errorOf(res), { type: 'rate_limit_error', code: 'rate_limit_exceeded' });
  t.is(res.headers.get('retry-after'), '6');
  t.is(res.headers.get('ratelimit-remaining'), '0');
});

test('no burst at the minute boundary: after 10 requests at :59.9 the request at :00.1 is refused', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  app.clock.set('2026-03-15T12:00:59.900Z');
  for (let i = 0; i < 10; i++) t.is((await app.call(key, '/v1/styles')).status, 200);
  app.clock.set('2026-03-15T12:01:00.100Z');
  t.is((await app.call(key, '/v1/styles')).status, 429);
});

test('tokens come back one per (60 s / limit), not all at once', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  for (let i = 0; i < 10; i++) await app.call(key, '/v1/styles');
  app.clock.advance(6_000);
  t.is((await app.call(key, '/v1/styles')).status, 200);
  t.is((await app.call(key, '/v1/styles')).status, 429);
  app.clock.advance(60_000);
  let allowed = 0;
  for (let i = 0; i < 15; i++) if ((await app.call(key, '/v1/styles')).status === 200) allowed++;
  t.is(allowed, 10);
});

test('all keys of one account share one limit', async (t) => {
  const app = await startApp(t);
  const { key, account } = await app.account('starter');
  const { key: second } = await app.store.createKey(account.id, 'second');
  for (let i = 0; i < 5; i++) await app.call(key, '/v1/styles');
  for (let i = 0; i < 5; i++) t.is((await app.call(second, '/v1/styles')).status, 200);
  t.is((await app.call(second, '/v1/styles')).status, 429);
  t.is((await app.call(key, '/v1/styles')).status, 429);
});

test('one account at its limit does not limit another', async (t) => {
  const app = await startApp(t);
  const a = await app.account('starter');
  const b = await app.account('starter');
  for (let i = 0; i < 11; i++) await app.call(a.key, '/v1/styles');
  t.is((await app.call(b.key, '/v1/styles')).status, 200);
});

test("an Enterprise account's custom rpm is its limit", async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise', { rpm: 3 });
  const res = await app.call(key, '/v1/styles');
  t.is(res.headers.get('ratelimit-limit'), '3');
  await app.call(key, '/v1/styles');
  await app.call(key, '/v1/styles');
  t.is((await app.call(key, '/v1/styles')).status, 429);
});

test('when both the rate limit and the quota are spent, 429 wins', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  for (let i = 0; i < 10; i++) t.is((await app.call(key, '/v1/generate', { json: { prompt: `p${i}` } })).status, 202);
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'one more' } });
  t.is(res.status, 429);
  app.clock.advance(6_000);
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'one more' } })).status, 402);
});
