/**
 * Memory of a render (issue 29) and of a long-lived worker (issue 27): each measurement in a fresh process with a
 * render pool of one worker (bench/memory-child.ts), reporting the peak RSS over the idle process and the RSS
 * left afterwards. With `--against DIR` (a checkout of an older commit, its node_modules linked), this tree and
 * that one are measured alternately, round by round, so machine load hits both alike.
 *
 *   npm run bench:memory [-- --against DIR] [--rounds N] [--duration S] [--tracks N] [--malloc]
 *
 * Default: the heaviest single render (a sung 180 s loop with every stem, 48 kHz 24-bit WAV). `--tracks N`:
 * N varied tracks (styles, lengths, stems, rates) in one worker instead, the long-lived worker's peak.
 * `--malloc`: this tree twice, alternately, with glibc's default malloc settings and with those `tunesmith serve`
 * and `worker` start with (src/memory-settings.ts: MALLOC_MMAP_THRESHOLD_), instead of against another tree.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { MMAP_THRESHOLD } from '../src/memory-settings.ts';

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    duration: { type: 'string', default: '180' },
    tracks: { type: 'string' },
    malloc: { type: 'boolean', default: false },
  },
});
const here = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const child = fileURLToPath(new URL('./memory-child.ts', import.meta.url));
const duration = Number(values.duration);
const STYLES = ['rock', 'pop', 'lofi', 'orchestral', 'jazz', 'synthwave', 'folk', 'trap', 'ambient', 'house'];

/** The heaviest request the API takes: 180 s, sung, a loop, every stem, 48 kHz 24-bit. */
const heaviest = {
  prompt: 'a rock song about the sea',
  duration,
  style: 'rock',
  instrumental: false,
  seed: 7,
  stems: true,
  loop: true,
  output: { sampleRate: 48000, bitDepth: 24, formats: ['wav', 'lrc', 'vtt'] },
};

/** N varied tracks: every style in turn, 30/60/120 s, sung every other, stems every fourth, 48 kHz every third. */
function varied(count: number): unknown[] {
  return Array.from({ length: count }, (_, i) => ({
    prompt: `a ${STYLES[i % STYLES.length]} song about the night`,
    duration: [30, 60, 120][i % 3],
    style: STYLES[i % STYLES.length],
    instrumental: i % 2 === 1,
    seed: 100 + i,
    ...(i % 4 === 0 ? { stems: true } : {}),
    output: i % 3 === 0 ? { sampleRate: 48000, bitDepth: 24, formats: ['wav'] } : { formats: ['wav'] },
  }));
}

interface Measurement {
  idle: number;
  peak: number;
  after: number;
  seconds: number;
}

async function measure(root: string, requests: unknown[], env: NodeJS.ProcessEnv): Promise<Measurement> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', child, '--root', root, '--requests', JSON.stringify(requests)],
    { maxBuffer: 1 << 20, env },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Measurement;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const tracks = values.tracks ? Number(values.tracks) : null;
const requests = tracks ? varied(tracks) : [heaviest];
const { MALLOC_MMAP_THRESHOLD_: _, ...glibcDefault } = process.env;
const trees = values.malloc
  ? [
      { name: "glibc's default", root: here, env: glibcDefault },
      {
        name: `MALLOC_MMAP_THRESHOLD_=${MMAP_THRESHOLD} (serve)`,
        root: here,
        env: { ...glibcDefault, MALLOC_MMAP_THRESHOLD_: MMAP_THRESHOLD },
      },
    ]
  : [
      { name: 'this tree', root: here, env: process.env },
      ...(values.against ? [{ name: values.against, root: values.against, env: process.env }] : []),
    ];
console.log(
  tracks
    ? `long-lived worker: ${tracks} varied tracks in one worker thread`
    : `heaviest render: ${duration} s sung loop, every stem, 48 kHz 24-bit, one worker thread`,
);
for (let round = 0; round < Number(values.rounds); round++) {
  // Alternate which tree goes first, so neither always runs on the quieter half of the round.
  for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) {
    const m = await measure(tree.root, requests, tree.env);
    console.log(
      `  round ${round + 1} ${tree.name}: idle ${mib(m.idle)}, peak ${mib(m.peak)} (${mib(m.peak - m.idle)} over idle), after ${mib(m.after)}, ${m.seconds.toFixed(0)} s`,
    );
  }
}
