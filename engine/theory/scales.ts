/** Modes as pitch-class sets, and the "chord scale" a melody may use over one chord. */
import type { Mode } from '../types.ts';
import { mod } from './pitch.ts';

export const MODE_STEPS: Record<Mode, readonly number[]> = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  mixolydian: [0, 2, 4, 5, 7, 9, 10],
  lydian: [0, 2, 4, 6, 7, 9, 11],
  phrygian: [0, 1, 3, 5, 7, 8, 10],
  harmonicMinor: [0, 2, 3, 5, 7, 8, 11],
};

/** Modes whose tonic triad is minor: they use the preset's `minor` progressions. */
export function isMinorMode(mode: Mode): boolean {
  return mode === 'minor' || mode === 'dorian' || mode === 'phrygian' || mode === 'harmonicMinor';
}

/** Pitch classes of the scale, tonic first. */
export function scaleOf(tonic: number, mode: Mode): number[] {
  return MODE_STEPS[mode].map((step) => mod(tonic + step, 12));
}

/**
 * The scale adjusted to a chord: a chord tone outside the scale (the raised 7th of V in minor, say) replaces
 * the scale tone a semitone away from it, so a melody over that chord never rubs a semitone against it.
 * Returned sorted ascending by pitch class.
 */
export function chordScale(scale: readonly number[], chordPcs: readonly number[]): number[] {
  const result = new Set(scale);
  for (const pc of chordPcs) {
    if (result.has(pc)) continue;
    result.delete(mod(pc - 1, 12));
    result.delete(mod(pc + 1, 12));
    result.add(pc);
  }
  return [...result].sort((a, b) => a - b);
}
