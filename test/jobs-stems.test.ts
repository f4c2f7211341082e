/**
 * A task that asks for stems or a loop: the render is asked for them, each stem is stored beside the WAV and
 * named in the task's files, deleting the task deletes them too, and the slower render does not skew the
 * estimates (a real store in a temp dir, a stub pool).
 */
import { DEFAULT_SPEED, STEMS_FACTOR } from '../src/jobs/render-speed.ts';
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { checkRequest, type GenerationRequest, type RenderedTrack } from '../engine/index.ts';
import { Generations } from '../src/domain/generations/generations.ts';
import { GenerationLifecycle } from '../src/domain/generations/lifecycle.ts';
import { DownloadSigner } from '../src/domain/download-links.ts';
import { createJobQueue } from '../src/jobs/index.ts';
import { openStore } from '../src/store/index.ts';

const track = (request: GenerationRequest): RenderedTrack =>
  ({
    wav: new Uint8Array([82, 73, 70, 70]),
    midi: new Uint8Array([77, 84, 104, 100]),
    stems: request.stems
      ? [
          { role: 'drums', wav: new Uint8Array([1]) },
          { role: 'bass', wav: new Uint8Array([2]) },
        ]
      : undefined,
    title: 'Loop',
    metadata: { genre: 'lofi', bpm: 80 },
    seed: request.seed,
    audioSeconds: request.duration,
    renderMs: 1,
  }) as unknown as RenderedTrack;

async function completedTask(t: ExecutionContext, extras: { stems?: boolean; loop?: boolean }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-jobs-stems-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const requests: GenerationRequest[] = [];
  const pool = {
    size: 1,
    healthy: () => true,
    render: async (request: GenerationRequest) => {
      requests.push(request);
      return track(request);
    },
  };
  // 90 s of wall for every render of 30 s of audio: far slower than the prior, so a measured render moves the speed.
  let now = 0;
  const slowPool = {
    ...pool,
    render: async (request: GenerationRequest) => {
      now += 90_000;
      return pool.render(request);
    },
  };
  const jobs = await createJobQueue({
    repository: store,
    blobs: store.blobs,
    lifecycle: new GenerationLifecycle({ repository: store }),
    pool: slowPool,
    graceMs: 50,
    clock: () => now,
  });
  t.teardown(() => jobs.close());
  const speedBefore = jobs.speed;
  const account = await store.createAccount({ plan: 'developer' });
  const { generation } = await store.createGeneration(
    {
      account_id: account.id,
      prompt: 'lofi loop',
      duration: 30,
      style: null,
      instrumental: true,
      seed: 3,
      lyrics: null,
      callback_url: null,
      request_id: null,
      ...extras,
    },
    { monthlyQuota: null },
  );
  jobs.enqueue(generation);
  await jobs.idle();
  const generations = new Generations({
    repository: store,
    blobs: store.blobs,
    jobs,
    checkRequest,
    signer: new DownloadSigner({ secret: 'test-secret', publicUrl: 'http://127.0.0.1:3000', ttlSeconds: 3600 }),
    now: () => new Date(),
  });
  return {
    store,
    generations,
    requests,
    done: (await store.getGeneration(account.id, generation.id))!,
    speedBefore,
    speedAfter: jobs.speed,
  };
}

test('the render is asked for stems and a loop when the task asks', async (t) => {
  const { requests } = await completedTask(t, { stems: true, loop: true });
  t.like(requests[0], { stems: true, loop: true });
});

test('an ordinary task asks for neither', async (t) => {
  const { requests, done } = await completedTask(t, {});
  t.false('stems' in requests[0]! || 'loop' in requests[0]!);
  t.is(done.files?.stems, undefined);
});

test('a render with stems teaches the render-speed model the plain speed: its time over the extra work of stems', async (t) => {
  const withStems = await completedTask(t, { stems: true });
  const ordinary = await completedTask(t, {});
  t.true(ordinary.speedAfter > ordinary.speedBefore);
  t.true(withStems.speedAfter > withStems.speedBefore);
  // The same wall time for a render with stems says the machine is faster than an ordinary render taking it.
  const overhead = DEFAULT_SPEED.overheadSeconds;
  t.true(Math.abs(withStems.speedAfter - (90 / STEMS_FACTOR - overhead) / 30) < 1e-9);
  t.true(Math.abs(ordinary.speedAfter - (90 - overhead) / 30) < 1e-9);
});

test('each stem is stored beside the WAV and named in the files', async (t) => {
  const { store, done } = await completedTask(t, { stems: true });
  const base = done.files!.wav.replace(/\.wav$/, '');
  t.deepEqual(done.files!.stems, { drums: `${base}.stem-drums.wav`, bass: `${base}.stem-bass.wav` });
  t.deepEqual([...(await buffer(await store.blobs.open(done.files!.stems!.bass!)))], [2]);
});

test('deleting the task deletes its stems', async (t) => {
  const { store, generations, done } = await completedTask(t, { stems: true });
  await generations.delete(done);
  t.is(await store.blobs.stat(done.files!.stems!.drums!), undefined);
});
