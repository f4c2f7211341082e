/**
 * What a second render process costs the first, without a database or a queue: two long-lived processes, each
 * warmed on the same four 30 s piano pieces (twice, so every note is in its cache), then, in alternating rounds,
 * each renders the set alone and both render it at once. Prints CPU seconds per render (all threads of the
 * process) and wall seconds, and the throughput of two at once against one alone. On a shared machine the wall
 * figures follow everyone else's load; equal CPU per render alone and together means a second worker costs the
 * first nothing, whatever the throughput ratio comes to (bench:workers measures the same through the queue).
 *
 *   npm run bench:concurrency [-- --rounds 3]
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Math.max(1, Number(values.rounds));

/** The child: warms on the set, then renders it once per line it is sent and answers with per-render figures. */
const CHILD = `
import { createInterface } from 'node:readline';
const { renderTrack } = await import(process.env.BENCH_ENGINE);
const set = [0, 1, 2, 3].map((i) => ({ prompt: 'a calm piano piece, take ' + i, seed: i, duration: 30 }));
for (let warm = 0; warm < 2; warm++) for (const request of set) await renderTrack(request);
console.log('ready');
for await (const line of createInterface({ input: process.stdin })) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const request of set) await renderTrack(request);
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ cpu: (used.user + used.system) / 1e6 / set.length, wall: (performance.now() - started) / 1000 / set.length }));
}
`;

interface Figures {
  cpu: number;
  wall: number;
}

function start() {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    env: { ...process.env, BENCH_ENGINE: join(process.cwd(), 'engine', 'index.ts') },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error('a render process stopped');
    return line.value;
  };
  return {
    child,
    next,
    async run(): Promise<Figures> {
      child.stdin.write('go\n');
      return JSON.parse(await next()) as Figures;
    },
  };
}

const a = start(),
  b = start();
while ((await a.next()) !== 'ready');
while ((await b.next()) !== 'ready');
const f = (x: number) => x.toFixed(2);
console.log(`bench:concurrency — load average ${loadavg().map(f).join(' ')} at start; 4 renders of 30 s per set`);
for (let round = 0; round < rounds; round++) {
  const [first, second] = round % 2 === 0 ? [a, b] : [b, a];
  const alone = await first.run();
  const together = await Promise.all([a.run(), b.run()]);
  const aloneToo = await second.run();
  const aloneWall = (alone.wall + aloneToo.wall) / 2;
  const togetherWall = (together[0].wall + together[1].wall) / 2;
  console.log(
    `round ${round + 1}: alone ${f(alone.cpu)}/${f(aloneToo.cpu)} CPU s per render (wall ${f(alone.wall)}/${f(aloneToo.wall)}), two at once ${f(together[0].cpu)}/${f(together[1].cpu)} (wall ${f(together[0].wall)}/${f(together[1].wall)}); throughput 2:1 ${f((2 * aloneWall) / togetherWall)}x; load ${f(loadavg()[0] ?? 0)}`,
  );
}
a.child.stdin.end();
b.child.stdin.end();
