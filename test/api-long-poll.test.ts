/** GET /v1/generation/:id?wait=N: answers when the status changes or N seconds pass, as one request. */
import test from 'ava';
import type { Repository as Store } from '../src/store/repository.ts';
import { errorOf, startApp, type TestApp } from './helpers/app.ts';

/** A store that says when a long poll has started watching, so a test changes the task only after that. */
function watchedStore() {
  let watching: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (watching = resolve));
  const wrap = (store: Store): Store =>
    new Proxy(store, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop === 'watchGeneration') {
          return (...args: Parameters<Store['watchGeneration']>) => {
            const stop = target.watchGeneration(...args);
            watching();
            return stop;
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return { wrap, started };
}

async function create(app: TestApp, key: string): Promise<string> {
  return (await (await app.call(key, '/v1/generate', { json: { prompt: 'lofi' } })).json()).id;
}

test('a long poll answers as soon as the status changes', async (t) => {
  const store = watchedStore();
  const app = await startApp(t, { wrapStore: store.wrap });
  const { key } = await app.account();
  const id = await create(app, key);
  const started = Date.now();
  const polled = app.call(key, `/v1/generation/${id}?wait=60`);
  await store.started;
  await app.jobs.complete(id);
  const res = await polled;
  t.is(res.status, 200);
  t.is((await res.json()).status, 'completed');
  t.true(Date.now() - started < 30_000);
});

test('a long poll on a task whose status does not change answers after N seconds, as it is', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await create(app, key);
  const started = Date.now();
  const res = await app.call(key, `/v1/generation/${id}?wait=1`);
  t.true(Date.now() - started >= 1000);
  t.like(await res.json(), { id, status: 'processing' });
});

test('a long poll on a finished task answers at once', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await create(app, key);
  await app.jobs.complete(id);
  const started = Date.now();
  await (await app.call(key, `/v1/generation/${id}?wait=60`)).arrayBuffer();
  t.true(Date.now() - started < 30_000);
});

test('a long poll counts once against the rate limit', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  const id = await create(app, key);
  const before = Number((await app.call(key, '/v1/account')).headers.get('ratelimit-remaining'));
  const polled = await app.call(key, `/v1/generation/${id}?wait=1`);
  t.is(Number(polled.headers.get('ratelimit-remaining')), before - 1);
});

test('a cancel wakes a long poll', async (t) => {
  const store = watchedStore();
  const app = await startApp(t, { wrapStore: store.wrap });
  const { key } = await app.account();
  const id = await create(app, key);
  const polled = app.call(key, `/v1/generation/${id}?wait=60`);
  await store.started;
  await app.call(key, `/v1/generation/${id}/cancel`, { method: 'POST' });
  t.like(await (await polled).json(), { status: 'failed', error: { code: 'cancelled' } });
});

test('a long poll answers at once, as it is, when the server starts to shut down', async (t) => {
  const store = watchedStore();
  const shutdown = new AbortController();
  const app = await startApp(t, { wrapStore: store.wrap, shutdown: shutdown.signal });
  const { key } = await app.account();
  const id = await create(app, key);
  const started = Date.now();
  const polled = app.call(key, `/v1/generation/${id}?wait=60`);
  await store.started;
  shutdown.abort();
  t.like(await (await polled).json(), { id, status: 'processing' });
  t.true(Date.now() - started < 30_000);
});

test('wait above 60 seconds is a 400 out_of_range', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await create(app, key);
  const res = await app.call(key, `/v1/generation/${id}?wait=61`);
  t.is(res.status, 400);
  t.like(await errorOf(res), { code: 'out_of_range', param: 'wait' });
});

test('an unknown query parameter on GET /v1/generation/:id is a 400', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await create(app, key);
  const res = await app.call(key, `/v1/generation/${id}?timeout=5`);
  t.is(res.status, 400);
  t.is((await errorOf(res)).code, 'unknown_parameter');
});
