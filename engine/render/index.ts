/**
 * Stage 3 of the engine: Score -> mastered stereo audio.
 *
 *   1. prerender each patch's voices with Tone.js offline (few root notes per patch) and each kit's hits
 *   2. mix notes into dry buses and effect sends in plain TypeScript (mix.ts)
 *   3. render the reverb (quarter-rate convolution on node-web-audio-api), then the returns and master bus (bus.ts)
 *   4. master: −14 LUFS integrated, ≤ −1 dBTP, no DC, no clicks
 *
 * One render at a time per thread (Tone's context is module-global); the pool runs renders in workers.
 */
import type { Score } from '../types.ts';
import { createRandom } from '../random.ts';
import { SAMPLE_RATE } from './constants.ts';
import { setupWebAudioGlobals } from './globals.ts';
import { mixScore } from './mix.ts';
import { renderReverb, reverbSpaceOf, REVERB_RATE } from './reverb.ts';
import { processBus } from './bus.ts';
import { mixVocal, type VocalStems } from './vocal.ts';
import { integratedLoudness, masterInPlace } from './master/index.ts';

export { setupWebAudioGlobals } from './globals.ts';
export { SAMPLE_RATE } from './constants.ts';

export interface RenderedAudio {
  left: Float32Array;
  right: Float32Array;
  sampleRate: typeof SAMPLE_RATE;
  /** Only when RenderOptions.stems is set and the score has a vocal. */
  stems?: VocalStems;
}

export interface RenderOptions {
  onProgress?(fraction: number): void;
  /** Keep copies of the voice and the accompaniment as they enter the master bus (tests and analysis). */
  stems?: boolean;
}

/** The loudness the mix is brought to before the compressor, so its threshold means the same for every song. */
const BUS_LUFS = -18;

/** Progress shares of the phases (measured roughly on a 60 s pop track). */
const PHASES = { voices: 0.5, singer: 0.62, reverb: 0.75, effects: 0.85 } as const;

export async function renderScore(score: Score, options: RenderOptions = {}): Promise<RenderedAudio> {
  if (!(score.duration > 0) || !Number.isFinite(score.duration)) throw new RangeError(`Score duration must be a positive number of seconds, got: ${score.duration}`);
  const report = (fraction: number) => options.onProgress?.(Math.min(1, Math.max(0, fraction)));
  await setupWebAudioGlobals();
  const frames = Math.round(score.duration * SAMPLE_RATE);
  report(0);

  const buses = await mixScore(score, frames, (done, total) => report((PHASES.voices * done) / total));
  const stems = mixVocal(score, buses, options.stems === true);
  report(PHASES.singer);
  const reverb = await renderReverb(buses.reverb, createRandom(score.spec.seed, 'reverb'), reverbSpaceOf(score.spec));
  report(PHASES.reverb);

  const dryLoudness = integratedLoudness(buses.left, buses.right, SAMPLE_RATE);
  const inputGain = Number.isFinite(dryLoudness) ? 10 ** ((BUS_LUFS - dryLoudness) / 20) : 1;
  const { left, right } = processBus(score, { buses, reverb, reverbRate: REVERB_RATE, inputGain });
  report(PHASES.effects);

  masterInPlace(left, right, SAMPLE_RATE);
  report(1);
  return stems ? { left, right, sampleRate: SAMPLE_RATE, stems } : { left, right, sampleRate: SAMPLE_RATE };
}
