/**
 * The cost of stems and of loops in one thread: the same 60 s requests rendered plain, with stems and as a loop,
 * alternating in one run so machine load hits all three alike; each as wall time and as a ratio to plain.
 *
 *   npm run bench:stems [-- --rounds N --duration S]
 */
import { renderTrack, type GenerationRequest } from '../engine/index.ts';

const STYLES = ['lofi', 'rock', 'orchestral'];

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

async function wallMs(request: GenerationRequest): Promise<number> {
  const started = performance.now();
  await renderTrack(request);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const rounds = argument('--rounds', 2);
  const duration = argument('--duration', 60);
  console.log(`plain vs stems vs loop: ${STYLES.join(', ')} × ${duration} s, ${rounds} round(s), alternating`);
  // Warm-up: module load, Tone and the sample banks are not the stems' cost.
  await wallMs({ prompt: 'warm-up', duration: 5, style: 'lofi', instrumental: true, seed: 1, stems: true });
  const totals = { plain: 0, stems: 0, loop: 0 };
  for (let round = 0; round < rounds; round++) {
    for (const style of STYLES) {
      const request: GenerationRequest = {
        prompt: `a ${style} track`,
        duration,
        style,
        instrumental: true,
        seed: 100 + round,
      };
      const plain = await wallMs(request);
      const stems = await wallMs({ ...request, stems: true });
      const loop = await wallMs({ ...request, loop: true });
      totals.plain += plain;
      totals.stems += stems;
      totals.loop += loop;
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      console.log(
        `  ${style.padEnd(11)} plain ${s(plain)}   stems ${s(stems)} (${(stems / plain).toFixed(2)}×)   loop ${s(loop)} (${(loop / plain).toFixed(2)}×)`,
      );
    }
  }
  console.log(
    `  total: stems ${(totals.stems / totals.plain).toFixed(2)}× plain, loop ${(totals.loop / totals.plain).toFixed(2)}× plain`,
  );
}

await main();
