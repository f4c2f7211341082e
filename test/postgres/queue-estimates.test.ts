/**
 * queue_position and estimated_time on an API-only node in PostgreSQL mode, read from the real pg-boss queue. The
 * "worker" here is pg-boss's own fetch from the test and the start of the task a worker then records, so which
 * jobs are running is decided by the test, not by how fast a render happens to be.
 */
import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import { openRenderQueue, RENDER_QUEUE, type RenderJob } from '../../src/jobs/pg/render-queue.ts';
import { RenderProgress } from '../../src/jobs/pg/render-progress.ts';
import { freshDatabase } from '../helpers/postgres.ts';
import { awaitCompleted } from '../helpers/long-poll.ts';
import { runCli, startServerProcess, startWorkerProcess, tempDataDir } from '../helpers/process.ts';

interface Live {
  id: string;
  status: string;
  queue_position: number | null;
  estimated_time: number | null;
}

/** An API-only node (no render threads) on a fresh database, and the headers of a developer key made for it. */
async function apiOnlyNode(t: ExecutionContext) {
  const databaseUrl = await freshDatabase(t);
  const env = { TUNESMITH_DATABASE_URL: databaseUrl, TUNESMITH_WORKERS: '0' };
  const node = await startServerProcess(t, await tempDataDir(t), env);
  t.truthy(node.url, node.output());
  const made = await runCli(['keys', 'create', '--plan', 'developer', '--json'], {
    ...env,
    TUNESMITH_DATA_DIR: await tempDataDir(t),
  });
  t.is(made.code, 0, made.stderr);
  const { key } = JSON.parse(made.stdout) as { key: string };
  return { databaseUrl, node, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } };
}

test('waiting tasks get positions 1 and 2 behind a running one (0), with estimates that grow down the queue and shrink as it drains, on GET and in the list', async (t) => {
  const { databaseUrl, node, headers } = await apiOnlyNode(t);

  const ids: string[] = [];
  for (const prompt of ['a calm piano piece', 'a fast drum groove', 'a slow ambient pad']) {
    const res = await fetch(`${node.url}/v1/generate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt, duration: 60 }),
    });
    t.is(res.status, 202, await res.clone().text());
    const created = (await res.json()) as Live;
    // The create's own answer already has its place in the queue.
    t.is(created.queue_position, ids.length + 1);
    ids.push(created.id);
  }
  const get = async (id: string) => {
    const res = await fetch(`${node.url}/v1/generation/${id}`, { headers });
    t.is(res.status, 200);
    return (await res.json()) as Live;
  };
  const list = async () =>
    new Map(
      ((await (await fetch(`${node.url}/v1/generations`, { headers })).json()) as { data: Live[] }).data.map((g) => [
        g.id,
        g,
      ]),
    );

  const boss = await openRenderQueue({ databaseUrl, supervise: false, poolSize: 1 });
  t.teardown(() => boss.stop({ graceful: false }));
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  t.teardown(() => db.end());
  // What a worker does with a job it takes: start its task (render-worker.ts).
  const take = async () => {
    const [job] = await boss.fetch<RenderJob>(RENDER_QUEUE);
    await db.query(`UPDATE generations SET attempts = 1, started_at = now() WHERE id = $1`, [job?.data.id]);
    return job;
  };

  // Nothing taken yet: all three wait, in the order they were posted.
  const before = await Promise.all(ids.map(get));
  t.deepEqual(
    before.map((g) => g.queue_position),
    [1, 2, 3],
  );

  const first = await take();
  t.is(first?.data.id, ids[0]);
  const busy = await Promise.all(ids.map(get));
  t.deepEqual(
    busy.map((g) => g.queue_position),
    [0, 1, 2],
  );
  for (const g of busy) t.true(typeof g.estimated_time === 'number' && g.estimated_time > 0, JSON.stringify(g));
  t.true(busy[2]!.estimated_time! > busy[1]!.estimated_time!);
  // The list reads the same queue in one go and says the same.
  const listed = await list();
  t.deepEqual(
    ids.map((id) => listed.get(id)?.queue_position),
    [0, 1, 2],
  );
  for (const id of ids) t.true(listed.get(id)!.estimated_time! > 0);

  // The first render done and the second taken: the third is next, and sooner than before.
  await boss.complete(RENDER_QUEUE, first!.id);
  const second = await take();
  t.is(second?.data.id, ids[1]);
  const drained = await Promise.all(ids.slice(1).map(get));
  t.deepEqual(
    drained.map((g) => g.queue_position),
    [0, 1],
  );
  t.true(drained[1]!.estimated_time! > 0);
  t.true(
    drained[1]!.estimated_time! < busy[2]!.estimated_time!,
    `${drained[1]!.estimated_time} < ${busy[2]!.estimated_time}`,
  );
});

test("a running task shows the progress its worker recorded, and a superseded attempt's progress is not written", async (t) => {
  const { databaseUrl, node, headers } = await apiOnlyNode(t);
  const res = await fetch(`${node.url}/v1/generate`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ prompt: 'a calm piano piece', duration: 60 }),
  });
  const { id } = (await res.json()) as Live;
  const get = async () =>
    (await (await fetch(`${node.url}/v1/generation/${id}`, { headers })).json()) as Live & { progress: number };

  // A worker takes the job and starts the task's first attempt, as render-worker.ts does.
  const boss = await openRenderQueue({ databaseUrl, supervise: false, poolSize: 1 });
  t.teardown(() => boss.stop({ graceful: false }));
  const [job] = await boss.fetch<RenderJob>(RENDER_QUEUE);
  t.is(job?.data.id, id);
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  t.teardown(() => db.end());
  await db.query(`UPDATE generations SET status = 'processing', attempts = 1, started_at = now() WHERE id = $1`, [id]);
  const started = await get();
  t.is(started.progress, 0);

  const progress = new RenderProgress(db);
  await progress.record(id, 1, 0.4);
  const partway = await get();
  t.is(partway.status, 'processing');
  t.is(partway.progress, 0.4);
  // A late write from an attempt that is no longer the task's (attempt 0 here) changes nothing, nor does a step back.
  await progress.record(id, 0, 0.9);
  await progress.record(id, 1, 0.2);
  t.is((await get()).progress, 0.4);
});

test('estimated_time counts stems as twice the work and 48 kHz as 1.05 times, as the in-process queue does', async (t) => {
  const { node, headers } = await apiOnlyNode(t);
  const ids: string[] = [];
  for (const extra of [{}, { stems: true }, { sample_rate: 48000 }]) {
    const res = await fetch(`${node.url}/v1/generate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'a calm piano piece', duration: 60, ...extra }),
    });
    t.is(res.status, 202, await res.clone().text());
    ids.push(((await res.json()) as Live).id);
  }
  const live = await Promise.all(
    ids.map(async (id) => (await (await fetch(`${node.url}/v1/generation/${id}`, { headers })).json()) as Live),
  );
  // Nothing rendered yet on this database: the default speed, 1.5 s + 0.05 s per audio second, so 4.5 s for a plain
  // minute; each task waits for the ones ahead on the one thread the estimate assumes.
  const plain = 1.5 + 60 * 0.05;
  t.deepEqual(
    live.map((g) => g.estimated_time),
    [plain, plain + 2 * plain, plain + 2 * plain + 1.05 * plain].map((seconds) => Math.round(seconds * 10) / 10),
  );
});

test("`tunesmith worker --accounts` renders that account's tasks, in its own line, and leaves the others waiting for shared workers", async (t) => {
  const { databaseUrl, node, headers } = await apiOnlyNode(t);
  const env = { TUNESMITH_DATABASE_URL: databaseUrl };
  const made = await runCli(['keys', 'create', '--plan', 'enterprise', '--json'], {
    ...env,
    TUNESMITH_DATA_DIR: await tempDataDir(t),
  });
  t.is(made.code, 0, made.stderr);
  const vip = JSON.parse(made.stdout) as { key: string; account_id: string };
  const vipHeaders = { ...headers, authorization: `Bearer ${vip.key}` };
  const worker = await startWorkerProcess(t, await tempDataDir(t), env, ['--accounts', vip.account_id]);
  t.truthy(worker.url, worker.output());

  const post = async (asWho: Record<string, string>) => {
    const res = await fetch(`${node.url}/v1/generate`, {
      method: 'POST',
      headers: asWho,
      body: JSON.stringify({ prompt: 'a calm piano piece', duration: 30 }),
    });
    t.is(res.status, 202, await res.clone().text());
    return (await res.json()) as Live;
  };
  // The other account's task first: a worker taking from the shared queue would start it before the vip's.
  const other = await post(headers);
  t.is(other.queue_position, 1);
  const mine = await post(vipHeaders);
  t.is(mine.queue_position === 0 || mine.queue_position === 1, true, JSON.stringify(mine));
  await awaitCompleted(node.url, vipHeaders, mine.id);
  const waiting = (await (await fetch(`${node.url}/v1/generation/${other.id}`, { headers })).json()) as Live;
  t.is(waiting.queue_position, 1, JSON.stringify(waiting));
});

test('`tunesmith worker --accounts` refuses an account whose plan has no dedicated workers, and says how to move it', async (t) => {
  const { databaseUrl } = await apiOnlyNode(t);
  const env = { TUNESMITH_DATABASE_URL: databaseUrl };
  const made = await runCli(['keys', 'create', '--plan', 'developer', '--json'], {
    ...env,
    TUNESMITH_DATA_DIR: await tempDataDir(t),
  });
  t.is(made.code, 0, made.stderr);
  const { account_id } = JSON.parse(made.stdout) as { account_id: string };
  const worker = await startWorkerProcess(t, await tempDataDir(t), env, ['--accounts', account_id]);
  t.is(worker.url, '', worker.output());
  t.not((await worker.exited).code, 0);
  t.regex(
    worker.output(),
    new RegExp(`account ${account_id} is on the Developer plan, which has no dedicated workers`),
  );
  t.regex(worker.output(), new RegExp(`accounts set-plan ${account_id} enterprise`));
});
