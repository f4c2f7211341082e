import test from 'ava';
import { errorOf, startApp } from './helpers/app.ts';

const valid = {
  prompt: 'a calm lofi beat for a rainy night',
  duration: 45,
  style: 'lofi',
  instrumental: true,
  seed: 42,
};

test('POST /v1/generate answers 202 with a Location and a processing generation', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: valid });
  t.is(res.status, 202);
  const body = await res.json();
  t.is(res.headers.get('location'), `/v1/generation/${body.id}`);
  t.like(body, {
    object: 'generation',
    status: 'processing',
    prompt: valid.prompt,
    duration: 45,
    style: 'lofi',
    instrumental: true,
    seed: 42,
  });
  t.is(typeof body.estimated_time, 'number');
  t.is(body.queue_position, 0);
  t.is(typeof body.progress, 'number');
  t.is(body.completed_at, null);
  t.false('download_urls' in body);
  t.false('error' in body);
});

test('POST /v1/generate queues the accepted task', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const body = await (await app.call(key, '/v1/generate', { json: valid })).json();
  t.deepEqual(
    app.jobs.queued.map((g) => g.id),
    [body.id],
  );
});

test('POST /v1/generate keeps the request id with the task, so its render can be traced to the request', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const body = await (
    await app.call(key, '/v1/generate', { json: valid, headers: { 'X-Request-Id': 'client-trace-0001' } })
  ).json();
  t.is((await app.store.getGeneration(account.id, body.id))?.request_id, 'client-trace-0001');
});

test('POST /v1/generate fills defaults: duration 60, style null, instrumental false, a random recorded seed', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const body = await (await app.call(key, '/v1/generate', { json: { prompt: '  dreamy synthwave  ' } })).json();
  t.like(body, { prompt: 'dreamy synthwave', duration: 60, style: null, instrumental: false });
  t.true(Number.isInteger(body.seed) && body.seed >= 0 && body.seed <= 2147483647);
  const stored = await (await app.call(key, `/v1/generation/${body.id}`)).json();
  t.is(stored.seed, body.seed);
});

test('POST /v1/generate matches a style name regardless of case and returns the engine spelling', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const body = await (await app.call(key, '/v1/generate', { json: { prompt: 'x beat', style: 'LoFi' } })).json();
  t.is(body.style, 'lofi');
});

test('POST /v1/generate refuses an unknown style with 400 listing the allowed names', async (t) => {
  const app = await startApp(t, {
    styles: [
      { name: 'lofi', description: 'd' },
      { name: 'jazz', description: 'd' },
    ],
  });
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'x', style: 'polka' } });
  t.is(res.status, 400);
  const error = await errorOf(res);
  t.like(error, { type: 'invalid_request_error', code: 'unknown_style', param: 'style' });
  t.regex(error.message, /lofi, jazz/);
});

test('POST /v1/generate keeps lyrics when sung and shows them on the generation', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const body = await (
    await app.call(key, '/v1/generate', { json: { prompt: 'pop song', lyrics: 'la la la\nhey' } })
  ).json();
  t.is(body.lyrics, 'la la la\nhey');
});

test('POST /v1/generate refuses lyrics with instrumental true', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'pop', lyrics: 'la', instrumental: true } });
  t.is(res.status, 400);
  t.like(await errorOf(res), { param: 'lyrics', code: 'conflicting_fields' });
});

test('POST /v1/generate accepts a callback_url on Developer and stores it', async (t) => {
  const app = await startApp(t);
  const { key, account } = await app.account('developer');
  const body = await (
    await app.call(key, '/v1/generate', { json: { prompt: 'x', callback_url: 'https://example.com/hook' } })
  ).json();
  t.is((await app.store.getGeneration(account.id, body.id))?.callback_url, 'https://example.com/hook');
});

test('a callback_url with a line break in it is stored as the URL parser reads it, without the raw CR/LF', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account('developer');
  const res = await app.call(key, '/v1/generate', {
    json: { prompt: 'x', callback_url: 'https://example.com/ho\r\nok' },
  });
  t.is(res.status, 202, await res.clone().text());
  const stored = (await app.store.getGeneration(account.id, (await res.json()).id))?.callback_url;
  t.is(stored, 'https://example.com/hook');
});

test('POST /v1/generate refuses a callback_url on Starter with 403 naming the plan', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'x', callback_url: 'https://example.com/hook' } });
  t.is(res.status, 403);
  const error = await errorOf(res);
  t.like(error, { type: 'permission_error', code: 'plan_forbidden', param: 'callback_url' });
  t.regex(error.message, /Starter/);
  t.is(app.jobs.queued.length, 0);
});

test('POST /v1/generate refuses a non-http callback_url', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('developer');
  for (const callback_url of [
    'ftp://example.com/x',
    'not a url',
    'https://user:pw@example.com/',
    `https://example.com/${'a'.repeat(2048)}`,
  ]) {
    const res = await app.call(key, '/v1/generate', { json: { prompt: 'x', callback_url } });
    t.is(res.status, 400, callback_url.slice(0, 40));
    t.is((await errorOf(res)).param, 'callback_url');
  }
});
