/**
 * Voicings (the notes a chord is spread over): candidates of a chord in a register, the cost of moving
 * between two of them (voice leading), and the parallel-perfect-interval test between their outer notes
 * (ideas from Abundant Music's cost-based voice-line generator; no code from it).
 */
import { at, last } from '../checked.ts';
import { lowestAtOrAbove, mod } from './pitch.ts';

/** At most four pitch classes: with five (a 9th chord) the fifth goes, as a pianist would drop it. */
export function playedPitchClasses(pitchClasses: readonly number[], intervals: readonly number[]): number[] {
  if (pitchClasses.length <= 4) return [...pitchClasses];
  return pitchClasses.filter((_, i) => intervals[i] !== 7);
}

/** Close-position voicings of every inversion, plus their drop-2 forms, inside [low, high]. Sorted notes. */
export function candidateVoicings(pitchClasses: readonly number[], low: number, high: number): number[][] {
  const result: number[][] = [];
  const n = pitchClasses.length;
  for (let inversion = 0; inversion < n; inversion++) {
    const order = [...pitchClasses.slice(inversion), ...pitchClasses.slice(0, inversion)];
    for (let start = lowestAtOrAbove(at(order, 0), low); start <= high; start += 12) {
      const close: number[] = [start];
      for (const pc of order.slice(1)) close.push(lowestAtOrAbove(pc, last(close) + 1));
      if (last(close) <= high) result.push(close);
      if (n >= 4) {
        // Drop 2: the second note from the top an octave down opens the spacing.
        const drop = [...close];
        drop[n - 2] = at(drop, n - 2) - 12;
        drop.sort((a, b) => a - b);
        if (at(drop, 0) >= low && at(drop, n - 1) <= high) result.push(drop);
      }
    }
  }
  return result;
}

/** Total semitones the chord tones move (matched in order; unequal sizes match each note to its nearest). */
export function movementCost(from: readonly number[], to: readonly number[]): number {
  if (from.length === to.length) return from.reduce((sum, note, i) => sum + Math.abs(note - at(to, i)), 0);
  const nearest = (note: number, others: readonly number[]) => Math.min(...others.map((o) => Math.abs(o - note)));
  return (
    to.reduce((sum, note) => sum + nearest(note, from), 0) + from.reduce((sum, note) => sum + nearest(note, to), 0) / 2
  );
}

/** Parallel fifths or octaves (incl. unisons/compound) between two lines moving in the same direction. */
export function isParallelPerfect(lowA: number, highA: number, lowB: number, highB: number): boolean {
  const lowMove = lowB - lowA;
  const highMove = highB - highA;
  if (lowMove === 0 || highMove === 0 || Math.sign(lowMove) !== Math.sign(highMove)) return false;
  const before = mod(highA - lowA, 12);
  const after = mod(highB - lowB, 12);
  return before === after && (before === 0 || before === 7);
}
