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
import { GenerationLifecycle } from '../src/generations/lifecycle.ts';
import { enqueueRender, openRenderQueue, RENDER_QUEUE, type RenderJob } from '../src/jobs/pg/render-queue.ts';
import { startRenderWorker } from '../src/jobs/pg/render-worker.ts';
import { completedPatch } from '../src/jobs/render-task.ts';
import { openStore, type FileRepository, type Generation } from '../src/store/index.ts';
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
    return { wav: new Uint8Array([82, 73, 70, 70]), midi: new Uint8Array([77, 84, 104, 100]), title: request.prompt, metadata: {}, seed: request.seed, audioSeconds: request.duration, renderMs: 1 } as unknown as RenderedTrack;
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
    { account_id: accountId, prompt, duration: 30, style: null, instrumental: true, seed: 1, lyrics: null, callback_url: null, request_id: null },
    { monthlyQuota: null },
  );
  return generation;
}

async function enqueueIn(client: pg.Client, boss: PgBoss, generation: Generation, outcome: 'COMMIT' | 'ROLLBACK' = 'COMMIT'): Promise<void> {
  await client.query('BEGIN');
  await enqueueRender(boss, client, generation);
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

test('a job queued in a transaction that rolls back does not exist; one that commits is queued', async (t) => {
  const { store, boss, client } = await setup(t);
  const queue = await boss();
  const account = await store.createAccount({ plan: 'developer' });
  const dropped = await create(store, account.id, 'dropped');
  const kept = await create(store, account.id, 'kept');
  await enqueueIn(client, queue, dropped, 'ROLLBACK');
  await enqueueIn(client, queue, kept);
  const jobs = await queue.findJobs<RenderJob>(RENDER_QUEUE);
  t.deepEqual(jobs.map((job) => job.data.id), [kept.id]);
});

test('accounts take turns: one account\'s queued burst does not hold up another\'s single task', async (t) => {
  const { store, boss, client } = await setup(t);
  const queue = await boss();
  const busy = await store.createAccount({ plan: 'developer' });
  const quiet = await store.createAccount({ plan: 'developer' });
  for (const prompt of ['busy 1', 'busy 2', 'busy 3']) await enqueueIn(client, queue, await create(store, busy.id, prompt));
  await enqueueIn(client, queue, await create(store, quiet.id, 'quiet 1'));
  const order: string[] = [];
  for (;;) {
    const [job] = await queue.fetch<RenderJob>(RENDER_QUEUE);
    if (!job) break;
    order.push((await store.getGeneration(job.data.account_id, job.data.id))!.prompt);
  }
  t.deepEqual(order, ['busy 1', 'quiet 1', 'busy 2', 'busy 3']);
});

test('a task whose worker stopped heartbeating is rendered by another worker, and the first one\'s late result is dropped', async (t) => {
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
  const done = await until(async () => {
    const current = await store.getGeneration(account.id, generation.id);
    return current?.status === 'completed' ? current : undefined;
  }, 'the re-run to complete');
  t.is(done.attempts, 2);
  t.deepEqual(pool.rendered, ['stalled']);

  // The first run finishes after all: its attempt is no longer the task's, so nothing is written.
  const late = await lifecycle.transitionIf(
    generation.id,
    (g) => g.status === 'processing' && g.attempts === firstRun.attempts,
    completedPatch({ title: 'late', metadata: {}, audioSeconds: 30 } as unknown as RenderedTrack, done.files!, new Date()),
  );
  t.is(late, undefined);
  t.is((await store.getGeneration(account.id, generation.id))!.title, 'stalled');
});
