/** The monthly quota, reserved atomically by the real store. */
import test from 'ava';
import { errorOf, startApp } from './helpers/app.ts';

test('50 parallel creates against a quota of 10 accept exactly 10', async (t) => {
  const app = await startApp(t);
  const { key, account } = await app.account('enterprise', { monthly: 10, rpm: 1000 });
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) => app.call(key, '/v1/generate', { json: { prompt: `track ${i}` } })),
  );
  const statuses = responses.map((r) => r.status);
  t.is(statuses.filter((s) => s === 202).length, 10);
  t.is(statuses.filter((s) => s === 402).length, 40);
  t.is((await app.store.listGenerations(account.id, { limit: 100, offset: 0 })).total, 10);
  t.is(app.jobs.queued.length, 10);
});

test('an exhausted quota is a 402 quota_exceeded with the limit and the reset time', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise', { monthly: 1, rpm: 100 });
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'a' } })).status, 202);
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'b' } });
  t.is(res.status, 402);
  const error = await errorOf(res);
  t.like(error, { type: 'quota_error', code: 'quota_exceeded', limit: 1, resets_at: '2026-04-01T00:00:00.000Z' });
  t.regex(error.message, /2026-04-01/);
});

test('a failed task gives its quota unit back', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise', { monthly: 1, rpm: 100 });
  const { id } = await (await app.call(key, '/v1/generate', { json: { prompt: 'a' } })).json();
  await app.jobs.fail(id);
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'b' } })).status, 202);
});

test('the quota resets with the calendar month (UTC)', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise', { monthly: 1, rpm: 100 });
  app.clock.set('2026-03-31T23:59:00.000Z');
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'a' } })).status, 202);
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'b' } })).status, 402);
  app.clock.set('2026-04-01T00:00:01.000Z');
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'c' } })).status, 202);
});

test("GET /v1/account shows the plan, rate limit and this month's quota use", async (t) => {
  const app = await startApp(t);
  const { key, account } = await app.account('starter');
  await app.call(key, '/v1/generate', { json: { prompt: 'a' } });
  const body = await (await app.call(key, '/v1/account')).json();
  t.like(body, {
    object: 'account',
    id: account.id,
    plan: 'starter',
    plan_label: 'Starter',
    rate_limit: { requests_per_minute: 10 },
    quota: { month: '2026-03', limit: 10, used: 1, remaining: 9, resets_at: '2026-04-01T00:00:00.000Z' },
    webhooks: false,
  });
});

test('an Enterprise account without custom figures has unlimited generations', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise');
  const body = await (await app.call(key, '/v1/account')).json();
  t.like(body, { quota: { limit: null, remaining: null }, rate_limit: { requests_per_minute: 600 }, webhooks: true });
});
