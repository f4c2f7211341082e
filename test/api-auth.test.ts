/** Bearer keys on every /v1 route; throttling of addresses that keep failing. */
import test from 'ava';
import { AUTH_FAILURES_PER_MINUTE } from '../src/http/auth.ts';
import { errorOf, startApp } from './helpers/app.ts';

const V1_ROUTES: [string, string][] = [
  ['POST', '/v1/generate'],
  ['GET', '/v1/generation/gen_x'],
  ['GET', '/v1/generations'],
  ['GET', '/v1/styles'],
  ['GET', '/v1/account'],
  ['GET', '/v1/no-such-route'],
];

test('every /v1 route without a key is a 401 missing_api_key with WWW-Authenticate: Bearer', async (t) => {
  const app = await startApp(t);
  for (const [method, path] of V1_ROUTES) {
    const res = await app.call(null, path, { method });
    t.is(res.status, 401, `${method} ${path}`);
    t.regex(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    t.like(await errorOf(res), { type: 'authentication_error', code: 'missing_api_key' });
  }
});

test('a header that is not "Bearer <key>" is a 401 malformed_api_key', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  for (const header of [`Basic ${key}`, key, 'Bearer', `Bearer ${key} extra`, `Bearer ${'k'.repeat(600)}`]) {
    const res = await fetch(`${app.url}/v1/account`, { headers: { Authorization: header } });
    t.is(res.status, 401, header.slice(0, 30));
    t.is((await errorOf(res)).code, 'malformed_api_key');
  }
});

test('an unknown key is a 401 invalid_api_key', async (t) => {
  const app = await startApp(t);
  const res = await app.call('ts_live_notarealkeyatall000000000000000000000', '/v1/account');
  t.is(res.status, 401);
  t.is((await errorOf(res)).code, 'invalid_api_key');
});

test('a revoked key is a 401 revoked_api_key', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  await app.store.revokeKey((await app.store.findKey(key))!.id);
  const res = await app.call(key, '/v1/account');
  t.is(res.status, 401);
  t.is((await errorOf(res)).code, 'revoked_api_key');
});

test('a valid key is accepted and its last use recorded', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/account');
  t.is(res.status, 200);
  t.is((await app.store.findKey(key))!.last_used_at, app.clock.now().toISOString());
});

test('the scheme name is case-insensitive', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await fetch(`${app.url}/v1/account`, { headers: { Authorization: `bearer ${key}` } });
  t.is(res.status, 200);
});

test('an address that keeps sending bad keys gets 429 with Retry-After for them, while a good key from it still works', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  for (let i = 0; i < AUTH_FAILURES_PER_MINUTE; i++)
    t.is((await app.call(`ts_live_wrong${i}`, '/v1/account')).status, 401);
  const blocked = await app.call('ts_live_wrong', '/v1/account');
  t.is(blocked.status, 429);
  t.like(await errorOf(blocked), { type: 'rate_limit_error', code: 'too_many_failed_authentications' });
  t.true(Number(blocked.headers.get('retry-after')) >= 1);
  t.is((await app.call(key, '/v1/account')).status, 200);
});

test('the failed-authentication throttle lifts as time passes', async (t) => {
  const app = await startApp(t);
  for (let i = 0; i <= AUTH_FAILURES_PER_MINUTE; i++) await app.call('ts_live_wrong', '/v1/account');
  t.is((await app.call('ts_live_wrong', '/v1/account')).status, 429);
  app.clock.advance(60_000 / AUTH_FAILURES_PER_MINUTE);
  t.is((await app.call('ts_live_wrong', '/v1/account')).status, 401);
});

test('routes outside /v1 that are public need no key', async (t) => {
  const app = await startApp(t);
  t.is((await fetch(`${app.url}/healthz`)).status, 200);
});

test('a differently spelled /v1 path does not reach a handler without a key', async (t) => {
  const app = await startApp(t);
  for (const path of ['/V1/account', '/v1//account', '/%761/account', '/v1/account/']) {
    const res = await fetch(`${app.url}${path}`);
    t.true(res.status === 401 || res.status === 404, `${path}: ${res.status}`);
    t.truthy((await errorOf(res)).code);
  }
});

test('401 answers carry RateLimit headers for the failed-authentication budget of the address', async (t) => {
  const app = await startApp(t);
  const res = await app.call('ts_live_wrong', '/v1/account');
  t.is(res.status, 401);
  t.is(res.headers.get('ratelimit-limit'), String(AUTH_FAILURES_PER_MINUTE));
  t.is(res.headers.get('ratelimit-remaining'), String(AUTH_FAILURES_PER_MINUTE - 1));
});
