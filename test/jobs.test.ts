import test, { type ExecutionContext } from 'ava';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createRenderPool,
  UnknownStyleError,
  WorkerCrashedError,
  type GenerationRequest,
  type RenderedTrack,
} from '../engine/index.ts';
import { createJobQueue, type JobQueueHandle } from '../src/jobs/index.ts';
import { DEFAULT_SPEED, RATE_48K_FACTOR, STEMS_FACTOR, workFactor } from '../src/jobs/render-speed.ts';
import { GenerationLifecycle } from '../src/domain/generations/lifecycle.ts';
import { openStore, type FileRepository as Store } from '../src/store/index.ts';
import type { Generation } from '../src/domain/model.ts';
import type { OpenFile } from '../src/store/atomic-file.ts';
import { fillingDisk } from './helpers/full-disk.ts';
import { captureLogger, LEVELS } from './helpers/log.ts';

/** A pool whose renders finish when the test says so. */
class FakePool {
  readonly calls: {
    request: GenerationRequest;
    resolve(track: RenderedTrack): void;
    reject(error: Error): void;
    progress(f: number): void;
    signal: AbortSignal | undefined;
  }[] = [];
  maxConcurrent = 0;
  #active = 0;
  constructor(readonly size: number) {}

  healthy(): boolean {
    return true;
  }

  render(
    request: GenerationRequest,
    options: { signal?: AbortSignal; onProgress?(fraction: number): void } = {},
  ): Promise<RenderedTrack> {
    this.#active++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.#active);
    return new Promise<RenderedTrack>((resolve, reject) => {
      const settle = () => this.#active--;
      options.signal?.addEventListener('abort', () => {
        settle();
        reject(Object.assign(new Error('The render was cancelled.'), { name: 'RenderAbortedError' }));
      });
      this.calls.push({
        request,
        resolve: (track) => {
          settle();
          resolve(track);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
        progress: (f) => options.onProgress?.(f),
        signal: options.signal,
      });
    });
  }

  /** Waits until `count` renders have been asked for. */
  async started(count: number): Promise<void> {
    while (this.calls.length < count) await new Promise((resolve) => setImmediate(resolve));
  }
}

const track = (request: GenerationRequest): RenderedTrack =>
  ({
    wav: new Uint8Array([82, 73, 70, 70]),
    midi: new Uint8Array([77, 84, 104, 100]),
    title: `Track ${request.seed}`,
    metadata: { genre: 'lofi', bpm: 80 },
    seed: request.seed,
    audioSeconds: request.duration,
    renderMs: 1,
  }) as unknown as RenderedTrack;

async function setup(t: ExecutionContext, options: { workers?: number; clock?: () => number; open?: OpenFile } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-jobs-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const store = await openStore({ dataDir, open: options.open });
  t.teardown(() => store.close());
  const pool = new FakePool(options.workers ?? 1);
  const jobs = await createJobQueue({ ...queueDeps(store), pool, clock: options.clock, graceMs: 50 });
  t.teardown(() => jobs.close());
  return { dataDir, store, pool, jobs };
}

/** The records, the audio and the lifecycle over one opened data dir, as server.ts hands them to the queue. */
function queueDeps(store: Store) {
  return { repository: store, blobs: store.blobs, lifecycle: new GenerationLifecycle({ repository: store }) };
}

/** The types of the webhook events recorded for an account's tasks, oldest first. */
async function eventTypes(store: Store, accountId: string): Promise<string[]> {
  const { items } = await store.webhooks.listDeliveries(accountId, { limit: 100, offset: 0 });
  const events = await Promise.all(items.reverse().map((delivery) => store.webhooks.getEvent(delivery.event_id)));
  return events.map((event) => event!.type);
}

/** An endpoint that hears of every transition, so each one records a webhook event. */
async function listenToAll(store: Store, accountId: string): Promise<void> {
  await store.webhooks.addEndpoint({
    id: 'we_test',
    account_id: accountId,
    url: 'https://hooks.example.com/all',
    events: ['generation.processing', 'generation.completed', 'generation.failed'],
    description: null,
    created_at: new Date().toISOString(),
    failing_since: null,
    disabled_at: null,
    disabled_reason: null,
  });
}

async function create(
  store: Store,
  accountId: string,
  seed = 1,
  duration = 60,
  prompt = `song ${seed}`,
): Promise<Generation> {
  const { generation } = await store.createGeneration(
    {
      account_id: accountId,
      prompt,
      duration,
      style: null,
      instrumental: true,
      seed,
      lyrics: null,
      callback_url: null,
      request_id: 'req_test0001',
    },
    { monthlyQuota: null },
  );
  return generation;
}

async function settled(jobs: JobQueueHandle): Promise<void> {
  await jobs.idle();
}

test('a rendered task is completed with its files, title and metadata', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  const running = (await store.getGeneration(account.id, generation.id))!;
  t.is(running.attempts, 1);
  t.truthy(running.started_at);
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await settled(jobs);
  const done = (await store.getGeneration(account.id, generation.id))!;
  t.like(done, {
    status: 'completed',
    title: 'Track 1',
    files: { wav: `audio/${account.id}/${generation.id}.wav`, midi: `audio/${account.id}/${generation.id}.mid` },
  });
  t.truthy(done.completed_at);
  t.deepEqual(done.metadata, { genre: 'lofi', bpm: 80 });
  t.deepEqual([...(await readFile(join(store.dataDir, done.files!.wav)))], [82, 73, 70, 70]);
});

test('no more renders run at once than the pool has threads', async (t) => {
  const { store, pool, jobs } = await setup(t, { workers: 2 });
  const account = await store.createAccount({ plan: 'developer' });
  for (let seed = 0; seed < 5; seed++) jobs.enqueue(await create(store, account.id, seed));
  await pool.started(2);
  t.is(pool.calls.length, 2);
  for (let i = 0; i < 5; i++) {
    await pool.started(i + 1);
    pool.calls[i]!.resolve(track(pool.calls[i]!.request));
  }
  await settled(jobs);
  t.is(pool.maxConcurrent, 2);
});

test("one account's burst of 20 does not starve another account's single task", async (t) => {
  const { store, pool, jobs } = await setup(t);
  // One plan, so one rank: fairness between accounts is what is tested (ranks: test/api-plan-features.test.ts).
  const busy = await store.createAccount({ plan: 'developer' });
  const quiet = await store.createAccount({ plan: 'developer' });
  for (let seed = 0; seed < 20; seed++) jobs.enqueue(await create(store, busy.id, seed));
  const single = await create(store, quiet.id, 99);
  jobs.enqueue(single);
  t.is(jobs.live(single.id)?.queue_position, 1);
  await pool.started(1);
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await pool.started(2);
  t.is(pool.calls[1]!.request.seed, 99);
});

test('waiting tasks report their place and an estimate that grows with the queue ahead', async (t) => {
  const now = 0;
  const { store, pool, jobs } = await setup(t, { clock: () => now });
  const account = await store.createAccount({ plan: 'developer' });
  const tasks = [];
  for (let seed = 0; seed < 3; seed++) {
    tasks.push(await create(store, account.id, seed));
    jobs.enqueue(tasks.at(-1)!);
  }
  await pool.started(1);
  const [first, second, third] = tasks.map((task) => jobs.live(task.id)!);
  t.is(first!.queue_position, 0);
  t.is(second!.queue_position, 1);
  t.is(third!.queue_position, 2);
  t.true(first!.estimated_time > 0);
  t.true(second!.estimated_time > first!.estimated_time);
  t.true(third!.estimated_time > second!.estimated_time);
});

test('estimates follow the measured render speed', async (t) => {
  let now = 0;
  const { store, pool, jobs } = await setup(t, { clock: () => now });
  const account = await store.createAccount({ plan: 'developer' });
  const before = jobs.speed;
  jobs.enqueue(await create(store, account.id, 1, 60));
  await pool.started(1);
  now += 90_000; // 90 s of wall for 60 s of audio: far slower than the prior
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await settled(jobs);
  t.true(jobs.speed > before);
  const next = await create(store, account.id, 2, 60);
  jobs.enqueue(next);
  await pool.started(2);
  t.is(jobs.live(next.id)?.estimated_time, Math.round(jobs.estimate(60) * 10) / 10);
});

test('until a render is measured, estimates come from the cold speed the server gives (the machine load), then from the render', async (t) => {
  let now = 0;
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-jobs-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const pool = new FakePool(1);
  const asked: number[] = [];
  // A busy machine: ten times the built-in speed.
  const busy = { ...DEFAULT_SPEED, perAudioSecond: 10 * DEFAULT_SPEED.perAudioSecond };
  const coldSpeed = (rendering: number) => {
    asked.push(rendering);
    return busy;
  };
  const jobs = await createJobQueue({ ...queueDeps(store), pool, clock: () => now, graceMs: 50, coldSpeed });
  t.teardown(() => jobs.close());
  const account = await store.createAccount({ plan: 'developer' });
  const first = await create(store, account.id, 1, 60);
  jobs.enqueue(first);
  await pool.started(1);
  const second = await create(store, account.id, 2, 60);
  jobs.enqueue(second);
  const cold = busy.overheadSeconds + 60 * busy.perAudioSecond;
  t.is(jobs.live(second.id)?.estimated_time, Math.round(2 * cold * 10) / 10);
  // It is told how many renders run, which the machine's load already counts.
  t.is(asked.at(-1), 1);
  now += 30_000;
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await pool.started(2);
  const third = await create(store, account.id, 3, 60);
  jobs.enqueue(third);
  const measured = jobs.estimate(60);
  t.not(measured, cold);
  const asks = asked.length;
  t.true(Math.abs(jobs.live(third.id)!.estimated_time - 2 * measured) <= 0.1);
  t.is(asked.length, asks, 'a measured speed is not replaced by the cold one');
});

test('progress from the pool shows in the live state', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  pool.calls[0]!.progress(0.5);
  t.is(jobs.live(generation.id)?.progress, 0.5);
});

test('a worker crash sends the task back to pending and retries it', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  pool.calls[0]!.reject(new WorkerCrashedError(1));
  await pool.started(2);
  t.is((await store.getGeneration(account.id, generation.id))?.attempts, 2);
  pool.calls[1]!.resolve(track(pool.calls[1]!.request));
  await settled(jobs);
  t.is((await store.getGeneration(account.id, generation.id))?.status, 'completed');
});

test('three crashes fail the task and refund its quota unit', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  for (let attempt = 1; attempt <= 3; attempt++) {
    await pool.started(attempt);
    pool.calls[attempt - 1]!.reject(new WorkerCrashedError(1));
  }
  await settled(jobs);
  const failed = (await store.getGeneration(account.id, generation.id))!;
  t.like(failed, { status: 'failed', attempts: 3, error: { code: 'render_failed' } });
  t.is(pool.calls.length, 3);
  t.is(await store.usage(account.id, generation.quota_month), 0);
});

/** A task rendered while the disk fails the writes `fails` picks: what the queue, the store, the webhook events and the disk end with. */
async function renderOnFailingDisk(t: ExecutionContext, fails: (path: string) => boolean, code?: string) {
  let failing = false;
  const { dataDir, store, pool, jobs } = await setup(t, { open: fillingDisk((path) => failing && fails(path), code) });
  const account = await store.createAccount({ plan: 'developer' });
  await listenToAll(store, account.id);
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  failing = true;
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await settled(jobs);
  const audio = await readdir(join(dataDir, 'audio', account.id)).catch(() => []);
  return {
    store,
    generation,
    final: (await store.getGeneration(account.id, generation.id))!,
    events: await eventTypes(store, account.id),
    audio,
  };
}

test('a full disk while the audio is saved fails the task with storage_full, its webhook event and its quota unit back, and leaves no file', async (t) => {
  const { store, generation, final, events, audio } = await renderOnFailingDisk(t, () => true);
  t.like(final, { status: 'failed', files: null, error: { code: 'storage_full' } });
  t.regex(final.error!.message, /ran out of storage/);
  t.is(events.at(-1), 'generation.failed');
  t.is(await store.usage(generation.account_id, generation.quota_month), 0);
  t.deepEqual(audio, []);
});

test('a failure saving the completed record fails the task with internal_error and removes the audio already written', async (t) => {
  const { store, generation, final, events, audio } = await renderOnFailingDisk(
    t,
    (path) => path.includes(`${join('generations', '')}`),
    'EIO',
  );
  t.like(final, { status: 'failed', files: null, title: null, error: { code: 'internal_error' } });
  t.is(final.error!.message, 'The track could not be saved (request id req_test0001). Please try again.');
  t.is(events.at(-1), 'generation.failed');
  t.is(await store.usage(generation.account_id, generation.quota_month), 0);
  t.deepEqual(audio, []);
});

test('an engine error fails the task at once with its message', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  pool.calls[0]!.reject(new UnknownStyleError('polka', ['lofi']));
  await settled(jobs);
  t.like(await store.getGeneration(account.id, generation.id), {
    status: 'failed',
    error: { code: 'render_failed', message: 'Unknown style "polka". Use one of: lofi.' },
  });
  t.is(pool.calls.length, 1);
});

/** The real pool, with a worker that runs the real worker loop and throws what the prompt names. */
async function setupWithThrowingWorker(t: ExecutionContext) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-jobs-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const pool = createRenderPool({ workers: 1, workerEntry: new URL('fixtures/throwing-worker.ts', import.meta.url) });
  t.teardown(() => pool.close());
  const { logger, lines: logged } = captureLogger();
  const jobs = await createJobQueue({ ...queueDeps(store), pool, logger });
  t.teardown(() => jobs.close());
  const account = await store.createAccount({ plan: 'developer' });
  const run = async (prompt: string): Promise<Generation> => {
    const generation = await create(store, account.id, 1, 60, prompt);
    jobs.enqueue(generation);
    await jobs.idle();
    return (await store.getGeneration(account.id, generation.id))!;
  };
  return { run, logged };
}

test('a bug in a render worker fails the task with a message that tells nothing of it', async (t) => {
  const { run } = await setupWithThrowingWorker(t);
  const failed = await run('bug');
  t.like(failed, {
    status: 'failed',
    error: { code: 'render_failed', message: 'The render failed (request id req_test0001). Please try again.' },
  });
});

test('a bug in a render worker is logged in full under the request id', async (t) => {
  const { run, logged } = await setupWithThrowingWorker(t);
  const failed = await run('bug');
  const line = logged.find((entry) => entry.gen_id === failed.id && entry.msg === 'task failed');
  t.like(line, { level: LEVELS.error, req_id: 'req_test0001', code: 'render_failed' });
  t.regex(
    line?.err.stack ?? '',
    /^TypeError: Cannot read properties of undefined \(reading 'gain'\)[\s\S]*throwing-worker\.ts/,
  );
});

test('a non-Error thrown in a render worker fails the task without its text', async (t) => {
  const { run } = await setupWithThrowingWorker(t);
  const failed = await run('a string');
  t.false(failed.error!.message.includes('/srv/tunesmith'));
});

test('an error written for the caller in a render worker fails the task with its message', async (t) => {
  const { run } = await setupWithThrowingWorker(t);
  const failed = await run('bad lyrics');
  t.like(failed, { status: 'failed', error: { code: 'render_failed', message: 'The lyrics have no words to sing.' } });
});

test('unfinished tasks in the store are resumed when the queue starts', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-jobs-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await openStore({ dataDir });
  const account = await first.createAccount({ plan: 'developer' });
  const generation = await create(first, account.id);
  await first.transaction((tx) =>
    tx.updateGeneration(generation.id, { status: 'processing', attempts: 1, started_at: new Date().toISOString() }),
  );
  await first.close();

  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const pool = new FakePool(1);
  const jobs = await createJobQueue({ ...queueDeps(store), pool });
  t.teardown(() => jobs.close());
  await pool.started(1);
  t.is(pool.calls[0]!.request.seed, 1);
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await settled(jobs);
  t.like(await store.getGeneration(account.id, generation.id), { status: 'completed', attempts: 2 });
});

test('close waits for a render that finishes within the grace period', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  const closing = jobs.close();
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await closing;
  t.is((await store.getGeneration(account.id, generation.id))?.status, 'completed');
});

test('close sends renders past the grace period and waiting tasks back to pending', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const running = await create(store, account.id, 1);
  const waiting = await create(store, account.id, 2);
  jobs.enqueue(running);
  jobs.enqueue(waiting);
  await pool.started(1);
  await jobs.close();
  t.true(pool.calls[0]!.signal?.aborted);
  t.like(await store.getGeneration(account.id, running.id), { status: 'pending', attempts: 0 });
  t.like(await store.getGeneration(account.id, waiting.id), { status: 'pending' });
  t.false(jobs.healthy());
  t.is(pool.calls.length, 1);
});

test('live() knows nothing of tasks it does not hold', async (t) => {
  const { jobs } = await setup(t);
  t.is(jobs.live('gen_unknown'), undefined);
});

test('tasks start in the order their queue positions promised, rotating between accounts', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const [a, b, c] = await Promise.all(['a', 'b', 'c'].map(() => store.createAccount({ plan: 'enterprise' })));
  const blocker = await create(store, a!.id, 0);
  jobs.enqueue(blocker);
  await pool.started(1);
  const queued: Generation[] = [];
  for (const [account, seeds] of [
    [a!, [1, 2, 3]],
    [b!, [4, 5]],
    [c!, [6]],
  ] as const) {
    for (const seed of seeds) {
      queued.push(await create(store, account.id, seed));
      jobs.enqueue(queued.at(-1)!);
    }
  }
  const promised = [...queued]
    .sort((x, y) => jobs.live(x.id)!.queue_position - jobs.live(y.id)!.queue_position)
    .map((g) => g.seed);
  // a was just served (its blocker), so b and c come first in each round.
  t.deepEqual(promised, [4, 6, 1, 5, 2, 3]);
  for (let i = 0; i < queued.length; i++) {
    pool.calls[i]!.resolve(track(pool.calls[i]!.request));
    await pool.started(i + 2);
  }
  t.deepEqual(
    pool.calls.slice(1).map((call) => call.request.seed),
    promised,
  );
});

test('the learned render speed is kept for the next start', async (t) => {
  let now = 0;
  const { store, pool, jobs } = await setup(t, { clock: () => now });
  const account = await store.createAccount({ plan: 'developer' });
  jobs.enqueue(await create(store, account.id, 1, 60));
  await pool.started(1);
  now += 90_000;
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await settled(jobs);
  const next = await createJobQueue({ ...queueDeps(store), pool: new FakePool(1) });
  t.teardown(() => next.close());
  t.is(next.speed, jobs.speed);
});

test('cancelling a waiting task fails it with code cancelled, and it never renders', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  jobs.enqueue(await create(store, account.id, 1));
  const waiting = await create(store, account.id, 2);
  jobs.enqueue(waiting);
  await pool.started(1);
  const cancelled = await jobs.cancel(waiting);
  t.like(cancelled, { status: 'failed', error: { code: 'cancelled' } });
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await settled(jobs);
  t.is(pool.calls.length, 1);
});

test('cancelling a rendering task aborts its render and fails it with code cancelled', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  const cancelled = await jobs.cancel(generation);
  t.true(pool.calls[0]!.signal?.aborted);
  t.like(cancelled, { status: 'failed', attempts: 1, error: { code: 'cancelled' } });
});

test('a cancel records the generation.failed webhook event of its task', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  await listenToAll(store, account.id);
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  await jobs.cancel(generation);
  t.deepEqual(await eventTypes(store, account.id), ['generation.processing', 'generation.failed']);
});

test('a render that finished before its cancel stays completed', async (t) => {
  const { store, pool, jobs } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await settled(jobs);
  t.is((await jobs.cancel(generation)).status, 'completed');
});

/** A queue over a FakePool whose log lines the test reads. */
async function setupLogged(t: ExecutionContext) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-jobs-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const pool = new FakePool(1);
  const { logger, lines } = captureLogger('info');
  const jobs = await createJobQueue({ ...queueDeps(store), pool, logger });
  t.teardown(() => jobs.close());
  const account = await store.createAccount({ plan: 'developer' });
  return { store, pool, jobs, lines, account };
}

test('a rendered task logs one line each when queued, started and completed, with its ids and render time', async (t) => {
  const { store, pool, jobs, lines, account } = await setupLogged(t);
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await settled(jobs);
  const mine = lines.filter((line) => line.gen_id === generation.id);
  t.deepEqual(
    mine.map((line) => line.msg),
    ['task queued', 'task started', 'task completed'],
  );
  t.true(mine.every((line) => line.account_id === account.id && line.req_id === 'req_test0001'));
  t.is(typeof mine[2]!.render_ms, 'number');
});

test('a task failed for a reason written for the caller logs that reason', async (t) => {
  const { store, pool, jobs, lines, account } = await setupLogged(t);
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  pool.calls[0]!.reject(new UnknownStyleError('polka', ['lofi']));
  await settled(jobs);
  t.like(lines.at(-1), {
    msg: 'task failed',
    level: LEVELS.info,
    gen_id: generation.id,
    code: 'render_failed',
    reason: 'Unknown style "polka". Use one of: lofi.',
  });
});

test('a cancelled task logs one line saying so', async (t) => {
  const { store, pool, jobs, lines, account } = await setupLogged(t);
  const generation = await create(store, account.id);
  jobs.enqueue(generation);
  await pool.started(1);
  await jobs.cancel(generation);
  t.like(lines.at(-1), { msg: 'task cancelled', gen_id: generation.id, code: 'cancelled' });
});

test('a task with stems at 48 kHz/24-bit is estimated at its extra work, and its render teaches the plain speed', async (t) => {
  let now = 0;
  const { store, pool, jobs } = await setup(t, { clock: () => now });
  const account = await store.createAccount({ plan: 'developer' });
  jobs.enqueue(await create(store, account.id, 1, 60));
  await pool.started(1);
  const plain = await create(store, account.id, 2, 60);
  const { generation: heavy } = await store.createGeneration(
    {
      account_id: account.id,
      prompt: 'song 3',
      duration: 60,
      style: null,
      instrumental: true,
      seed: 3,
      lyrics: null,
      callback_url: null,
      request_id: 'req_test0002',
      stems: true,
      encoding: { sample_rate: 48000, bit_depth: 24, bitrate: null },
    },
    { monthlyQuota: null },
  );
  jobs.enqueue(plain);
  jobs.enqueue(heavy);
  const factor = workFactor(heavy);
  t.is(factor, STEMS_FACTOR * RATE_48K_FACTOR);
  // The heavy task waits behind the plain one: its estimate is the plain one's plus its own render.
  const own = jobs.live(heavy.id)!.estimated_time - jobs.live(plain.id)!.estimated_time;
  t.true(Math.abs(own - jobs.estimate(60) * factor) < 0.2, `${own} s`);

  pool.calls[0]!.resolve(track(pool.calls[0]!.request));
  await pool.started(2);
  pool.calls[1]!.resolve(track(pool.calls[1]!.request));
  await pool.started(3);
  const before = jobs.speed;
  // The heavy render takes `factor` times a plain one at the current speed: the plain speed does not move.
  now += jobs.estimate(60) * factor * 1000;
  pool.calls[2]!.resolve(track(pool.calls[2]!.request));
  await settled(jobs);
  t.true(Math.abs(jobs.speed - before) < before * 0.05, `${jobs.speed} vs ${before}`);
});
