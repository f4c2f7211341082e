/**
 * The warm render of issue 27's six-track set (rock, piano ballad, orchestral, lo-fi, pop, jazz; 60 s each, no
 * encoding beyond the WAV) in each tree named, for comparing an older tree with this one. Each tree renders in its
 * own long-lived child process, warmed first; every track is rendered by each tree in turn, the order alternating
 * from track to track so machine load hits the trees alike. Reports CPU seconds (all threads of the child, which
 * move far less with the machine's load than wall seconds) and wall seconds, per track and summed.
 * With --sung the set is sung instead (the prompts of bench:singer --speed, sung and instrumental); with --beats it
 * is issue 28's boom bap and trap prompts, two seeds each (boom bap's sampler treatment, trap's 808 glides); with
 * --grooves its funk, reggae, blues and pop prompts, as bench:styles words them, with their singers.
 *
 *   npm run bench:render [-- --trees /work/wt/base,.] [-- --rounds 3] [-- --duration 60] [-- --sung | --beats | --grooves]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    trees: { type: 'string', default: '.' },
    duration: { type: 'string', default: '60' },
    sung: { type: 'boolean', default: false },
    beats: { type: 'boolean', default: false },
    grooves: { type: 'boolean', default: false },
  },
});
const rounds = Math.max(1, Number(values.rounds));
const trees = values.trees.split(',').map((tree) => resolve(tree));
const duration = Number(values.duration);

interface Request {
  prompt: string;
  style?: string;
  instrumental: boolean;
  seed: number;
}

const SIX: Request[] = [
  { prompt: 'a rock song', style: 'rock', instrumental: true, seed: 7 },
  { prompt: 'a slow piano ballad', instrumental: true, seed: 7 },
  { prompt: 'an orchestral piece', style: 'orchestral', instrumental: true, seed: 7 },
  { prompt: 'a lo-fi hip hop beat', style: 'lofi', instrumental: true, seed: 7 },
  { prompt: 'a pop track', style: 'pop', instrumental: true, seed: 7 },
  { prompt: 'a jazz tune', style: 'jazz', instrumental: true, seed: 7 },
];
const SUNG: Request[] = ['an upbeat pop song with female vocals', 'a warm folk song with a male singer'].flatMap(
  (prompt) => [
    { prompt, instrumental: true, seed: 100 },
    { prompt, instrumental: false, seed: 100 },
  ],
);

/** The child: renders each request line it is sent, answers with its CPU and wall milliseconds. */
const CHILD = `
import { createInterface } from 'node:readline';
const { renderTrack } = await import(process.env.BENCH_ENGINE);
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const request = JSON.parse(line);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await renderTrack(request);
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started }));
}
`;

interface Timing {
  cpuMs: number;
  wallMs: number;
}

interface Child {
  tree: string;
  process: ChildProcess;
  lines: AsyncIterator<string>;
}

function startChild(tree: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    cwd: tree,
    env: { ...process.env, BENCH_ENGINE: join(tree, 'engine', 'index.ts') },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: Interface = createInterface({ input: child.stdout! });
  return { tree, process: child, lines: lines[Symbol.asyncIterator]() };
}

async function render(child: Child, request: Request, seconds: number): Promise<Timing> {
  child.process.stdin!.write(`${JSON.stringify({ ...request, duration: seconds })}\n`);
  for (;;) {
    const next = await child.lines.next();
    if (next.done) throw new Error(`The child in ${child.tree} stopped`);
    if (next.value.startsWith('{')) return JSON.parse(next.value) as Timing;
  }
}

const BEATS: Request[] = ['boom bap hip hop beat, 90 bpm', 'dark trap beat with 808s, 140 bpm'].flatMap((prompt) => [
  { prompt, instrumental: true, seed: 1 },
  { prompt, instrumental: true, seed: 2 },
]);

const GROOVES: Request[] = [
  'funk groove, 110 bpm',
  'roots reggae song, 76 bpm',
  'blues shuffle, 96 bpm',
  'upbeat pop song, 116 bpm',
].map((prompt) => ({ prompt, instrumental: false, seed: 1 }));

const label = (request: Request) =>
  `${request.prompt}${request.instrumental ? '' : ' (sung)'}${values.beats ? ` seed ${request.seed}` : ''}`;
const set = values.sung ? SUNG : values.beats ? BEATS : values.grooves ? GROOVES : SIX;
const children = trees.map(startChild);
// Warm-up: modules, Tone, the sample bank and (sung) the pronouncing dictionary, once per child.
for (const child of children) {
  for (const request of set) await render(child, request, 5);
}
const totals = new Map<string, Map<string, Timing>>(trees.map((tree) => [tree, new Map()]));
let turn = 0;
for (let round = 0; round < rounds; round++) {
  for (const request of set) {
    const order = turn++ % 2 === 0 ? children : [...children].reverse();
    const row: string[] = [];
    for (const child of order) {
      const timing = await render(child, request, duration);
      const byTrack = totals.get(child.tree)!;
      const sum = byTrack.get(label(request)) ?? { cpuMs: 0, wallMs: 0 };
      byTrack.set(label(request), { cpuMs: sum.cpuMs + timing.cpuMs, wallMs: sum.wallMs + timing.wallMs });
      row.push(`${child.tree}: cpu ${(timing.cpuMs / 1000).toFixed(2)} s wall ${(timing.wallMs / 1000).toFixed(2)} s`);
    }
    console.log(`round ${round + 1}  ${label(request).padEnd(45)} ${row.join('   ')}`);
  }
}
for (const child of children) child.process.stdin!.end();

console.log(`\n${duration} s tracks, ${rounds} round(s): mean CPU s (wall s) per track`);
console.log(`track | ${trees.join(' | ')}`);
console.log(`----- | ${trees.map(() => '---').join(' | ')}`);
const mean = (timing: Timing | undefined, key: keyof Timing) => ((timing?.[key] ?? 0) / rounds / 1000).toFixed(2);
for (const request of set) {
  const cells = trees.map((tree) => {
    const timing = totals.get(tree)!.get(label(request));
    return `${mean(timing, 'cpuMs')} (${mean(timing, 'wallMs')})`;
  });
  console.log(`${label(request)} | ${cells.join(' | ')}`);
}
const sums = trees.map((tree) =>
  [...totals.get(tree)!.values()].reduce((sum, t) => ({ cpuMs: sum.cpuMs + t.cpuMs, wallMs: sum.wallMs + t.wallMs }), {
    cpuMs: 0,
    wallMs: 0,
  }),
);
console.log(`all | ${sums.map((sum) => `${mean(sum, 'cpuMs')} (${mean(sum, 'wallMs')})`).join(' | ')}`);
const first = sums[0]!;
for (const [index, sum] of sums.entries()) {
  if (index === 0) continue;
  console.log(
    `${trees[index]} / ${trees[0]}: CPU ${(sum.cpuMs / first.cpuMs).toFixed(2)}×, wall ${(sum.wallMs / first.wallMs).toFixed(2)}×`,
  );
}
if (values.sung) {
  for (const tree of trees) {
    const byTrack = [...totals.get(tree)!.entries()];
    const sung = byTrack.filter(([name]) => name.endsWith('(sung)'));
    const plain = byTrack.filter(([name]) => !name.endsWith('(sung)'));
    const add = (list: typeof byTrack, key: keyof Timing) => list.reduce((s, [, t]) => s + t[key], 0);
    console.log(
      `${tree}: sung / instrumental CPU ${(add(sung, 'cpuMs') / add(plain, 'cpuMs')).toFixed(2)}×, wall ${(add(sung, 'wallMs') / add(plain, 'wallMs')).toFixed(2)}× (target ≤ 1.5×)`,
    );
  }
}
