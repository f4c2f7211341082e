/** Idempotency-Key on POST /v1/generate. */
import test from 'ava';
import { errorOf, startApp } from './helpers/app.ts';

test('the same key and body return the first generation and create nothing', async (t) => {
  const app = await startApp(t);
  const { key, account } = await app.account();
  const headers = { 'Idempotency-Key': 'order-123' };
  const first = await app.call(key, '/v1/generate', { json: { prompt: 'lofi' }, headers });
  const again = await app.call(key, '/v1/generate', { json: { prompt: 'lofi' }, headers });
  t.is(first.status, 202);
  t.is(again.status, 202);
  const [a, b] = [await first.json(), await again.json()];
  t.is(b.id, a.id);
  t.is(b.seed, a.seed);
  t.is(again.headers.get('location'), first.headers.get('location'));
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 1);
  t.is(app.jobs.queued.length, 1);
});

test('key order and whitespace do not make a retry a different body', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const headers = { 'Idempotency-Key': 'k1', 'Content-Type': 'application/json', Authorization: `Bearer ${key}` };
  const first = await fetch(`${app.url}/v1/generate`, {
    method: 'POST',
    headers,
    body: '{"prompt":"lofi","duration":40}',
  });
  const again = await fetch(`${app.url}/v1/generate`, {
    method: 'POST',
    headers,
    body: '{ "duration": 40,\n "prompt": "lofi" }',
  });
  t.is((await again.json()).id, (await first.json()).id);
});

test('parallel retries with one key create one generation', async (t) => {
  const app = await startApp(t);
  const { key, account } = await app.account('enterprise');
  const responses = await Promise.all(
    Array.from({ length: 10 }, () =>
      app.call(key, '/v1/generate', { json: { prompt: 'lofi' }, headers: { 'Idempotency-Key': 'same' } }),
    ),
  );
  const ids = new Set(await Promise.all(responses.map(async (r) => (await r.json()).id)));
  t.is(ids.size, 1);
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 1);
});

test('the same key with a different body is a 409', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const headers = { 'Idempotency-Key': 'order-123' };
  await app.call(key, '/v1/generate', { json: { prompt: 'lofi' }, headers });
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'jazz' }, headers });
  t.is(res.status, 409);
  t.like(await errorOf(res), { type: 'conflict_error', code: 'idempotency_key_reused', param: 'Idempotency-Key' });
});

test('after 24 hours the same key creates a new generation', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const headers = { 'Idempotency-Key': 'order-123' };
  const a = await (await app.call(key, '/v1/generate', { json: { prompt: 'lofi' }, headers })).json();
  app.clock.advance(24 * 3600 * 1000 + 1000);
  const b = await (await app.call(key, '/v1/generate', { json: { prompt: 'lofi' }, headers })).json();
  t.not(b.id, a.id);
});

test('keys are per account', async (t) => {
  const app = await startApp(t);
  const one = await app.account();
  const two = await app.account();
  const headers = { 'Idempotency-Key': 'shared' };
  const a = await (await app.call(one.key, '/v1/generate', { json: { prompt: 'lofi' }, headers })).json();
  const b = await app.call(two.key, '/v1/generate', { json: { prompt: 'lofi' }, headers });
  t.is(b.status, 202);
  t.not((await b.json()).id, a.id);
});

test('an Idempotency-Key over 255 characters or with non-printable characters is a 400', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  for (const value of ['k'.repeat(256), 'tab\there']) {
    const res = await app.call(key, '/v1/generate', {
      json: { prompt: 'lofi' },
      headers: { 'Idempotency-Key': value },
    });
    t.is(res.status, 400);
    t.like(await errorOf(res), { param: 'Idempotency-Key', code: 'invalid_idempotency_key' });
  }
  t.is(app.jobs.queued.length, 0);
});

test('a replay does not spend quota', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise', { monthly: 1, rpm: 100 });
  const headers = { 'Idempotency-Key': 'once' };
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'a' }, headers })).status, 202);
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'a' }, headers })).status, 202);
});
