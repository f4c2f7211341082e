/**
 * A producer's treatment of one part before it meets the others (Preset.tone): boom bap's sample loop is a
 * record played through a sampler, so it comes out with a lower sample rate and bit depth (aliasing and
 * grit, as an SP-1200 or MPC gives) and low-passed, sitting behind the drums instead of beside them.
 *
 * As in a sampler, the sound is treated once where it is stored: each root sample a part replays (a prerendered
 * note, a drum hit) is crushed and low-passed before the mixer resamples it to each note's pitch, so the cost
 * grows with the roots (a few seconds of audio) rather than with the track. A note pitched a few semitones away
 * from its root carries the root's cutoff and hold rate with it, as a pitched sample does.
 */
import type { PartTone } from '../types.ts';
import { SAMPLE_RATE } from './constants.ts';
import { biquad, filterInPlace } from './bus.ts';

/** Q of the two stages of a 4th-order Butterworth low-pass: a sampler's filter closed down, 24 dB per octave. */
const BUTTERWORTH_STAGES = [0.5412, 1.3066];

/**
 * Sample-and-hold at `rate` and rounding to `bits` (relative to the sample's own peak, as a sampler's input is
 * gained up before sampling).
 */
function crush(data: Float32Array, tone: PartTone): void {
  let peak = 0;
  for (let i = 0; i < data.length; i++) peak = Math.max(peak, Math.abs(data[i] ?? 0));
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

/** A treated copy of one sample: crushed, then low-passed. The sample itself (perhaps cached) is left alone. */
export function treatSample(sample: Float32Array, tone: PartTone): Float32Array {
  const out = Float32Array.from(sample);
  if (tone.bits !== undefined || tone.rate !== undefined) crush(out, tone);
  if (tone.lowpass !== undefined)
    for (const q of BUTTERWORTH_STAGES) filterInPlace(out, biquad('lowpass', tone.lowpass, q));
  return out;
}

/** The notes with their samples treated, each distinct sample once however many notes replay it. */
export function treatNotes<T extends { sample: Float32Array }>(notes: readonly T[], tone: PartTone): T[] {
  const treated = new Map<Float32Array, Float32Array>();
  return notes.map((note) => {
    let sample = treated.get(note.sample);
    if (!sample) {
      sample = treatSample(note.sample, tone);
      treated.set(note.sample, sample);
    }
    return { ...note, sample };
  });
}
