/**
 * A producer's treatment of one part before it meets the others (Preset.tone): boom bap's sample loop is a
 * record played through a sampler, so it comes out with a lower sample rate and bit depth (aliasing and
 * grit, as an SP-1200 or MPC gives) and low-passed, sitting behind the drums instead of beside them.
 *
 * As in a sampler, the sound is treated once where it is stored: each root sample a part replays (a prerendered
 * note, a drum hit) is crushed and low-passed before the mixer resamples it to each note's pitch, so the cost
 * grows with the roots (a few seconds of audio) rather than with the track. A note pitched a few semitones away
 * from its root carries the root's cutoff and hold rate with it, as a pitched sample does. A worker keeps what
 * it has treated for as long as it keeps the rendered sample (the sampled bank's note cache, sampled/notes.ts),
 * so a style's later tracks treat only the roots they play for the first time.
 */
import type { Drum, PartTone } from '../types.ts';
import { SAMPLE_RATE } from './constants.ts';
import { biquad, filterInPlace } from './bus.ts';

/**
 * The crush's reference level is the peak of the sample's first 250 ms (its attack), not of its whole length, so
 * a treated note does not depend on how long a sample it was cut from: the treatment of a longer sample serves
 * every prefix of it (every filter here is causal). A note shorter than that is measured on the memory after it.
 */
const PEAK_WINDOW = Math.round(0.25 * SAMPLE_RATE);

/** Q of the two stages of a 4th-order Butterworth low-pass: a sampler's filter closed down, 24 dB per octave. */
const BUTTERWORTH_STAGES = [0.5412, 1.3066];

/**
 * Sample-and-hold at `rate` and rounding to `bits` (relative to the sample's own peak, as a sampler's input is
 * gained up before sampling).
 */
function crush(data: Float32Array, tone: PartTone): void {
  let peak = 0;
  for (let i = 0; i < Math.min(data.length, PEAK_WINDOW); i++) peak = Math.max(peak, Math.abs(data[i] ?? 0));
  if (!(peak > 0)) return;
  const step = tone.bits !== undefined ? peak / 2 ** (tone.bits - 1) : 0;
  const perStep = step > 0 ? 1 / step : 0;
  const hold = tone.rate !== undefined ? SAMPLE_RATE / tone.rate : 1;
  let next = 0;
  let held = 0;
  for (let i = 0; i < data.length; i++) {
    if (i >= next) {
      held = data[i] ?? 0;
      if (step > 0) held = Math.round(held * perStep) * step;
      next += hold;
    }
    data[i] = held;
  }
}

/**
 * A treated copy of one sample: crushed, then band-limited (a producer filters the lows out of a sample loop so
 * that the kick and bass own them). The sample itself (perhaps cached) is left alone.
 */
export function treatSample(sample: Float32Array, tone: PartTone): Float32Array {
  const out = sample.slice();
  if (tone.bits !== undefined || tone.rate !== undefined) crush(out, tone);
  if (tone.lowpass !== undefined)
    for (const q of BUTTERWORTH_STAGES) filterInPlace(out, biquad('lowpass', tone.lowpass, q));
  if (tone.highpass !== undefined)
    for (const q of BUTTERWORTH_STAGES) filterInPlace(out, biquad('highpass', tone.highpass, q));
  return out;
}

/** The fade that ends a chopped hit, seconds: short enough to cut a room's ring, long enough not to click. */
const CHOP_FADE_SECONDS = 0.03;

/**
 * One drum hit through its sampler pad (PartTone.pads in dB, PartTone.chop in seconds): levelled, and chopped
 * short where the pad says (a tight closed hat instead of one ringing in a room). Unchanged where the tone sets neither.
 */
export function padHit<T extends { gain: number; holdFrames: number; releaseFrames: number }>(
  hit: T,
  tone: PartTone | undefined,
  drum: Drum,
): T {
  const db = tone?.pads?.[drum];
  const chop = tone?.chop?.[drum];
  if (db === undefined && chop === undefined) return hit;
  const gain = db === undefined ? hit.gain : hit.gain * 10 ** (db / 20);
  if (chop === undefined) return { ...hit, gain };
  const fade = Math.round(CHOP_FADE_SECONDS * SAMPLE_RATE);
  const holdFrames = Math.round(chop * SAMPLE_RATE);
  if (holdFrames + fade >= hit.holdFrames + hit.releaseFrames) return { ...hit, gain };
  return { ...hit, gain, holdFrames, releaseFrames: fade };
}

/**
 * Treated samples by the memory they were treated from: a sample is a view of a rendered buffer the worker may
 * keep across tracks (sampled/notes.ts serves a note a prefix of a longer render), and the treatment of a longer
 * view from the same start serves every shorter one. Held weakly: gone with the buffer.
 */
const treatedBuffers = new WeakMap<ArrayBufferLike, Map<string, Float32Array>>();

/** `sample` treated, from the worker's earlier treatment of the memory it views when that is long enough. */
function treatedView(sample: Float32Array, tone: PartTone): Float32Array {
  let byView = treatedBuffers.get(sample.buffer);
  if (!byView) {
    byView = new Map();
    treatedBuffers.set(sample.buffer, byView);
  }
  const key = `${sample.byteOffset}/${tone.lowpass}/${tone.highpass}/${tone.rate}/${tone.bits}`;
  let treated = byView.get(key);
  if (!treated || treated.length < sample.length) {
    // At least the whole attack the crush measures, where the memory has it.
    const rest = (sample.buffer.byteLength - sample.byteOffset) / Float32Array.BYTES_PER_ELEMENT;
    const frames = Math.min(rest, Math.max(sample.length, PEAK_WINDOW));
    treated = treatSample(new Float32Array(sample.buffer, sample.byteOffset, frames), tone);
    byView.set(key, treated);
  }
  return treated.subarray(0, sample.length);
}

/** The notes with their samples treated, each distinct sample once however many notes (and tracks) replay it. */
export function treatNotes<T extends { sample: Float32Array }>(notes: readonly T[], tone: PartTone): readonly T[] {
  const { lowpass, highpass, bits, rate } = tone;
  // Pads alone leave the samples as they are.
  if ([lowpass, highpass, bits, rate].every((setting) => setting === undefined)) return notes;
  const treated = new Map<Float32Array, Float32Array>();
  return notes.map((note) => {
    let sample = treated.get(note.sample);
    if (!sample) {
      sample = treatedView(note.sample, tone);
      treated.set(note.sample, sample);
    }
    return { ...note, sample };
  });
}
