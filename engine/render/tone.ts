/**
 * A producer's treatment of one part before it meets the others (Preset.tone): boom bap's sample loop is a
 * record played through a sampler, so it comes out with a lower sample rate and bit depth (aliasing and
 * grit, as an SP-1200 or MPC gives) and low-passed, sitting behind the drums instead of beside them.
 *
 * The part is mixed on its own into scratch buses, treated there and then added to the mix (and its stem), so
 * the cost is paid only by parts that ask for it.
 */
import type { PartTone } from '../types.ts';
import { SAMPLE_RATE } from './constants.ts';
import { biquad, filterInPlace } from './bus.ts';
import { filterStereo } from './groups.ts';

/** The part's own signal while it is treated: stereo dry plus mono sends (the delay's only if the part sends to it). */
export interface ToneBuses {
  left: Float32Array;
  right: Float32Array;
  reverb: Float32Array;
  delay: Float32Array | null;
}

export function toneBuses(frames: number, delay: boolean): ToneBuses {
  return {
    left: new Float32Array(frames),
    right: new Float32Array(frames),
    reverb: new Float32Array(frames),
    delay: delay ? new Float32Array(frames) : null,
  };
}

/** Q of the two stages of a 4th-order Butterworth low-pass: a sampler's filter closed down, 24 dB per octave. */
const BUTTERWORTH_STAGES = [0.5412, 1.3066];

/**
 * Sample-and-hold at `rate` and rounding to `bits` (relative to the part's own peak, as a sampler's input is
 * gained up before sampling), on both channels alike.
 */
function crush(left: Float32Array, right: Float32Array, tone: PartTone): void {
  let peak = 0;
  for (let i = 0; i < left.length; i++) peak = Math.max(peak, Math.abs(left[i] ?? 0), Math.abs(right[i] ?? 0));
  if (!(peak > 0)) return;
  const step = tone.bits !== undefined ? peak / 2 ** (tone.bits - 1) : 0;
  const perStep = step > 0 ? 1 / step : 0;
  const hold = tone.rate !== undefined ? SAMPLE_RATE / tone.rate : 1;
  let next = 0;
  let heldLeft = 0,
    heldRight = 0;
  for (let i = 0; i < left.length; i++) {
    if (i >= next) {
      heldLeft = left[i] ?? 0;
      heldRight = right[i] ?? 0;
      if (step > 0) {
        heldLeft = Math.round(heldLeft * perStep) * step;
        heldRight = Math.round(heldRight * perStep) * step;
      }
      next += hold;
    }
    left[i] = heldLeft;
    right[i] = heldRight;
  }
}

/** Treats the part in place: the dry signal is crushed then low-passed; the sends, taken from it, are low-passed. */
export function treatPart(buses: ToneBuses, tone: PartTone): void {
  if (tone.bits !== undefined || tone.rate !== undefined) crush(buses.left, buses.right, tone);
  if (tone.lowpass === undefined) return;
  const filters = BUTTERWORTH_STAGES.map((q) => biquad('lowpass', tone.lowpass ?? 0, q));
  filterStereo(buses, filters);
  // The sends as a pair where there are two: one pass instead of two.
  if (buses.delay) filterStereo({ left: buses.reverb, right: buses.delay }, filters);
  else for (const c of filters) filterInPlace(buses.reverb, c);
}

/** Adds the treated part into a target's dry buses and sends (the delay only when the target has one). */
export function addTreated(
  buses: ToneBuses,
  target: { left: Float32Array; right: Float32Array; reverb: Float32Array; delay: Float32Array | null },
): void {
  const { left, right, reverb, delay } = target;
  for (let i = 0; i < left.length; i++) {
    left[i] = (left[i] ?? 0) + (buses.left[i] ?? 0);
    right[i] = (right[i] ?? 0) + (buses.right[i] ?? 0);
    reverb[i] = (reverb[i] ?? 0) + (buses.reverb[i] ?? 0);
  }
  const sent = buses.delay;
  if (delay && sent) for (let i = 0; i < delay.length; i++) delay[i] = (delay[i] ?? 0) + (sent[i] ?? 0);
}
