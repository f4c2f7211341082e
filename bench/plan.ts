/**
 * An 8-section composition plan in a 180 s track against a plain 180 s track of the same request, rendered in
 * this thread, alternating sides so load on the machine falls on both alike. Prints each side's median wall
 * time and the ratio plan / plain (issue 16: a plan renders within the engine's speed target, 180 s in ≤ 6 s).
 *
 *   npm run bench:plan [-- --rounds N]
 */
import { renderTrack, type GenerationRequest } from '../engine/index.ts';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
// 120 bpm in 4/4: 2 s a bar, 90 bars = 180 s.
const base: GenerationRequest = {
  prompt: 'an upbeat pop song',
  duration: 180,
  style: 'pop',
  instrumental: true,
  seed: 7,
  music: { bpm: 120, timeSignature: '4/4' },
};
const plan: GenerationRequest = {
  ...base,
  plan: [
    { kind: 'intro', bars: 8, energy: 0.3 },
    { kind: 'verse', bars: 16 },
    { kind: 'pre_chorus', bars: 8 },
    { kind: 'chorus', bars: 16, energy: 1 },
    { kind: 'breakdown', bars: 8, instruments: ['pad', 'chords'] },
    { kind: 'solo', bars: 12 },
    { kind: 'chorus', bars: 14, energy: 1 },
    { kind: 'outro', bars: 8 },
  ],
};

async function time(request: GenerationRequest): Promise<{ ms: number; seconds: number }> {
  const start = performance.now();
  const track = await renderTrack(request);
  return { ms: performance.now() - start, seconds: track.audioSeconds };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const plain: number[] = [];
const planned: number[] = [];
await time({ ...base, duration: 30 }); // warm-up: sample loading and JIT
for (let i = 0; i < rounds; i++) {
  // Alternate which side goes first, so a drift in load does not favour one.
  const order = i % 2 === 0 ? ['plain', 'plan'] : ['plan', 'plain'];
  for (const side of order) {
    const r = await time(side === 'plan' ? plan : base);
    (side === 'plan' ? planned : plain).push(r.ms);
    console.log(`round ${i + 1} ${side.padEnd(5)} ${r.seconds.toFixed(1)} s of audio in ${(r.ms / 1000).toFixed(2)} s`);
  }
}
console.log(
  `median plain 180 s: ${(median(plain) / 1000).toFixed(2)} s; 8-section plan 180 s: ${(median(planned) / 1000).toFixed(2)} s; plan/plain ${(median(planned) / median(plain)).toFixed(2)} (target 180 s in ≤ 6 s on an idle core)`,
);
