/**
 * Voicing: one set of MIDI notes per chord for the chords and pad roles. Each chord takes the candidate
 * voicing that moves the chord tones least from the previous one while keeping the top note near a fixed
 * register, and never forms parallel fifths or octaves between the top note and the bass at the change;
 * the tonic chord prefers its third on top.
 */
import { at, last } from '../checked.ts';
import { candidateVoicings, isParallelPerfect, movementCost, playedPitchClasses } from '../theory/voicings.ts';
import { mod } from '../theory/pitch.ts';
import { clamp, type ChordSlot } from './model.ts';

/** What a tonic chord without its third on top costs: about three semitones of register or chord-tone movement. */
const THIRD_ON_TOP = 2;
/** What a minor tonic triad without its third doubled costs: a doubling that would move the chord tones further gives way. */
const THIRD_UNDOUBLED = 4;

/** The register where the chord voicings sit: top note near `topTarget`, spread downwards. */
export function chordRegister(melodyLow: number): { low: number; high: number; topTarget: number } {
  const topTarget = clamp(melodyLow + 6, 63, 74);
  return { low: topTarget - 19, high: topTarget + 4, topTarget };
}

/**
 * A voicing for every chord. `bassAnchors[i]` is the bass note sounding when chord i starts (same indexing).
 * Costs: semitones of chord-tone movement, plus distance of the top note from the target register, plus a
 * light penalty for muddy low voicings; parallels with the bass are ruled out whenever any candidate allows.
 */
export function chordVoicings(
  chords: readonly ChordSlot[],
  bassAnchors: readonly number[],
  melodyLow: number,
  tonic?: number,
): number[][] {
  const { low, high, topTarget } = chordRegister(melodyLow);
  const result: number[][] = [];
  let previous: number[] | null = null;
  chords.forEach((slot, i) => {
    const pcs = playedPitchClasses(slot.chord.pitchClasses, slot.chord.intervals);
    // A minor tonic triad doubles its third (as four-part writing allows in minor), above the lowest note (a
    // third at the bottom is heard as the relative major): under a bass doubling the root and fifth, and every
    // low note's overtones adding a major third, the minor third is else too faint to name the mode.
    const doubled =
      tonic !== undefined && slot.chord.root === tonic && pcs.length === 3 && slot.chord.minor
        ? candidateVoicings([...pcs, at(pcs, 1)], low, high).filter((c) => mod(at(c, 0), 12) !== pcs[1])
        : [];
    const plain = candidateVoicings(pcs, low, high);
    const candidates = [...doubled, ...plain];
    let best: number[] = candidates[0] ?? pcs.map((pc) => low + pc);
    let bestCost = Infinity;
    for (const candidate of candidates) {
      const top = last(candidate);
      let cost = 0.6 * Math.abs(top - topTarget) + Math.max(0, low + 5 - at(candidate, 0)) * 0.8;
      // The tonic chord sings its third on top: the third names the mode, and the top note is the one heard.
      // Under a root and fifth doubled by the bass (and by every low note's overtones) a minor key is else
      // heard as its parallel major, a major one as its dominant.
      if (tonic !== undefined && slot.chord.root === tonic && mod(top, 12) !== slot.chord.pitchClasses[1])
        cost += THIRD_ON_TOP;
      if (doubled.length > 0 && candidate.length === pcs.length) cost += THIRD_UNDOUBLED;
      if (previous) {
        cost += movementCost(previous, candidate);
        const previousTop = last(previous);
        if (isParallelPerfect(at(bassAnchors, i - 1), previousTop, at(bassAnchors, i), top)) cost += 1000;
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = candidate;
      }
    }
    result.push(best);
    previous = best;
  });
  return result;
}
