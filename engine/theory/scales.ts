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

/** The largest step between neighbouring pitch classes of a set (cyclically). */
function largestGap(pcs: readonly number[]): number {
  const sorted = [...pcs].sort((a, b) => a - b);
  return Math.max(...sorted.map((pc, i) => mod((sorted[(i + 1) % sorted.length] ?? pc) - pc, 12) || 12));
}

/**
 * The scale adjusted to a chord: a chord tone outside the scale (the raised 7th of V in minor, the flat 7th
 * of bVII in major) replaces the scale tone it alters, so a melody over that chord never rubs a semitone
 * against it. The altered neighbour is the one whose removal leaves the smoothest scale; on a tie the tonic
 * and the fifth (the key's anchors) stay. Returned sorted ascending by pitch class.
 */
export function chordScale(
  scale: readonly number[],
  chordPcs: readonly number[],
  tonic: number = scale[0] ?? 0,
): readonly number[] {
  // Pure and called for every melody note: memoized on the (immutable) input arrays themselves.
  let byChord = chordScaleCache.get(scale);
  if (!byChord) {
    byChord = new WeakMap();
    chordScaleCache.set(scale, byChord);
  }
  const cached = byChord.get(chordPcs);
  if (cached && cached.tonic === tonic) return cached.tones;
  const tones = computeChordScale(scale, chordPcs, tonic);
  byChord.set(chordPcs, { tonic, tones });
  return tones;
}

/** Callers never mutate scales or chord pitch-class lists, so the arrays can key the cache. */
const chordScaleCache = new WeakMap<
  readonly number[],
  WeakMap<readonly number[], { tonic: number; tones: readonly number[] }>
>();

function computeChordScale(scale: readonly number[], chordPcs: readonly number[], tonic: number): number[] {
  const result = new Set(scale);
  for (const pc of chordPcs) {
    if (result.has(pc)) continue;
    const neighbours = [mod(pc - 1, 12), mod(pc + 1, 12)].filter((n) => result.has(n) && !chordPcs.includes(n));
    result.add(pc);
    if (neighbours.length === 0) continue;
    const anchor = (n: number) => (mod(n - tonic, 12) === 0 || mod(n - tonic, 12) === 7 ? 1 : 0);
    const cost = (n: number) => largestGap([...result].filter((x) => x !== n)) * 2 + anchor(n);
    const drop = neighbours.reduce((best, n) => (cost(n) < cost(best) ? n : best));
    result.delete(drop);
  }
  return [...result].sort((a, b) => a - b);
}
