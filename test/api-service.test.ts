/** /healthz, /v1/styles and /v1/openapi.json. */
import test from 'ava';
import { errorOf, startApp } from './helpers/app.ts';

test('GET /healthz is 200 without a key while the store and the pool are up', async (t) => {
  const app = await startApp(t);
  const res = await fetch(`${app.url}/healthz`);
  t.is(res.status, 200);
  t.deepEqual(await res.json(), { status: 'ok', store: 'up', workers: 'up' });
});

test('GET /healthz is 503 naming the worker pool when it is down', async (t) => {
  const app = await startApp(t);
  app.jobs.up = false;
  const res = await fetch(`${app.url}/healthz`);
  t.is(res.status, 503);
  const error = await errorOf(res);
  t.like(error, { type: 'service_unavailable_error' });
  t.regex(error.message, /worker pool/);
});

test('GET /healthz is 503 naming the store when it is closed', async (t) => {
  const app = await startApp(t);
  await app.store.close();
  const res = await fetch(`${app.url}/healthz`);
  t.is(res.status, 503);
  t.regex((await errorOf(res)).message, /store/);
});

test('GET /v1/styles lists every style the engine publishes with its description', async (t) => {
  const styles = [
    { name: 'lofi', description: 'Dusty, mellow hip hop beats.' },
    { name: 'jazz', description: 'Swung.' },
  ];
  const app = await startApp(t, { styles });
  const { key } = await app.account();
  const body = await (await app.call(key, '/v1/styles')).json();
  t.deepEqual(body, { object: 'list', data: styles.map((s) => ({ object: 'style', ...s, custom: false })) });
});

test('GET /v1/styles from the real presets includes lofi with a one-line description', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const body = await (await app.call(key, '/v1/styles')).json();
  const lofi = body.data.find((s: { name: string }) => s.name === 'lofi');
  t.truthy(lofi);
  t.false(lofi.description.includes('\n'));
  t.true(lofi.description.length > 0);
});

test('a create while the store is closing is a 503 shutting_down with Retry-After', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  await app.store.close();
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'x' } });
  t.is(res.status, 503);
  t.is(res.headers.get('retry-after'), '5');
  t.like(await errorOf(res), { type: 'service_unavailable_error', code: 'shutting_down' });
});
