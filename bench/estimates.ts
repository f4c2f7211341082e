/**
 * How true `estimated_time` is on a mixed queue (issue 29 part 8: estimates within ±50% of the real wait). A real
 * server (file store, one render thread) is given a queue of tasks at once, mixing lengths, stems and 48 kHz
 * 24-bit; each task's estimate from its 202 is set against the seconds until it really completed (long-polled).
 * Several rounds on one server: the first starts from what the data dir knows (nothing: the unloaded speed scaled by
 * the machine's load, src/jobs/render-speed.ts loadedSpeed), the later ones from the speed it has learned.
 *
 *   npm run bench:estimates [-- --rounds 2]
 */
import { parseArgs } from 'node:util';
import { startBenchServer } from './serve.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2' } } });

/** The queue, in the order posted. */
const QUEUE: { label: string; body: Record<string, unknown> }[] = [
  { label: '30 s', body: { duration: 30 } },
  { label: '60 s stems', body: { duration: 60, stems: true } },
  { label: '120 s 48k/24', body: { duration: 120, sample_rate: 48000, bit_depth: 24 } },
  { label: '60 s sung', body: { duration: 60, prompt: 'a pop song about the city at night, with a female singer' } },
  { label: '180 s stems 48k/24', body: { duration: 180, stems: true, sample_rate: 48000, bit_depth: 24 } },
  { label: '30 s 48k', body: { duration: 30, sample_rate: 48000 } },
  { label: '90 s', body: { duration: 90 } },
  { label: '60 s stems loop', body: { duration: 60, stems: true, loop: true } },
];

const server = await startBenchServer();
const { url, auth } = server;

/** Seconds from now until the generation is completed. */
async function completion(id: string, started: number): Promise<number> {
  for (;;) {
    const res = await fetch(`${url}/v1/generation/${id}?wait=30`, { headers: auth });
    const generation = (await res.json()) as { status: string };
    if (generation.status === 'failed') throw new Error(`A render failed: ${JSON.stringify(generation)}`);
    if (generation.status === 'completed') return (performance.now() - started) / 1000;
  }
}

const within: boolean[] = [];
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    console.log(`round ${round + 1}: ${QUEUE.length} tasks posted at once, one render thread`);
    const posted = [];
    for (const [index, { label, body }] of QUEUE.entries()) {
      const started = performance.now();
      const res = await fetch(`${url}/v1/generate`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'a lofi track for a rainy night', seed: 10 * round + index, ...body }),
      });
      if (res.status !== 202) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
      const { id, estimated_time: estimate } = (await res.json()) as { id: string; estimated_time: number };
      posted.push({ label, estimate, actual: completion(id, started) });
    }
    for (const task of posted) {
      const actual = await task.actual;
      const ok = task.estimate >= 0.5 * actual && task.estimate <= 1.5 * actual;
      within.push(ok);
      console.log(
        `  ${task.label.padEnd(20)} estimated ${String(task.estimate).padStart(4)} s, took ${actual.toFixed(0).padStart(4)} s: ${(task.estimate / actual).toFixed(2)}× ${ok ? '' : '(outside ±50%)'}`,
      );
    }
  }
  const share = within.filter(Boolean).length;
  console.log(`within ±50% of the real wait: ${share} of ${within.length}`);
} finally {
  await server.stop();
}
