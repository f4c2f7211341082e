/** POST /v1/generation/:id/cancel and DELETE /v1/generation/:id over the real app and store. */
import test from 'ava';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { errorOf, startApp, type TestApp } from './helpers/app.ts';
import { storedFiles } from '../src/domain/model.ts';

async function create(app: TestApp, key: string): Promise<string> {
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'lofi beat' } });
  if (res.status !== 202) throw new Error(`create failed: ${res.status}`);
  return (await res.json()).id;
}

const used = async (app: TestApp, key: string): Promise<number> =>
  (await (await app.call(key, '/v1/account')).json()).quota.used;

test('cancelling a processing task answers 200 with it failed, code cancelled', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await create(app, key);
  const res = await app.call(key, `/v1/generation/${id}/cancel`, { method: 'POST' });
  t.is(res.status, 200);
  t.like(await res.json(), { id, status: 'failed', queue_position: null, error: { code: 'cancelled' } });
});

test('a cancelled task gives its quota unit back', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  const id = await create(app, key);
  await app.call(key, `/v1/generation/${id}/cancel`, { method: 'POST' });
  t.is(await used(app, key), 0);
});

test('cancelling a finished task is a 409 generation_finished', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await create(app, key);
  await app.jobs.complete(id);
  const res = await app.call(key, `/v1/generation/${id}/cancel`, { method: 'POST' });
  t.is(res.status, 409);
  t.like(await errorOf(res), { type: 'conflict_error', code: 'generation_finished' });
});

test("cancelling another account's task is a 404 and leaves it running", async (t) => {
  const app = await startApp(t);
  const { key: owner } = await app.account();
  const { key: other } = await app.account();
  const id = await create(app, owner);
  t.is((await app.call(other, `/v1/generation/${id}/cancel`, { method: 'POST' })).status, 404);
  t.is((await (await app.call(owner, `/v1/generation/${id}`)).json()).status, 'processing');
});

test('deleting a completed generation answers 204 and then it is a 404', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await create(app, key);
  await app.jobs.complete(id);
  const res = await app.call(key, `/v1/generation/${id}`, { method: 'DELETE' });
  t.is(res.status, 204);
  t.is((await app.call(key, `/v1/generation/${id}`)).status, 404);
});

test('deleting a generation removes its audio files and its download links stop working', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const id = await create(app, key);
  const done = await app.jobs.complete(id);
  const links = (await (await app.call(key, `/v1/generation/${id}`)).json()).download_urls;
  await app.call(key, `/v1/generation/${id}`, { method: 'DELETE' });
  t.false(existsSync(join(app.store.dataDir, done.files!.wav)));
  t.false(existsSync(join(app.store.dataDir, done.files!.midi)));
  t.is((await fetch(links.wav)).status, 404);
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 0);
});

test('deleting a generation removes the file of every format it has', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await create(app, key);
  const done = await app.jobs.complete(id);
  const base = done.files!.wav.replace(/\.wav$/, '');
  const files = {
    ...done.files!,
    mp3: `${base}.mp3`,
    opus: `${base}.opus`,
    flac: `${base}.flac`,
    lrc: `${base}.lrc`,
    vtt: `${base}.vtt`,
  };
  const paths = storedFiles(files);
  for (const path of paths)
    await app.store.blobs.put(path, Buffer.from('x'), { contentType: 'application/octet-stream' });
  await app.store.transaction((tx) => tx.updateGeneration(id, { files }));
  await app.call(key, `/v1/generation/${id}`, { method: 'DELETE' });
  t.deepEqual(
    paths.filter((path) => existsSync(join(app.store.dataDir, path))),
    [],
  );
});

test('deleting a completed generation does not give its quota unit back', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  const id = await create(app, key);
  await app.jobs.complete(id);
  await app.call(key, `/v1/generation/${id}`, { method: 'DELETE' });
  t.is(await used(app, key), 1);
});

test('deleting a task still processing is a 409 generation_not_finished', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await create(app, key);
  const res = await app.call(key, `/v1/generation/${id}`, { method: 'DELETE' });
  t.is(res.status, 409);
  t.like(await errorOf(res), { type: 'conflict_error', code: 'generation_not_finished' });
});

test("deleting another account's generation is a 404 and leaves it", async (t) => {
  const app = await startApp(t);
  const { key: owner } = await app.account();
  const { key: other } = await app.account();
  const id = await create(app, owner);
  await app.jobs.complete(id);
  const res = await app.call(other, `/v1/generation/${id}`, { method: 'DELETE' });
  t.is(res.status, 404);
  t.is((await errorOf(res)).code, 'generation_not_found');
  t.is((await app.call(owner, `/v1/generation/${id}`)).status, 200);
});

test('a cancelled task can then be deleted, also at /v1/generations/:id', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await create(app, key);
  t.is((await app.call(key, `/v1/generations/${id}/cancel`, { method: 'POST' })).status, 200);
  t.is((await app.call(key, `/v1/generations/${id}`, { method: 'DELETE' })).status, 204);
});
