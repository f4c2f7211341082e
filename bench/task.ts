/**
 * What a client waits for, through real servers with one render thread each (issue 27): POST /v1/generate to
 * completed (long-polled as docs/api.md says), and POST to the first byte of the MP3, for 30, 60 and 180 s tracks;
 * beside the bare render of the same request in this process (interpret, compose, render: no encoding at all).
 * Each tree named gets its own server; rounds alternate the trees' order so machine load hits them alike. Beside
 * the wall times, the CPU seconds the server process spent (all its threads, read from /proc) and the bare render's
 * own: on a shared machine CPU time moves far less with the load than wall time does.
 *
 *   npm run bench:task [-- --rounds 2] [-- --trees /work/wt/base,.]   (a tree: a checkout with node_modules)
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { compose } from '../engine/compose/index.ts';
import type { GenerationRequest } from '../engine/index.ts';
import { interpret } from '../engine/interpret/index.ts';
import { renderScore } from '../engine/render/index.ts';
import { startBenchServer, type BenchServer } from './serve.ts';
import { cpuMsOfStat } from './proc-stat.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    trees: { type: 'string', default: '.' },
    durations: { type: 'string', default: '30,60,180' },
  },
});
const rounds = Math.max(1, Number(values.rounds));
const trees = values.trees.split(',').map((tree) => resolve(tree));
const durations = values.durations.split(',').map(Number);
const PROMPT = 'an upbeat pop song about the city at night';
const SEED = 3;

/** CPU milliseconds the process has used so far, all threads (Linux: utime + stime in clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  return cpuMsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

interface Timing {
  completed: number;
  firstMp3: number;
  cpuCompleted: number;
  cpuFirstMp3: number;
}

/** Milliseconds (wall and the server's CPU) from the POST to completed, and to the first byte of the MP3 fetched right after. */
async function task(server: BenchServer, duration: number): Promise<Timing> {
  const { auth } = server;
  const cpuStarted = cpuMs(server.child.pid);
  const started = performance.now();
  const created = await fetch(`${server.url}/v1/generate`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: PROMPT, duration, seed: SEED }),
  });
  if (created.status !== 202) throw new Error(`POST answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  let generation: { status: string; download_urls?: Record<string, string> };
  do {
    const res = await fetch(`${server.url}/v1/generation/${id}?wait=30`, { headers: auth });
    generation = (await res.json()) as typeof generation;
    if (generation.status === 'failed') throw new Error(`The render failed: ${JSON.stringify(generation)}`);
  } while (generation.status !== 'completed');
  const completed = performance.now() - started;
  const cpuCompleted = cpuMs(server.child.pid) - cpuStarted;
  const mp3 = await fetch(generation.download_urls?.mp3 ?? '');
  const reader = mp3.body?.getReader();
  await reader?.read();
  const firstMp3 = performance.now() - started;
  const cpuFirstMp3 = cpuMs(server.child.pid) - cpuStarted;
  await reader?.cancel();
  return { completed, firstMp3, cpuCompleted, cpuFirstMp3 };
}

/** The bare render's wall and CPU milliseconds (nothing else runs in this process meanwhile). */
async function bareRender(duration: number): Promise<{ wall: number; cpu: number }> {
  const request: GenerationRequest = { prompt: PROMPT, duration, style: null, instrumental: false, seed: SEED };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await renderScore(compose(interpret(request)));
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

const servers: BenchServer[] = [];
try {
  for (const tree of trees) servers.push(await startBenchServer(tree));
  console.log(`Warming up (one 30 s task per server, one bare render)…`);
  for (const server of servers) await task(server, 30);
  await bareRender(30);

  const results = new Map<string, number[]>();
  const add = (name: string, ms: number) => results.set(name, [...(results.get(name) ?? []), ms]);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const duration of durations) {
      const bare = await bareRender(duration);
      add(`bare render ${duration}`, bare.wall);
      add(`bare render cpu ${duration}`, bare.cpu);
      for (const server of order) {
        const timing = await task(server, duration);
        add(`${server.tree} ${duration} completed`, timing.completed);
        add(`${server.tree} ${duration} mp3`, timing.firstMp3);
        add(`${server.tree} ${duration} cpu completed`, timing.cpuCompleted);
        add(`${server.tree} ${duration} cpu mp3`, timing.cpuFirstMp3);
      }
    }
    console.log(`round ${round + 1} of ${rounds} done`);
  }

  const s = (ms: number) => (ms / 1000).toFixed(2);
  const of = (name: string) => median(results.get(name) ?? []);
  console.log(`\nSeconds, median of ${rounds} (pop prompt, seed ${SEED}, one render thread per server):`);
  for (const [label, prefix] of [
    ['wall', ''],
    ['CPU (the server process, all threads; the bare render, this process)', 'cpu '],
  ] as const) {
    console.log(`\n${label}`);
    console.log('tree | track s | bare render | POST→completed (× bare) | POST→first MP3 byte (× bare)');
    for (const duration of durations) {
      const bare = of(`bare render ${prefix}${duration}`);
      for (const server of servers) {
        const completed = of(`${server.tree} ${duration} ${prefix}completed`);
        const mp3 = of(`${server.tree} ${duration} ${prefix}mp3`);
        console.log(
          `${server.tree} | ${duration} | ${s(bare)} | ${s(completed)} (${(completed / bare).toFixed(2)}×) | ${s(mp3)} (${(mp3 / bare).toFixed(2)}×)`,
        );
      }
    }
  }
} finally {
  for (const server of servers) await server.stop();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
