/**
 * Stage 3 of the engine: Score -> mastered stereo audio.
 *
 *   1. prerender each patch's notes with Tone.js offline (few root notes per patch) and each kit's hits
 *   2. mix notes into dry buses and effect sends in plain TypeScript (mix.ts)
 *   3. render the reverb (quarter-rate convolution on node-web-audio-api), then the returns and master bus (bus.ts)
 *   4. master: −14 LUFS integrated, ≤ −1 dBTP, no DC, no clicks
 *
 * Asked for stems, each role's share is kept beside the mix from step 2 on and, after the mix is mastered, taken
 * through its own returns and the mix's bus and master gains (stems.ts). A seamless loop is mixed past its end,
 * its tail folded onto its start before the bus, and bused and mastered with its own ends around it (seamless.ts).
 *
 * One render at a time per thread (Tone's context is module-global); the pool runs renders in workers.
 */
import type { Role, Score } from '../types.ts';
import { createRandom } from '../random.ts';
import { SAMPLE_RATE } from './constants.ts';
import { setupWebAudioGlobals } from './globals.ts';
import { mixScore } from './mix.ts';
import { renderReverb, reverbOf, reverbSpaceOf, REVERB_RATE, type ReverbSpace } from './reverb.ts';
import { addReturns, busChain, type BusDynamics, type SendBuses } from './bus.ts';
import { mixVocal, type VocalTaps } from './vocal.ts';
import { integratedLoudness, masterInPlace, masterStemInPlace, type MasterRecord } from './master/index.ts';
import { StemSet } from './stems.ts';
import { foldTail, tailFrames, withWrap, wrapFrames } from './seamless.ts';
import { free } from './free.ts';

export { setupWebAudioGlobals } from './globals.ts';
export { SAMPLE_RATE } from './constants.ts';

/** One role's share of the mix, mastered with it: the stems add up to the mix. */
export interface RenderedStem {
  role: Role;
  left: Float32Array;
  right: Float32Array;
}

export interface RenderedAudio {
  left: Float32Array;
  right: Float32Array;
  sampleRate: typeof SAMPLE_RATE;
  /** Only when RenderOptions.voiceTaps is set and the score has a vocal. */
  taps?: VocalTaps;
  /** Only when RenderOptions.stems is set: one per role that plays, aligned frame for frame with the mix. */
  stems?: RenderedStem[];
  /**
   * integratedLoudness(left, right, sampleRate), as mastering measured it (the same value to the bit); absent for a
   * loop, whose master is measured with its wrap.
   */
  loudness?: number;
}

export interface RenderOptions {
  onProgress?(fraction: number): void;
  /** Keep copies of the voice and the accompaniment as they enter the master bus (tests and analysis). */
  voiceTaps?: boolean;
  /** Also render each role's stem (stems.ts). The mix is the same with or without. */
  stems?: boolean;
  /**
   * With stems: each stem is handed here as soon as it is mastered, instead of all being kept in
   * RenderedAudio.stems, and its samples are released once this returns (copy what must be kept). One render
   * then holds one finished stem at a time rather than every one.
   */
  onStem?(stem: RenderedStem): void;
}

/** The loudness the mix is brought to before the compressor, so its threshold means the same for every song. */
const BUS_LUFS = -18;

/** Progress shares of the phases (measured roughly on a 60 s pop track). */
const PHASES = { instruments: 0.5, singer: 0.62, reverb: 0.75, effects: 0.85 } as const;
/** With stems, the mix's share of the progress: the stems' returns, bus and master take about as long again. */
const MIX_SHARE_WITH_STEMS = 0.5;

/** A seamless loop's length and the context its bus runs with on each side (seamless.ts). */
interface LoopShape {
  period: number;
  wrap: number;
}

/** What the mix's bus and master did, for its stems to follow. */
interface MixRecord {
  inputGain: number;
  compressor: Float32Array;
  master: MasterRecord;
}

export async function renderScore(score: Score, options: RenderOptions = {}): Promise<RenderedAudio> {
  if (!(score.duration > 0) || !Number.isFinite(score.duration))
    throw new RangeError(`Score duration must be a positive number of seconds, got: ${score.duration}`);
  await setupWebAudioGlobals();
  const period = Math.round(score.duration * SAMPLE_RATE);
  const shape: LoopShape | null = score.spec.loop === true ? { period, wrap: wrapFrames() } : null;
  const frames = shape ? period + tailFrames(score) : period;
  const stems = options.stems === true ? new StemSet(frames) : null;
  try {
    return await renderWith(score, options, stems, shape, frames);
  } finally {
    // Whatever a failed render left on disk (stems.ts).
    stems?.close();
  }
}

async function renderWith(
  score: Score,
  options: RenderOptions,
  stems: StemSet | null,
  shape: LoopShape | null,
  frames: number,
): Promise<RenderedAudio> {
  const share = stems ? MIX_SHARE_WITH_STEMS : 1;
  const report = (fraction: number) => options.onProgress?.(Math.min(1, Math.max(0, fraction * share)));
  report(0);
  const buses = await mixScore(score, frames, (done, total) => report((PHASES.instruments * done) / total), stems);
  // The stems made so far are finished but for the ducking under the voice, which is done as they are read back.
  stems?.finishAll();
  const taps = await mixVocal(score, buses, options.voiceTaps === true, stems);
  stems?.finishAll();
  report(PHASES.singer);
  const space = reverbSpaceOf(score.spec);
  const reverb = await renderReverb(buses.reverb, createRandom(score.spec.seed, 'reverb'), space);
  report(PHASES.reverb);

  const dryLoudness = integratedLoudness(buses.left, buses.right, SAMPLE_RATE);
  const inputGain = Number.isFinite(dryLoudness) ? 10 ** ((BUS_LUFS - dryLoudness) / 20) : 1;
  const busFrames = shape ? shape.period + 2 * shape.wrap : frames;
  const record: MixRecord | null = stems
    ? {
        inputGain,
        compressor: new Float32Array(busFrames),
        master: { dcRemoved: [false, false], gains: null, fadeFrames: 0 },
      }
    : null;
  const mix = toMaster(score, buses, reverb, shape, inputGain, { kind: 'compress', gains: record?.compressor ?? null });
  report(PHASES.effects);

  const mastered = masterInPlace(mix.left, mix.right, SAMPLE_RATE, record?.master);
  const unwrapped = unwrap(mix, shape);
  // The mix's own copy: the wrapped signal it was cut from goes now.
  const left = shape ? unwrapped.left.slice() : unwrapped.left;
  const right = shape ? unwrapped.right.slice() : unwrapped.right;
  if (shape) free(mix.left, mix.right);
  const audio: RenderedAudio = { left, right, sampleRate: SAMPLE_RATE };
  if (!shape) audio.loudness = mastered.loudness;
  if (taps) audio.taps = taps;
  if (stems && record) {
    const kept: RenderedStem[] = [];
    const onStem = options.onStem ?? ((stem: RenderedStem) => kept.push(copied(stem)));
    await renderStems(score, stems, space, shape, record, onStem, (done) =>
      options.onProgress?.(share + (1 - share) * done),
    );
    free(record.compressor, record.master.gains);
    if (!options.onStem) audio.stems = kept;
  }
  options.onProgress?.(1);
  return audio;
}

/** A stem's own copy, to keep after its samples are released. */
function copied(stem: RenderedStem): RenderedStem {
  return { role: stem.role, left: stem.left.slice(), right: stem.right.slice() };
}

/**
 * The returns, the loop's tail carried round (with its wrap) and the bus chain: a signal from its buses to the
 * master's input. Consumes the signal and the reverb: what it does not return is released.
 */
function toMaster(
  score: Score,
  signal: SendBuses,
  reverb: [Float32Array, Float32Array] | null,
  shape: LoopShape | null,
  inputGain: number,
  dynamics: BusDynamics,
): { left: Float32Array; right: Float32Array } {
  addReturns(score, signal, reverb, REVERB_RATE);
  free(...(reverb ?? []), signal.delay);
  let { left, right } = signal;
  if (shape) {
    left = wrapped(left, shape);
    right = wrapped(right, shape);
  }
  busChain(score, left, right, { inputGain, dynamics, period: shape?.period ?? null });
  return { left, right };
}

/** A loop's channel folded and wrapped (seamless.ts); the channel and the fold are released once read. */
function wrapped(channel: Float32Array, shape: LoopShape): Float32Array {
  const folded = foldTail(channel, shape.period);
  free(channel);
  const out = withWrap(folded, shape.wrap);
  free(folded);
  return out;
}

/** The loop itself without its wrap: views of the signal, no copy. */
function unwrap(
  signal: { left: Float32Array; right: Float32Array },
  shape: LoopShape | null,
): { left: Float32Array; right: Float32Array } {
  if (!shape) return signal;
  const end = signal.left.length - shape.wrap;
  return { left: signal.left.subarray(shape.wrap, end), right: signal.right.subarray(shape.wrap, end) };
}

/**
 * Each stem through its own reverb and delay and the mix's bus and master, with the mix's compressor and limiter
 * gains (never its own): the stems then add up to the mastered mix. One stem at a time, each handed to `onStem`
 * and released when done.
 */
async function renderStems(
  score: Score,
  stems: StemSet,
  space: ReverbSpace,
  shape: LoopShape | null,
  record: MixRecord,
  onStem: (stem: RenderedStem) => void,
  onProgress: (done: number) => void,
): Promise<void> {
  const count = stems.size;
  let done = 0;
  for (const [role, stem] of stems.drain()) {
    const reverb = await reverbOf(stem.reverbInput ?? null, createRandom(score.spec.seed, 'reverb'), space);
    const signal = toMaster(score, stem, reverb, shape, record.inputGain, { kind: 'follow', gains: record.compressor });
    masterStemInPlace(signal.left, signal.right, record.master);
    onStem({ role, ...unwrap(signal, shape) });
    free(signal.left, signal.right);
    onProgress(++done / count);
  }
}
