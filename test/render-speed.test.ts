import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRenderPool } from '../engine/index.ts';
import { createJobQueue } from '../src/jobs/index.ts';
import { DEFAULT_SPEED, RenderSpeed } from '../src/jobs/render-speed.ts';
import { openStore } from '../src/store/index.ts';

test('before any render, a track is estimated at a fixed cost plus a cost per second of audio', (t) => {
  const speed = new RenderSpeed();
  t.is(speed.estimate(60), DEFAULT_SPEED.overheadSeconds + 60 * DEFAULT_SPEED.perAudioSecond);
  t.true(speed.estimate(30) < speed.estimate(180));
});

test('the first measured render replaces the default per-second cost', (t) => {
  const speed = new RenderSpeed({ overheadSeconds: 2, perAudioSecond: 0.05 });
  speed.record(32, 60);
  t.is(speed.perAudioSecond, 0.5);
});

test('after the first, renders move the per-second cost by a moving average', (t) => {
  const speed = new RenderSpeed({ overheadSeconds: 2, perAudioSecond: 0.1 }, true);
  speed.record(32, 60);
  t.is(Math.round(speed.perAudioSecond * 1000) / 1000, 0.22);
});

test('a render faster than the fixed cost leaves a small positive per-second cost', (t) => {
  const speed = new RenderSpeed();
  speed.record(1, 60);
  t.true(speed.perAudioSecond > 0);
});

test('the first estimate on a new data dir is within 2× of the real render', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-speed-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const pool = createRenderPool({ workers: 1 });
  t.teardown(() => pool.close());
  const jobs = await createJobQueue({ store, pool });
  t.teardown(() => jobs.close());
  const account = await store.createAccount({ plan: 'developer' });
  const { generation } = await store.createGeneration(
    { account_id: account.id, prompt: 'a calm lofi beat with soft piano', duration: 60, style: null, instrumental: true, seed: 4, lyrics: null, callback_url: null },
    { monthlyQuota: null },
  );
  const started = Date.now();
  jobs.enqueue(generation);
  const estimate = jobs.live(generation.id)!.estimated_time;
  await jobs.idle();
  const real = (Date.now() - started) / 1000;
  t.is(store.getGeneration(account.id, generation.id)?.status, 'completed');
  t.true(estimate <= 2 * real && real <= 2 * estimate, `estimated ${estimate} s, took ${real} s`);
});
