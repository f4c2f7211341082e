/**
 * The first render of a fresh render worker against its later ones (issue 27, point 4): a fresh process pays once
 * for what Tone and node-web-audio-api cache (periodic waves, the sample bank), so warm benchmarks never show it.
 * Each tree named renders the same request twice in a fresh process; rounds alternate the trees' order so the
 * machine's load hits them alike. Reports the CPU time (all threads of the child) of the first and the second
 * render: the difference is what every fresh worker pays before its first track.
 *
 *   npm run bench:first-render [-- --rounds 3] [-- --trees /work/wt/base,.] [-- --style pop --duration 30]
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    trees: { type: 'string', default: '.' },
    style: { type: 'string', default: 'pop' },
    duration: { type: 'string', default: '30' },
  },
});
const rounds = Math.max(1, Number(values.rounds));
const trees = values.trees.split(',').map((tree) => resolve(tree));

interface Run {
  firstCpuMs: number;
  firstWallMs: number;
  secondCpuMs: number;
}

/** The child: two renders of one request, each timed with process.cpuUsage (every thread of the process). */
const CHILD = `
const { renderTrack } = await import(process.env.BENCH_ENGINE);
const request = { prompt: 'a ${values.style} track', duration: ${Number(values.duration)}, style: '${values.style}', instrumental: true, seed: 1234 };
const timed = async () => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await renderTrack(request);
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
};
const first = await timed();
const second = await timed();
console.log(JSON.stringify({ firstCpuMs: first.cpuMs, firstWallMs: first.wallMs, secondCpuMs: second.cpuMs }));
`;

function runFresh(tree: string): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    cwd: tree,
    env: { ...process.env, BENCH_ENGINE: join(tree, 'engine', 'index.ts') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((done, fail) => {
    child.on('exit', (code) => {
      const line = output.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) done(JSON.parse(line) as Run);
      else fail(new Error(`The render in ${tree} failed (exit ${code}):\n${output}`));
    });
  });
}

const runs = new Map<string, Run[]>(trees.map((tree) => [tree, []]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? trees : [...trees].reverse();
  for (const tree of order) {
    const run = await runFresh(tree);
    runs.get(tree)?.push(run);
    console.log(
      `round ${round + 1}  ${tree}: first cpu ${(run.firstCpuMs / 1000).toFixed(2)} s (wall ${(run.firstWallMs / 1000).toFixed(2)} s), second cpu ${(run.secondCpuMs / 1000).toFixed(2)} s`,
    );
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
console.log(`\n${values.style}, ${values.duration} s, ${rounds} rounds (medians, CPU seconds of the whole process)`);
console.log('tree | first render | second render | first minus second');
console.log('---- | ------------ | ------------- | ------------------');
for (const [tree, list] of runs) {
  const first = median(list.map((run) => run.firstCpuMs)) / 1000;
  const second = median(list.map((run) => run.secondCpuMs)) / 1000;
  const extra = median(list.map((run) => run.firstCpuMs - run.secondCpuMs)) / 1000;
  console.log(`${tree} | ${first.toFixed(2)} | ${second.toFixed(2)} | ${extra.toFixed(2)}`);
}
