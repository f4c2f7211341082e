/**
 * queue_position in PostgreSQL mode (QueueEstimates) against a real pg-boss queue: the waiting jobs are listed once
 * and kept, a read lists only the jobs sent since, and which of the kept ones still wait is the generations' status.
 */
import test, { type ExecutionContext } from 'ava';
import type { PgBoss } from 'pg-boss';
import type { Generation } from '../src/domain/model.ts';
import { QueueEstimates } from '../src/jobs/pg/queue-estimates.ts';
import { enqueueRender, openRenderQueue, RENDER_QUEUE, type RenderJob } from '../src/jobs/pg/render-queue.ts';
import { openPostgresRepository, type PostgresRepository } from '../src/store/postgres/index.ts';
import { newGeneration } from './helpers/new-generation.ts';
import { freshDatabase } from './helpers/postgres.ts';

/** A node: its repository queues each create's job on `boss`. */
async function node(t: ExecutionContext, url: string): Promise<{ repository: PostgresRepository; boss: PgBoss }> {
  const boss = await openRenderQueue({ databaseUrl: url, supervise: false, poolSize: 2 });
  const repository = await openPostgresRepository({
    url,
    poolSize: 2,
    enqueue: (db, generation, rank) => enqueueRender(boss, db, generation, rank ?? 0),
  });
  t.teardown(async () => {
    await repository.close();
    await boss.stop({ graceful: false });
  });
  return { repository, boss };
}

/** `boss` with its findJobs counting the jobs it lists. */
function counting(boss: PgBoss): { boss: PgBoss; listed: () => number } {
  let listed = 0;
  const proxy = new Proxy(boss, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (name !== 'findJobs') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<PgBoss['findJobs']>) => {
        const jobs = await target.findJobs(...args);
        listed += jobs.length;
        return jobs;
      };
    },
  });
  return { boss: proxy, listed: () => listed };
}

const create = async (repository: PostgresRepository, accountId: string, rank?: number): Promise<Generation> =>
  (
    await repository.createGeneration(newGeneration(accountId), {
      monthlyQuota: null,
      ...(rank === undefined ? {} : { rank }),
    })
  ).generation;

const position = async (estimates: QueueEstimates, generation: Generation) =>
  (await estimates.live([generation])).get(generation.id)?.queue_position;

test('after the first read, a read of a waiting task lists only the jobs sent since, not the whole queue again', async (t) => {
  const url = await freshDatabase(t);
  const { repository, boss } = await node(t, url);
  const account = await repository.createAccount({ plan: 'developer' });
  const tasks: Generation[] = [];
  for (let n = 0; n < 30; n++) tasks.push(await create(repository, account.id));
  const queue = counting(boss);
  const estimates = new QueueEstimates(repository.pool, queue.boss);

  t.is(await position(estimates, tasks[29]!), 30);
  t.is(queue.listed(), 30);
  t.is(await position(estimates, tasks[29]!), 30);
  const later = await create(repository, account.id);
  t.is(await position(estimates, later), 31);
  t.is(queue.listed(), 31, 'the second and third reads listed only the one job sent since');
});

test('a task taken leaves the line at once, and a task sent on another node ahead of it (a better plan) comes in at its place', async (t) => {
  const url = await freshDatabase(t);
  const here = await node(t, url);
  const there = await node(t, url);
  const account = await here.repository.createAccount({ plan: 'developer' });
  const better = await here.repository.createAccount({ plan: 'enterprise' });
  const tasks: Generation[] = [];
  for (let n = 0; n < 3; n++) tasks.push(await create(here.repository, account.id));
  const estimates = new QueueEstimates(here.repository.pool, here.boss);
  const positions = async () =>
    Object.fromEntries([...(await estimates.live(tasks))].map(([id, s]) => [id, s.queue_position]));
  t.deepEqual(await positions(), { [tasks[0]!.id]: 1, [tasks[1]!.id]: 2, [tasks[2]!.id]: 3 });

  // A worker takes the first job and starts its task, as render-worker.ts does.
  const [job] = await there.boss.fetch<RenderJob>(RENDER_QUEUE);
  t.is(job?.data.id, tasks[0]!.id);
  await there.repository.pool.query(
    `UPDATE generations SET status = 'processing', attempts = 1, started_at = now() WHERE id = $1`,
    [tasks[0]!.id],
  );
  tasks[0] = { ...tasks[0]!, status: 'processing', attempts: 1, started_at: new Date().toISOString() };
  t.deepEqual(await positions(), { [tasks[0].id]: 0, [tasks[1]!.id]: 1, [tasks[2]!.id]: 2 });

  // Sent on the other node, with the better plan's rank: it goes before both that wait.
  const ahead = await create(there.repository, better.id);
  t.deepEqual(await positions(), { [tasks[0].id]: 0, [tasks[1]!.id]: 2, [tasks[2]!.id]: 3 });
  t.is(await position(estimates, ahead), 1);
});
