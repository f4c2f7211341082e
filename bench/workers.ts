/**
 * npm run bench:workers — render throughput of 1 against 2 `tunesmith worker` processes (one render thread each)
 * on one PostgreSQL, and the queue's pickup latency (the task committed → its render started on an idle worker).
 *
 * Each run gets a fresh database on a throwaway cluster (test/helpers/postgres.ts), one API-only node
 * (TUNESMITH_WORKERS=0), the workers, and a shared audio dir. Throughput: BENCH_TASKS (8) tasks of 30 s posted at
 * once, timed from the first post to the last completion (polled every 200 ms), in BENCH_ROUNDS (2) rounds that
 * alternate 1 and 2 workers; the ratio of each round's pair and their median are reported. Pickup latency:
 * BENCH_PICKUPS (20) tasks posted one at a time to 2 idle workers, read from the workers' own `task started` log
 * lines (pickup_ms: the render's start minus the generation's created_at, which the enqueue shares).
 * Target: 2 workers >= 1.7x the throughput of 1 on a 2-core machine.
 *
 * Each run also reports the CPU seconds its workers used (all threads, from /proc, so Linux only) and how many tasks
 * each rendered: on a shared machine the wall-clock ratio moves with everyone else's load, the CPU seconds per task
 * far less. With BENCH_WARM=1 each worker first renders two tasks of its own (a sung pop song, then a piano piece of
 * another seed; not timed), so the timed tasks find warm workers (modules, Tone, the sound bank, the piano's notes in
 * the note cache) as a long-lived service's would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPostgresRepository } from '../src/store/postgres/index.ts';
import { postgresServer } from '../test/helpers/postgres.ts';
import type { Json } from '../test/helpers/json.ts';
import { cpuMsOfStat } from './proc-stat.ts';

const TASKS = Number(process.env.BENCH_TASKS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PICKUPS = Number(process.env.BENCH_PICKUPS ?? 20);
const WARM = process.env.BENCH_WARM === '1';
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

interface Proc {
  child: ChildProcess;
  url: string;
  log: () => Json[];
  stop(): Promise<void>;
}

function startProcess(command: 'serve' | 'worker', env: Record<string, string>): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, command], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', TUNESMITH_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const ready = command === 'serve' ? /Tunesmith listening on (http:\/\/\S+)/ : /Tunesmith worker (taking)/;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      resolve({
        child,
        url: match[1]!,
        log: () =>
          stdout
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line) as Json),
        async stop() {
          child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`${command} exited: ${output}`)));
  });
}

interface Run {
  api: Proc;
  workers: Proc[];
  key: string;
  close(): Promise<void>;
}

let runs = 0;
async function startRun(workers: number): Promise<Run> {
  const server = await postgresServer();
  const name = `bench_workers_${process.pid}_${++runs}`;
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = `postgres://postgres@127.0.0.1:${server.port}/${name}`;
  const repository = await openPostgresRepository({ url });
  const account = await repository.createAccount({ plan: 'enterprise', name: 'bench' });
  const { key } = await repository.createKey(account.id, 'bench');
  await repository.close();
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-bench-workers-'));
  const env = { TUNESMITH_DATABASE_URL: url, TUNESMITH_DATA_DIR: dataDir };
  const api = await startProcess('serve', { ...env, TUNESMITH_WORKERS: '0' });
  const started = await Promise.all(
    Array.from({ length: workers }, () => startProcess('worker', { ...env, TUNESMITH_WORKERS: '1' })),
  );
  return {
    api,
    workers: started,
    key,
    async close() {
      await Promise.all([api, ...started].map((proc) => proc.stop()));
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const call = (run: Run, path: string, init: RequestInit = {}) =>
  fetch(run.api.url + path, {
    ...init,
    headers: { Authorization: `Bearer ${run.key}`, 'Content-Type': 'application/json' },
  });

async function post(run: Run, prompt: string, seed: number): Promise<string> {
  const response = await call(run, '/v1/generate', {
    method: 'POST',
    body: JSON.stringify({ prompt, duration: 30, seed }),
  });
  if (response.status !== 202) throw new Error(`POST /v1/generate: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

async function allCompleted(run: Run, ids: string[]): Promise<void> {
  for (;;) {
    const { data } = (await (await call(run, '/v1/generations?limit=100')).json()) as {
      data: { id: string; status: string }[];
    };
    const done = data.filter((generation) => ids.includes(generation.id) && generation.status === 'completed').length;
    if (done === ids.length) return;
    if (data.some((generation) => generation.status === 'failed')) throw new Error('a task failed');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** CPU seconds a process has used so far, all its threads (fields 14 and 15 of /proc/PID/stat, in clock ticks). */
async function cpuSeconds(pid: number): Promise<number> {
  return cpuMsOfStat(await readFile(`/proc/${pid}/stat`, 'utf8')) / 1000;
}

interface Throughput {
  /** Tasks per minute. */
  rate: number;
  /** CPU seconds the workers used for the timed tasks, summed. */
  cpu: number;
  /** Timed tasks each worker rendered. */
  perWorker: number[];
}

const rendered = (worker: Proc) => worker.log().filter((line) => line.msg === 'task started').length;

/** Tasks per minute with `workers` worker processes. */
async function throughput(workers: number, round: number): Promise<Throughput> {
  const run = await startRun(workers);
  try {
    if (WARM) {
      // One task per worker, posted together so that each idle worker takes one; then one of the timed tasks' kind
      // (another seed), so each worker's note cache holds the piano a long-lived worker would have played before.
      for (const prompt of ['a warm-up song for a worker, number', 'a calm piano piece, warm-up']) {
        const warmIds = await Promise.all(run.workers.map((_, i) => post(run, `${prompt} ${i}`, 9000 + i)));
        await allCompleted(run, warmIds);
      }
    }
    const before = run.workers.map(rendered);
    const cpuBefore = await Promise.all(run.workers.map((worker) => cpuSeconds(worker.child.pid!)));
    const started = performance.now();
    const ids = await Promise.all(
      Array.from({ length: TASKS }, (_, i) => post(run, `a calm piano piece, take ${i}`, round * 1000 + i)),
    );
    await allCompleted(run, ids);
    const minutes = (performance.now() - started) / 60_000;
    const cpuAfter = await Promise.all(run.workers.map((worker) => cpuSeconds(worker.child.pid!)));
    return {
      rate: TASKS / minutes,
      cpu: cpuAfter.reduce((sum, cpu, i) => sum + cpu - cpuBefore[i]!, 0),
      perWorker: run.workers.map((worker, i) => rendered(worker) - before[i]!),
    };
  } finally {
    await run.close();
  }
}

async function pickupLatency(): Promise<number[]> {
  const run = await startRun(2);
  try {
    for (let i = 0; i < PICKUPS; i++) {
      const id = await post(run, `a short pickup probe ${i}`, 5000 + i);
      await allCompleted(run, [id]);
    }
    return run.workers.flatMap((worker) =>
      worker
        .log()
        .filter((line) => line.msg === 'task started')
        .map((line) => Number(line.pickup_ms)),
    );
  } finally {
    await run.close();
  }
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

console.log(
  `bench:workers — ${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(
      ' ',
    )} at start; ${TASKS} tasks of 30 s per run, ${ROUNDS} alternating round(s)${WARM ? ', warm workers' : ''}`,
);
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which side goes first, so a change in the machine's load hits both alike.
  const order = round % 2 === 0 ? [1, 2] : [2, 1];
  const result: Record<number, Throughput> = {};
  for (const workers of order) result[workers] = await throughput(workers, round);
  const one = result[1]!,
    two = result[2]!;
  ratios.push(two.rate / one.rate);
  console.log(
    `round ${round + 1}: 1 worker ${one.rate.toFixed(1)} tasks/min (${(one.cpu / TASKS).toFixed(2)} CPU s per task), 2 workers ${two.rate.toFixed(1)} tasks/min (${(two.cpu / TASKS).toFixed(2)} CPU s per task, tasks per worker ${two.perWorker.join('+')}), ratio ${(two.rate / one.rate).toFixed(2)}x; load ${loadavg()[0]!.toFixed(1)}`,
  );
}
console.log(`throughput ratio 2:1 workers, median of ${ROUNDS}: ${median(ratios).toFixed(2)}x (target >= 1.7x)`);
if (PICKUPS > 0) {
  const pickups = await pickupLatency();
  console.log(
    `queue pickup (commit -> render start, idle workers, n=${pickups.length}): p50 ${median(pickups)} ms, p99 ${percentile(pickups, 99)} ms, max ${Math.max(...pickups)} ms`,
  );
}
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
process.exit(0);
