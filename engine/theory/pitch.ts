/** Pitch-class arithmetic shared by the theory and compose modules. */
import type { PitchClass } from '../types.ts';

export const PITCH_CLASS_NAMES: readonly PitchClass[] = [
  'C',
  'C#',
  'D',
  'Eb',
  'E',
  'F',
  'F#',
  'G',
  'Ab',
  'A',
  'Bb',
  'B',
];

/** Euclidean modulo: -1 mod 12 is 11, not -1. */
export function mod(value: number, divisor: number): number {
  return ((value % divisor) + divisor) % divisor;
}

export function pitchClassOf(name: PitchClass): number {
  const index = PITCH_CLASS_NAMES.indexOf(name);
  if (index < 0) throw new RangeError(`Unknown pitch class "${name}"`);
  return index;
}

/** The MIDI note with pitch class `pc` closest to `target` (ties go down, which keeps parts from creeping up). */
export function nearestWithPitchClass(pc: number, target: number): number {
  const below = target - mod(target - pc, 12);
  return target - below <= below + 12 - target ? below : below + 12;
}

/** The lowest MIDI note with pitch class `pc` that is >= low. */
export function lowestAtOrAbove(pc: number, low: number): number {
  return low + mod(pc - low, 12);
}
