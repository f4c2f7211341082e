/** A full disk under the API: requests that must save something are told to come back, not given a 500. */
import test from 'ava';
import { fillingDisk } from './helpers/full-disk.ts';
import { startApp } from './helpers/app.ts';

test('POST /v1/generate on a full disk is a 503 storage_unavailable with Retry-After, and costs no quota', async (t) => {
  let full = false;
  const app = await startApp(t, { open: fillingDisk(() => full) });
  const { account, key } = await app.account('starter');
  full = true;
  const response = await fetch(`${app.url}/v1/generate`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'a calm lofi beat', duration: 30 }),
  });
  t.is(response.status, 503);
  t.is(response.headers.get('retry-after'), '60');
  t.like(await response.json(), { error: { type: 'service_unavailable_error', code: 'storage_unavailable' } });
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 0);

  full = false;
  const retried = await fetch(`${app.url}/v1/generate`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'a calm lofi beat', duration: 30 }),
  });
  t.is(retried.status, 202);
});

test('/healthz is a 503 naming the full disk once a save failed for want of space, and 200 again once there is room', async (t) => {
  let full = false;
  const app = await startApp(t, { open: fillingDisk(() => full) });
  const { key } = await app.account('starter');
  t.is((await fetch(`${app.url}/healthz`)).status, 200);
  full = true;
  await app.call(key, '/v1/generate', { json: { prompt: 'a calm lofi beat' } });
  const down = await fetch(`${app.url}/healthz`);
  t.is(down.status, 503);
  const body = (await down.json()) as { error: { code: string; message: string } };
  t.is(body.error.code, 'service_unavailable');
  t.regex(body.error.message, /disk holding its data dir is full/);
  full = false;
  t.is((await fetch(`${app.url}/healthz`)).status, 200);
});
