/**
 * Two render threads against one, in one process, as `tunesmith serve` runs them (TUNESMITH_WORKERS=2): a pool of
 * two threads renders the same set of tasks one at a time (one thread busy, the other idle) and two at a time, in
 * rounds that alternate the order. Reports each round's throughput ratio (one at a time's wall over two at a time's)
 * and their median, and the CPU each task used in both modes, by thread (the render threads, the audio library's
 * tokio threads, V8's helper threads for garbage collection and compiling, the main thread), read from /proc.
 *
 * The ratio is the figure to quote on a quiet machine (target >= 1.6 on two cores). On a shared one it follows
 * everyone else's load; the CPU per task does not much: equal CPU alone and together means a second thread costs
 * the first nothing (no lock, no main-thread work, no memory-bandwidth stall shows as CPU time), whatever the ratio.
 * About 2 minutes on a quiet 2-core machine with the defaults.
 *
 *   npm run bench:pool [-- --rounds 3] [-- --duration 30]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createRenderPool } from '../engine/pool.ts';
import type { GenerationRequest } from '../engine/index.ts';
import { cpuMsOfStat } from './proc-stat.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, duration: { type: 'string', default: '30' } },
});
const rounds = Math.max(1, Number(values.rounds));
const duration = Number(values.duration);

/** Four kinds of work: sung pop, solo piano, a rock band, lo-fi (the sampled instruments, the singer, the drums). */
const SET: GenerationRequest[] = [
  { prompt: 'an upbeat pop song about the city at night', style: null, instrumental: false, seed: 3, duration },
  { prompt: 'a slow piano ballad', style: null, instrumental: true, seed: 7, duration },
  { prompt: 'a rock song', style: 'rock', instrumental: true, seed: 7, duration },
  { prompt: 'a lo-fi hip hop beat', style: 'lofi', instrumental: true, seed: 7, duration },
];

/** CPU milliseconds per thread of this process so far (Linux: utime + stime, in clock ticks of 10 ms). */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.set(`${name}#${tid}`, cpuMsOfStat(stat));
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return out;
}

/** What each kind of thread used between two readings, and in all. */
function used(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const groups = new Map<string, number>([['all', 0]]);
  for (const [thread, ms] of after) {
    const delta = ms - (before.get(thread) ?? 0);
    const name = thread.replace(/#\d+$/, '');
    const group =
      name === 'WorkerThread'
        ? 'render threads'
        : name === 'tokio-rt-worker'
          ? 'audio (tokio)'
          : name === 'V8Worker'
            ? 'V8 helpers'
            : name === 'MainThread'
              ? 'main'
              : 'other';
    groups.set(group, (groups.get(group) ?? 0) + delta);
    groups.set('all', (groups.get('all') ?? 0) + delta);
  }
  return groups;
}

const pool = createRenderPool({ workers: 2 });
try {
  console.log(`Warming both threads (the set twice, two at a time)… load ${loadavg()[0]?.toFixed(1)}`);
  for (let warm = 0; warm < 2; warm++)
    for (let i = 0; i < SET.length; i += 2) await Promise.all(SET.slice(i, i + 2).map((r) => pool.render(r)));

  const walls = { one: [] as number[], two: [] as number[] };
  const cpu = { one: new Map<string, number[]>(), two: new Map<string, number[]>() };
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const wall: Record<'one' | 'two', number> = { one: 0, two: 0 };
    for (const mode of round % 2 === 0 ? (['one', 'two'] as const) : (['two', 'one'] as const)) {
      const before = threadCpu();
      const started = performance.now();
      if (mode === 'one') for (const request of SET) await pool.render(request);
      else await Promise.all(SET.map((request) => pool.render(request)));
      wall[mode] = performance.now() - started;
      walls[mode].push(wall[mode]);
      for (const [group, ms] of used(before, threadCpu()))
        cpu[mode].set(group, [...(cpu[mode].get(group) ?? []), ms / SET.length]);
    }
    ratios.push(wall.one / wall.two);
    console.log(
      `round ${round + 1}: one at a time ${(wall.one / 1000).toFixed(1)} s, two at a time ${(wall.two / 1000).toFixed(1)} s, ` +
        `throughput ${(wall.one / wall.two).toFixed(2)}× (load ${loadavg()[0]?.toFixed(1)})`,
    );
  }
  console.log(`\n${SET.length} tasks of ${duration} s, ${rounds} rounds, medians:`);
  console.log(`two threads against one: ${median(ratios).toFixed(2)}× the throughput (target >= 1.6)`);
  console.log('CPU ms per task | one at a time | two at a time | two / one');
  for (const group of cpu.one.keys()) {
    const one = median(cpu.one.get(group) ?? []);
    const two = median(cpu.two.get(group) ?? []);
    console.log(`${group} | ${one.toFixed(0)} | ${two.toFixed(0)} | ${one > 0 ? (two / one).toFixed(2) : '-'}`);
  }
} finally {
  await pool.close();
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
