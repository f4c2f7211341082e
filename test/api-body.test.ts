/** Bad bodies on POST /v1/generate: each gets a 4xx of the one error shape and creates nothing. */
import test from 'ava';
import { errorOf, rawRequest, startApp, type TestApp } from './helpers/app.ts';

async function post(
  app: TestApp,
  key: string,
  body: string | Uint8Array,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
) {
  return rawRequest(app.url, {
    method: 'POST',
    path: '/v1/generate',
    headers: { Authorization: `Bearer ${key}`, ...headers },
    body,
  });
}

async function rejects(t: import('ava').ExecutionContext, body: unknown, param: string, code: string) {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: body });
  t.is(res.status, 400);
  t.like(await errorOf(res), { type: 'invalid_request_error', param, code });
  t.is(app.jobs.queued.length, 0);
}

test('a body that is not JSON is a 400 invalid_json', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await post(app, key, '{"prompt": "x",');
  t.is(res.status, 400);
  t.like(res.json().error, { type: 'invalid_request_error', code: 'invalid_json' });
});

test('an empty body is a 400 body_required', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await post(app, key, '');
  t.is(res.status, 400);
  t.is(res.json().error.code, 'body_required');
});

test('a non-JSON content type is a 400 unsupported_media_type', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) {
    const res = await post(app, key, '{"prompt":"x"}', { 'Content-Type': type });
    t.is(res.status, 400, type);
    t.is(res.json().error.code, 'unsupported_media_type');
  }
});

test('a missing content type is a 400', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await post(app, key, '{"prompt":"x"}', {});
  t.is(res.status, 400);
  t.is(res.json().error.code, 'unsupported_media_type');
});

test('a JSON body that is not an object is a 400', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  for (const body of ['[]', '"prompt"', '42', 'null']) {
    const res = await post(app, key, body);
    t.is(res.status, 400, body);
    t.is(res.json().error.code, 'invalid_type');
  }
});

test('bytes that are not UTF-8 are a 400 invalid_encoding', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await post(
    app,
    key,
    Buffer.concat([Buffer.from('{"prompt":"caf'), Buffer.from([0xe9, 0xff]), Buffer.from('"}')]),
  );
  t.is(res.status, 400);
  t.is(res.json().error.code, 'invalid_encoding');
});

test('JSON nested deeper than 20 levels is a 400 too_deep', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await post(app, key, `{"prompt":"x","style":${'['.repeat(30000)}${']'.repeat(30000)}}`);
  t.is(res.status, 400);
  t.is(res.json().error.code, 'too_deep');
});

test('a body over 64 KiB by Content-Length is a 413 and the connection is closed', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await post(app, key, JSON.stringify({ prompt: 'x'.repeat(70 * 1024) }));
  t.is(res.status, 413);
  t.is(res.json().error.code, 'body_too_large');
  t.is(res.headers.connection, 'close');
});

test('a chunked body that grows over 64 KiB is a 413', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await post(app, key, JSON.stringify({ prompt: 'x'.repeat(70 * 1024) }), {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
  });
  t.is(res.status, 413);
  t.is(res.json().error.code, 'body_too_large');
});

test('a compressed body is a 400', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await post(app, key, '{"prompt":"x"}', {
    'Content-Type': 'application/json',
    'Content-Encoding': 'gzip',
  });
  t.is(res.status, 400);
});

test('an unknown field is a 400 naming it', async (t) => {
  await rejects(t, { prompt: 'x', tempo: 120 }, 'tempo', 'unknown_field');
});

test('a missing prompt is a 400 missing_field', async (t) => {
  await rejects(t, { duration: 60 }, 'prompt', 'missing_field');
});

test('a prompt of only spaces is a 400', async (t) => {
  await rejects(t, { prompt: '   \n ' }, 'prompt', 'out_of_range');
});

test('a prompt over 2000 characters is a 400', async (t) => {
  await rejects(t, { prompt: 'a'.repeat(2001) }, 'prompt', 'out_of_range');
});

test('a prompt of exactly 2000 characters after trimming is accepted', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: { prompt: `  ${'é'.repeat(2000)}  ` } });
  t.is(res.status, 202);
});

test('a prompt with a control character is a 400, while tabs and newlines are fine', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const bad = await app.call(key, '/v1/generate', { json: { prompt: 'lofi\u0000beat' } });
  t.is(bad.status, 400);
  t.like(await errorOf(bad), { param: 'prompt', code: 'invalid_characters' });
  const terminalEscape = await app.call(key, '/v1/generate', { json: { prompt: 'lofi\u001b[31m' } });
  t.is(terminalEscape.status, 400);
  const ok = await app.call(key, '/v1/generate', { json: { prompt: 'lofi\tbeat\nrainy' } });
  t.is(ok.status, 202);
});

test('a prompt with an unpaired surrogate is a 400', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await post(app, key, '{"prompt":"beat \\ud800 x"}');
  t.is(res.status, 400);
  t.is(res.json().error.code, 'invalid_encoding');
});

test('a prompt that is not a string is a 400 invalid_type', async (t) => {
  await rejects(t, { prompt: ['lofi'] }, 'prompt', 'invalid_type');
});

test('a duration given as a string is a 400 invalid_type', async (t) => {
  await rejects(t, { prompt: 'x', duration: '60' }, 'duration', 'invalid_type');
});

test('a duration outside 30–180 is a 400', async (t) => {
  await rejects(t, { prompt: 'x', duration: 29.9 }, 'duration', 'out_of_range');
});

test('a negative duration is a 400', async (t) => {
  await rejects(t, { prompt: 'x', duration: -60 }, 'duration', 'out_of_range');
});

test('a fractional duration within range is accepted', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'x', duration: 90.5 } });
  t.is(res.status, 202);
  t.is((await res.json()).duration, 90.5);
});

test('NaN, Infinity and huge exponents are not JSON numbers we accept', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  for (const body of [
    '{"prompt":"x","duration":NaN}',
    '{"prompt":"x","duration":Infinity}',
    '{"prompt":"x","duration":1e999}',
    '{"prompt":"x","seed":-1}',
  ]) {
    const res = await post(app, key, body);
    t.is(res.status, 400, body);
  }
  t.is(app.jobs.queued.length, 0);
});

test('instrumental that is not a boolean is a 400', async (t) => {
  await rejects(t, { prompt: 'x', instrumental: 'yes' }, 'instrumental', 'invalid_type');
});

test('a seed that is not an integer is a 400', async (t) => {
  await rejects(t, { prompt: 'x', seed: 1.5 }, 'seed', 'invalid_type');
});

test('a seed above 2147483647 is a 400', async (t) => {
  await rejects(t, { prompt: 'x', seed: 2147483648 }, 'seed', 'out_of_range');
});

test('lyrics over 3000 characters are a 400', async (t) => {
  await rejects(t, { prompt: 'x', lyrics: 'la '.repeat(1001) }, 'lyrics', 'out_of_range');
});

test('a style that is not a string is a 400', async (t) => {
  await rejects(t, { prompt: 'x', style: 7 }, 'style', 'invalid_type');
});

test('null in an optional field means "not given"', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', {
    json: {
      prompt: 'x',
      duration: null,
      style: null,
      seed: null,
      lyrics: null,
      callback_url: null,
      instrumental: null,
    },
  });
  t.is(res.status, 202);
  t.like(await res.json(), { duration: 60, style: null, instrumental: false });
});
