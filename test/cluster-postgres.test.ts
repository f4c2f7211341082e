/**
 * Several machines' worth of processes on one real PostgreSQL: two API nodes (`tunesmith serve` with
 * TUNESMITH_WORKERS=0) and two render workers (`tunesmith worker`), real renders of 30 s tracks, the audio in one
 * shared directory (the shared volume of a real deployment). What only processes show: a worker killed with
 * SIGKILL mid-render, an API node killed mid-request, webhooks sent once although every API node runs a sender.
 */
import test, { type ExecutionContext } from 'ava';
import { openPostgresRepository } from '../src/store/postgres/index.ts';
import { freshDatabase } from './helpers/postgres.ts';
import {
  eventually,
  startServerProcess,
  startWorkerProcess,
  tempDataDir,
  type ServerProcess,
} from './helpers/process.ts';
import { startReceiver } from './helpers/webhooks.ts';
import type { Json } from './helpers/json.ts';
import { awaitCompleted } from './helpers/long-poll.ts';

interface Cluster {
  api: ServerProcess[];
  workers: ServerProcess[];
  key: string;
  call(node: ServerProcess, path: string, init?: RequestInit): Promise<Response>;
}

/** An Enterprise account (600 requests a minute: the polling below stays well within) and its key, then the processes. */
async function startCluster(t: ExecutionContext, options: { workers?: number } = {}): Promise<Cluster> {
  const url = await freshDatabase(t);
  const dataDir = await tempDataDir(t);
  const repository = await openPostgresRepository({ url });
  const account = await repository.createAccount({ plan: 'enterprise', name: 'cluster' });
  const { key } = await repository.createKey(account.id, 'cluster test');
  await repository.close();
  // A short lease, so a dead worker's task is handed on within seconds, not the default minute or two.
  const env = {
    TUNESMITH_DATABASE_URL: url,
    TUNESMITH_JOB_LEASE_SECONDS: '10',
    TUNESMITH_WEBHOOK_ALLOW_PRIVATE: '1',
    TUNESMITH_LOG_LEVEL: 'info',
  };
  const api = await Promise.all([0, 1].map(() => startServerProcess(t, dataDir, { ...env, TUNESMITH_WORKERS: '0' })));
  const workers = await Promise.all(
    Array.from({ length: options.workers ?? 2 }, () =>
      startWorkerProcess(t, dataDir, { ...env, TUNESMITH_WORKERS: '1' }),
    ),
  );
  for (const node of [...api, ...workers]) t.truthy(node.url, `a process did not start: ${node.output()}`);
  const call = (node: ServerProcess, path: string, init: RequestInit = {}) =>
    fetch(node.url + path, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    });
  return { api, workers, key, call };
}

const generate = (cluster: Cluster, node: ServerProcess, prompt: string, extra: Record<string, unknown> = {}) =>
  cluster.call(node, '/v1/generate', { method: 'POST', body: JSON.stringify({ prompt, duration: 30, ...extra }) });

/** The log lines (pino JSON on stdout) of a process with this message. */
function logLines(node: ServerProcess, message: string): Json[] {
  return node
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Json)
    .filter((entry) => entry.msg === message);
}

/** Resolves once `nodes` have logged `count` lines with this message between them (or after `timeoutMs`, to let the assertion say what is missing). */
function untilLogged(nodes: ServerProcess[], message: string, count: number, timeoutMs: number): Promise<void> {
  const enough = () => nodes.reduce((sum, node) => sum + logLines(node, message).length, 0) >= count;
  if (enough()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const node of nodes) node.child.stdout?.off('data', check);
      resolve();
    };
    const check = () => {
      if (enough()) done();
    };
    const timer = setTimeout(done, timeoutMs);
    for (const node of nodes) node.child.stdout?.on('data', check);
  });
}

/** Long-polls every task, each through one of the two API nodes in turn, until all have completed. */
async function completed(cluster: Cluster, ids: string[], timeoutMs: number): Promise<Json[]> {
  const headers = { Authorization: `Bearer ${cluster.key}` };
  return Promise.all(ids.map((id, i) => awaitCompleted(cluster.api[i % 2]!.url, headers, id, timeoutMs)));
}

test.serial(
  '8 tasks posted across two API nodes are rendered by two workers, each exactly once, and each webhook is sent once',
  async (t) => {
    t.timeout(240_000);
    const receiver = await startReceiver(t);
    const cluster = await startCluster(t);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await generate(cluster, cluster.api[i % 2]!, `calm piano number ${i}`, {
        callback_url: receiver.url,
        seed: i,
      });
      t.is(response.status, 202);
      ids.push(((await response.json()) as { id: string }).id);
    }
    const done = await completed(cluster, ids, 200_000);
    t.deepEqual(
      done.map((generation) => generation.id),
      ids,
    );

    // A worker logs a completion just after its commit, which a long poll may hear of first.
    await untilLogged(cluster.workers, 'task completed', ids.length, 30_000);
    const renders = cluster.workers.map((worker) =>
      logLines(worker, 'task completed').map((line) => line.gen_id as string),
    );
    t.deepEqual([...renders.flat()].sort(), [...ids].sort(), 'each task completed once, by one worker');
    t.true(
      renders.every((mine) => mine.length > 0),
      `both workers rendered (${renders.map((mine) => mine.length).join(' + ')})`,
    );

    // The other node serves what a worker stored.
    const wav = await fetch(done[0]!.download_urls.wav);
    t.is(wav.status, 200);
    const bytes = Buffer.from(await wav.arrayBuffer());
    t.is(bytes.subarray(0, 4).toString('latin1'), 'RIFF');

    // Both API nodes run a delivery worker: each event reaches the receiver once.
    await receiver.waitFor(8, 30_000);
    await eventually(
      async () => {
        const { data } = (await (await cluster.call(cluster.api[1]!, '/v1/webhooks/deliveries?limit=100')).json()) as {
          data: { status: string }[];
        };
        return data.length === 8 && data.every((delivery) => delivery.status === 'delivered') ? data : undefined;
      },
      15_000,
      'every delivery logged as delivered',
      500,
    );
    const announced = receiver.requests.map((request) => `${request.json.type} ${request.json.data.id}`);
    t.deepEqual(announced.sort(), ids.map((id) => `generation.completed ${id}`).sort());
  },
);

test.serial(
  'a worker killed with SIGKILL mid-render has its task re-run by the other worker, completed once, announced once',
  async (t) => {
    t.timeout(240_000);
    const receiver = await startReceiver(t);
    const cluster = await startCluster(t);
    const response = await generate(cluster, cluster.api[0]!, 'a slow ballad for a long night', {
      callback_url: receiver.url,
    });
    t.is(response.status, 202);
    const { id } = (await response.json()) as { id: string };

    const victim = await eventually(
      () => cluster.workers.find((worker) => logLines(worker, 'task started').some((line) => line.gen_id === id)),
      60_000,
      'a worker to start the render',
      50,
    );
    t.is((await victim.kill('SIGKILL')).signal, 'SIGKILL');
    const survivor = cluster.workers.find((worker) => worker !== victim)!;

    const [done] = await completed(cluster, [id], 180_000);
    t.is(done!.status, 'completed');
    t.deepEqual(logLines(victim, 'task completed'), [], 'the killed worker never finished it');
    // The survivor's log is read from its stdout, which can reach the test after the database says completed.
    const finished = await eventually(
      () => {
        const lines = logLines(survivor, 'task completed');
        return lines.length > 0 ? lines : undefined;
      },
      30_000,
      "the survivor's completed line",
      50,
    );
    t.deepEqual(
      finished.map((line) => line.gen_id),
      [id],
    );
    t.deepEqual(
      logLines(survivor, 'task started').map((line) => line.attempt),
      [2],
      'the survivor ran it as the second attempt',
    );

    await receiver.waitFor(1, 30_000);
    const { data } = (await (await cluster.call(cluster.api[1]!, '/v1/webhooks/deliveries?limit=100')).json()) as {
      data: unknown[];
    };
    t.is(data.length, 1, 'one event, one delivery');
    t.deepEqual(
      receiver.requests.map((request) => request.json.type),
      ['generation.completed'],
    );
  },
);

test.serial(
  'an API node killed mid-request loses nothing it acknowledged: the other node shows every accepted task, and each completes',
  async (t) => {
    t.timeout(240_000);
    const cluster = await startCluster(t);
    const [doomed, other] = cluster.api as [ServerProcess, ServerProcess];
    const acknowledged: string[] = [];
    // Requests keep going to the doomed node until it dies under them; whatever it answered 202 must exist.
    const sending = (async () => {
      for (let i = 0; i < 40; i++) {
        try {
          const response = await generate(cluster, doomed, `a short loop number ${i}`, { seed: i });
          if (response.status === 202) acknowledged.push(((await response.json()) as { id: string }).id);
        } catch {
          return; // the connection died with the node
        }
      }
    })();
    await eventually(() => (acknowledged.length >= 3 ? true : undefined), 30_000, 'some accepted requests', 10);
    await doomed.kill('SIGKILL');
    await sending;
    t.true(acknowledged.length >= 3);

    const { data } = (await (await cluster.call(other, '/v1/generations?limit=100')).json()) as {
      data: { id: string }[];
    };
    const listed = new Set(data.map((generation) => generation.id));
    t.deepEqual(
      acknowledged.filter((id) => !listed.has(id)),
      [],
      'every acknowledged task is there',
    );
    // Every task the database holds (acknowledged or cut off after its commit) is rendered, each once.
    const all = [...listed];
    await eventually(
      async () => {
        const states = await Promise.all(
          all.map(
            async (id) =>
              ((await (await cluster.call(other, `/v1/generation/${id}`)).json()) as { status: string }).status,
          ),
        );
        return states.every((status) => status === 'completed') ? states : undefined;
      },
      200_000,
      'every stored task to complete',
      1000,
    );
    const renders = cluster.workers.flatMap((worker) =>
      logLines(worker, 'task completed').map((line) => line.gen_id as string),
    );
    t.deepEqual(renders.sort(), all.sort());
  },
);

test.serial(
  "an extension posted to one API node is rendered by a worker from the source's stored audio: its bytes up to the ending's bar line are the source's",
  async (t) => {
    t.timeout(240_000);
    const cluster = await startCluster(t, { workers: 1 });
    const created = await generate(cluster, cluster.api[0]!, 'a chill lofi beat with piano', {
      seed: 4242,
      instrumental: true,
    });
    const [source] = await completed(cluster, [((await created.json()) as { id: string }).id], 120_000);
    const extend = await cluster.call(cluster.api[1]!, `/v1/generation/${source!.id}/extend`, {
      method: 'POST',
      body: JSON.stringify({ seconds: 8 }),
    });
    t.is(extend.status, 202, await extend.clone().text());
    const [extended] = await completed(cluster, [((await extend.json()) as { id: string }).id], 120_000);
    t.deepEqual(extended!.source, { id: source!.id, operation: 'extend' });
    const [before, after] = await Promise.all(
      [source!, extended!].map(async (g) => Buffer.from(await (await fetch(g.download_urls.wav)).arrayBuffer())),
    );
    // 44-byte canonical headers; the PCM up to the bar line where the source's ending starts is the same.
    const cut = 44 + Math.round((source!.plan as { start: number }[]).at(-1)!.start * 44100) * 4;
    t.true(after!.length > before!.length);
    t.true(after!.subarray(44, cut).equals(before!.subarray(44, cut)));
  },
);
