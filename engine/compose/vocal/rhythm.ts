/**
 * Rhythm first (as Impro-Visor sets words): a line's syllables are placed on the grid by dynamic programming so
 * stressed syllables land on strong beats, unstressed ones between them, notes are neither rushed nor dragged,
 * and the line's last syllable is held.
 */
import { at } from '../../checked.ts';
import { EPSILON } from '../model.ts';

export interface RhythmGrid {
  /** Grid steps the line may use; the last note ends at step `slots`. */
  slots: number;
  /** Meter beats per step. */
  slotBeats: number;
  beatsPerBar: number;
  secondsPerBeat: number;
}

/** Metrical weight of a grid step within a bar that starts at step 0: 4 downbeat … 0.5 sixteenth. */
export function metricWeight(step: number, grid: Pick<RhythmGrid, 'slotBeats' | 'beatsPerBar'>): number {
  const inBar = (step * grid.slotBeats) % grid.beatsPerBar;
  const near = (value: number) => Math.abs(value - Math.round(value)) < EPSILON;
  if (inBar < EPSILON || grid.beatsPerBar - inBar < EPSILON) return 4;
  const strongEvery = grid.beatsPerBar % 3 === 0 && grid.beatsPerBar > 3 ? 3 : 2;
  if (near(inBar) && Math.round(inBar) % strongEvery === 0 && grid.beatsPerBar > 3) return 3;
  if (near(inBar)) return 2;
  if (near(inBar * 2)) return 1;
  return 0.5;
}

function stressCost(stress: number, weight: number): number {
  if (stress === 1) return 4 - weight;
  if (stress === 2) return (4 - weight) * 0.5;
  // An unstressed syllable on a strong beat sounds like a misplaced accent.
  return weight >= 3 ? 1.2 : 0;
}

const UNSTRESSED_LONGEST = 0.4;
const STRESSED_LONGEST = 0.6;

/**
 * A note's length in seconds: too short is gabbled; longer than a syllable of its stress wants drags. An unstressed
 * syllable's note is at most UNSTRESSED_LONGEST, a stressed one's STRESSED_LONGEST, so a line is set in the long
 * and short of speech ("I took the EAR-ly TRAIN") and the time it does not need goes to its held last note, rather
 * than every syllable stretched alike to fill the bars. The line's last note is exempt.
 */
function lengthCost(seconds: number, stress: number): number {
  if (seconds < 0.15) return 3;
  if (seconds < 0.2) return 1;
  const longest = stress === 0 ? UNSTRESSED_LONGEST : STRESSED_LONGEST;
  return seconds <= longest ? 0 : (seconds - longest) * 3;
}

function lastLengthCost(seconds: number): number {
  return seconds < 0.4 ? (0.4 - seconds) * 5 : 0;
}

/**
 * Onset steps for syllables with these stresses, or null when they cannot fit (more syllables than steps less
 * one, since the last is held at least two steps).
 */
export function placeSyllables(stresses: readonly number[], grid: RhythmGrid): number[] | null {
  const n = stresses.length;
  const { slots } = grid;
  if (n === 0) return [];
  if (n > slots - 1) return null;
  const stepSeconds = grid.slotBeats * grid.secondsPerBeat;
  const weights = Array.from({ length: slots }, (_, step) => metricWeight(step, grid));
  // cost[i][j]: the cheapest placement of syllables 0..i with syllable i at step j; from[i][j] its predecessor step.
  const cost = Array.from({ length: n }, () => new Float64Array(slots).fill(Infinity));
  const from = Array.from({ length: n }, () => new Int16Array(slots).fill(-1));
  const first = at(cost, 0);
  for (let j = 0; j < slots; j++) first[j] = stressCost(at(stresses, 0), at(weights, j)) + 0.3 * j * grid.slotBeats;
  for (let i = 1; i < n; i++) {
    const row = at(cost, i);
    const before = at(cost, i - 1);
    const fromRow = at(from, i);
    for (let j = i; j < slots; j++) {
      const own = stressCost(at(stresses, i), at(weights, j));
      let best = Infinity;
      let arg = -1;
      for (let k = i - 1; k < j; k++) {
        const previous = at(before, k);
        if (previous === Infinity) continue;
        const total = previous + lengthCost((j - k) * stepSeconds, at(stresses, i - 1));
        if (total < best) {
          best = total;
          arg = k;
        }
      }
      row[j] = best + own;
      fromRow[j] = arg;
    }
  }
  let end = -1;
  let best = Infinity;
  // The last syllable is held at least two steps.
  const lastRow = at(cost, n - 1);
  for (let j = n - 1; j <= slots - 2; j++) {
    const total = at(lastRow, j) + lastLengthCost((slots - j) * stepSeconds);
    if (total < best) {
      best = total;
      end = j;
    }
  }
  if (end < 0) return null;
  const onsets = new Array<number>(n);
  for (let i = n - 1, j = end; i >= 0; i--) {
    onsets[i] = j;
    j = at(at(from, i), j);
  }
  return onsets;
}
