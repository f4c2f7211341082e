/**
 * The PostgreSQL render queue (pg-boss) on a real PostgreSQL: the enqueue is part of the caller's transaction,
 * accounts are served in turn, a job whose worker stopped heartbeating goes to another worker, and a late
 * result of a superseded attempt writes nothing. The records here are a data dir's (the queue only needs the
 * Repository interface); the process-level tests run the same code on the PostgreSQL repository.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { GenerationRequest, RenderedTrack } from '../engine/index.ts';
import { GenerationLifecycle } from '../src/domain/generations/lifecycle.ts';
import {
  enqueueRender,
  openDedicatedQueues,
  openRenderQueue,
  RENDER_QUEUE,
  requeueOrphans,
  type RenderJob,
} from '../src/jobs/pg/render-queue.ts';
import { startRenderWorker } from '../src/jobs/pg/render-worker.ts';
import { completedPatch } from '../src/jobs/render-task.ts';
import { newGeneration } from './helpers/new-generation.ts';
import { openStore, type FileRepository } from '../src/store/index.ts';
import type { Generation } from '../src/domain/model.ts';
import { openPostgresRepository } from '../src/store/postgres/index.ts';
import { freshDatabase } from './helpers/postgres.ts';

/** Renders at once, counting each render it was asked for. */
class CountingPool {
  readonly size = 1;
  readonly rendered: string[] = [];
  healthy(): boolean {
    return true;
  }
  async render(request: GenerationRequest): Promise<RenderedTrack> {
    this.rendered.push(request.prompt);
    return {
      wav: new Uint8Array([82, 73, 70, 70]),
      midi: new Uint8Array([77, 84, 104, 100]),
      title: request.prompt,
      metadata: {},
      seed: request.seed,
      audioSeconds: request.duration,
      renderMs: 1,
    } as unknown as RenderedTrack;
  }
}

async function setup(t: ExecutionContext, leaseSeconds = 60) {
  const url = await freshDatabase(t);
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-pgq-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const bosses: PgBoss[] = [];
  const boss = async () => {
    const opened = await openRenderQueue({ databaseUrl: url, leaseSeconds });
    bosses.push(opened);
    return opened;
  };
  // Before freshDatabase's drop (teardowns run last-registered first).
  t.teardown(() => Promise.all(bosses.map((b) => b.stop({ graceful: false }))).then(() => undefined));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  return { url, store, boss, client, lifecycle: new GenerationLifecycle({ repository: store }) };
}

async function create(store: FileRepository, accountId: string, prompt: string): Promise<Generation> {
  const { generation } = await store.createGeneration(
    newGeneration(accountId, { prompt, duration: 30, request_id: null }),
    { monthlyQuota: null },
  );
  return generation;
}

async function enqueueIn(
  client: pg.Client,
  boss: PgBoss,
  generation: Generation,
  outcome: 'COMMIT' | 'ROLLBACK' = 'COMMIT',
  rank = 0,
): Promise<void> {
  await client.query('BEGIN');
  await enqueueRender(boss, client, generation, rank);
  await client.query(outcome);
}

async function until<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The generation once it has this status. */
const reaches = (store: FileRepository, generation: Generation, status: Generation['status']): Promise<Generation> =>
  until(async () => {
    const current = await store.getGeneration(generation.account_id, generation.id);
    return current?.status === status ? current : undefined;
  }, `the task to be ${status}`);

test('a job queued in a transaction that rolls back does not exist; one that commits is queued', async (t) => {
  const { store, boss, client } = await setup(t);
  const queue = await boss();
  const account = await store.createAccount({ plan: 'developer' });
  const dropped = await create(store, account.id, 'dropped');
  const kept = await create(store, account.id, 'kept');
  await enqueueIn(client, queue, dropped, 'ROLLBACK');
  await enqueueIn(client, queue, kept);
  const jobs = await queue.findJobs<RenderJob>(RENDER_QUEUE);
  t.deepEqual(
    jobs.map((job) => job.data.id),
    [kept.id],
  );
});

/** Takes every waiting job, one by one, and gives the prompts of their tasks in the order they came. */
async function promptsInTakenOrder(queue: PgBoss, store: FileRepository): Promise<string[]> {
  const order: string[] = [];
  for (;;) {
    const [job] = await queue.fetch<RenderJob>(RENDER_QUEUE);
    if (!job) return order;
    order.push((await store.getGeneration(job.data.account_id, job.data.id))?.prompt ?? job.data.id);
  }
}

test("accounts take turns: one account's queued burst does not hold up another's single task", async (t) => {
  const { store, boss, client } = await setup(t);
  const queue = await boss();
  const busy = await store.createAccount({ plan: 'developer' });
  const quiet = await store.createAccount({ plan: 'developer' });
  for (const prompt of ['busy 1', 'busy 2', 'busy 3'])
    await enqueueIn(client, queue, await create(store, busy.id, prompt));
  await enqueueIn(client, queue, await create(store, quiet.id, 'quiet 1'));
  const order = await promptsInTakenOrder(queue, store);
  t.deepEqual(order, ['busy 1', 'quiet 1', 'busy 2', 'busy 3']);
});

test('a better plan rank goes first: every waiting job of rank 1 before any of rank 3, turns kept within a rank', async (t) => {
  const { store, boss, client } = await setup(t);
  const queue = await boss();
  const starter = await store.createAccount({ plan: 'starter' });
  const enterprise = await store.createAccount({ plan: 'enterprise' });
  for (const prompt of ['starter 1', 'starter 2'])
    await enqueueIn(client, queue, await create(store, starter.id, prompt), 'COMMIT', 3);
  for (const prompt of ['enterprise 1', 'enterprise 2'])
    await enqueueIn(client, queue, await create(store, enterprise.id, prompt), 'COMMIT', 1);
  const order = await promptsInTakenOrder(queue, store);
  t.deepEqual(order, ['enterprise 1', 'enterprise 2', 'starter 1', 'starter 2']);
});

test("a task whose worker stopped heartbeating is rendered by another worker, and the first one's late result is dropped", async (t) => {
  const { store, boss, client, lifecycle } = await setup(t, 10);
  const first = await boss();
  const account = await store.createAccount({ plan: 'developer' });
  const generation = await create(store, account.id, 'stalled');
  await enqueueIn(client, first, generation);
  // The first worker claims the job and starts the render, then goes silent (no heartbeat, as after a kill -9).
  const [claimed] = await first.fetch<RenderJob>(RENDER_QUEUE);
  t.is(claimed?.data.id, generation.id);
  const firstRun = await lifecycle.transition(generation.id, { status: 'processing', attempts: 1 });

  const second = await boss();
  const pool = new CountingPool();
  const worker = await startRenderWorker({ boss: second, repository: store, blobs: store.blobs, lifecycle, pool });
  t.teardown(() => worker.close());
  const done = await reaches(store, generation, 'completed');
  t.is(done.attempts, 2);
  t.deepEqual(pool.rendered, ['stalled']);

  // The first run finishes after all: its attempt is no longer the task's, so nothing is written.
  const late = await lifecycle.transitionIf(
    generation.id,
    (g) => g.status === 'processing' && g.attempts === firstRun.attempts,
    completedPatch(
      { title: 'late', metadata: {}, audioSeconds: 30 } as unknown as RenderedTrack,
      done.files!,
      new Date(),
    ),
  );
  t.is(late, undefined);
  t.is((await store.getGeneration(account.id, generation.id))!.title, 'stalled');
});

test('a task already started as often as it may is failed as interrupted, not rendered again', async (t) => {
  const { store, boss, client, lifecycle } = await setup(t);
  const queue = await boss();
  const account = await store.createAccount({ plan: 'developer' });
  const generation = await create(store, account.id, 'cursed');
  await lifecycle.transition(generation.id, { status: 'processing', attempts: 3 });
  await enqueueIn(client, queue, generation);
  const pool = new CountingPool();
  const worker = await startRenderWorker({ boss: queue, repository: store, blobs: store.blobs, lifecycle, pool });
  t.teardown(() => worker.close());
  const failed = await reaches(store, generation, 'failed');
  t.is(failed.error?.code, 'render_interrupted');
  t.deepEqual(pool.rendered, []);
});

test('unfinished tasks without a job (copied in by migrate) are queued at start, once', async (t) => {
  const { url, boss } = await setup(t);
  const queue = await boss();
  // The repository without the enqueue hook: tasks as `tunesmith migrate` leaves them.
  const repository = await openPostgresRepository({ url });
  t.teardown(() => repository.close());
  const account = await repository.createAccount({ plan: 'developer' });
  const request = {
    account_id: account.id,
    duration: 30,
    style: null,
    instrumental: true,
    seed: 1,
    lyrics: null,
    callback_url: null,
    request_id: null,
  };
  const { generation: waiting } = await repository.createGeneration(
    { ...request, prompt: 'waiting' },
    { monthlyQuota: null },
  );
  const { generation: finished } = await repository.createGeneration(
    { ...request, prompt: 'finished' },
    { monthlyQuota: null },
  );
  await repository.transaction((tx) => tx.updateGeneration(finished.id, { status: 'completed' }));
  t.is(await requeueOrphans(queue, url), 1);
  t.is(await requeueOrphans(queue, url), 0, 'its job exists now');
  t.deepEqual(
    (await queue.findJobs<RenderJob>(RENDER_QUEUE)).map((job) => job.data.id),
    [waiting.id],
  );
});

test("a dedicated worker renders only its accounts' tasks, and a shared worker leaves them", async (t) => {
  const { store, boss, client, lifecycle } = await setup(t);
  const queue = await boss();
  const vip = await store.createAccount({ plan: 'enterprise' });
  const other = await store.createAccount({ plan: 'developer' });
  // What `tunesmith worker --accounts` does first: from then on the account's tasks go to its own queue.
  const queues = await openDedicatedQueues(queue, [vip.id]);
  const tasks: Generation[] = [];
  for (const prompt of ['vip 1', 'other 1', 'vip 2', 'other 2']) {
    const generation = await create(store, prompt.startsWith('vip') ? vip.id : other.id, prompt);
    await enqueueIn(client, queue, generation);
    tasks.push(generation);
  }
  const shared = new CountingPool();
  const dedicated = new CountingPool();
  const sharedWorker = await startRenderWorker({
    boss: queue,
    repository: store,
    blobs: store.blobs,
    lifecycle,
    pool: shared,
  });
  t.teardown(() => sharedWorker.close());
  const dedicatedWorker = await startRenderWorker({
    boss: queue,
    repository: store,
    blobs: store.blobs,
    lifecycle,
    pool: dedicated,
    queues,
  });
  t.teardown(() => dedicatedWorker.close());
  for (const generation of tasks) await reaches(store, generation, 'completed');
  t.deepEqual(dedicated.rendered.sort(), ['vip 1', 'vip 2']);
  t.deepEqual(shared.rendered.sort(), ['other 1', 'other 2']);
});

test("creates read pg-boss's list of queues once, not once each, for the dedicated-queue routing", async (t) => {
  const { store, boss, client } = await setup(t);
  const opened = await boss();
  let reads = 0;
  const queue = new Proxy(opened, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (name === 'getQueue' || name === 'getQueues') reads++;
        return value.apply(target, args);
      };
    },
  });
  const accounts = await Promise.all([1, 2].map(() => store.createAccount({ plan: 'developer' })));
  for (let n = 0; n < 6; n++) await enqueueIn(client, queue, await create(store, accounts[n % 2]!.id, `task ${n}`));
  t.is((await opened.findJobs<RenderJob>(RENDER_QUEUE, { queued: true })).length, 6);
  t.is(reads, 1);
});

test('an account given workers of its own on this node sends its next task there at once; its queue deleted on another node, the next one goes to the shared queue instead of failing the create', async (t) => {
  const { store, boss, client } = await setup(t);
  const here = await boss();
  const there = await boss();
  const vip = await store.createAccount({ plan: 'enterprise' });
  const before = await create(store, vip.id, 'before');
  await enqueueIn(client, here, before);
  const [dedicated] = await openDedicatedQueues(here, [vip.id]);
  const during = await create(store, vip.id, 'during');
  await enqueueIn(client, here, during);
  t.deepEqual(
    (await here.findJobs<RenderJob>(dedicated!)).map((job) => job.data.id),
    [during.id],
  );

  // Given back to the shared workers elsewhere: this node still lists the queue, and its send finds it gone.
  await there.deleteQueue(dedicated!);
  const after = await create(store, vip.id, 'after');
  await enqueueIn(client, here, after);
  t.deepEqual(
    (await here.findJobs<RenderJob>(RENDER_QUEUE, { queued: true })).map((job) => job.data.id),
    [before.id, after.id],
  );
});
