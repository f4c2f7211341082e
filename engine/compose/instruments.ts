/**
 * How an instrument is played, by family: the compose stage strums guitars, pedals pianos, bows or plucks
 * strings and humanizes each family by its own amount. Patch names are those of engine/types.ts PATCHES.
 */

export { familyOf, type Family } from '../families.ts';
import { familyOf } from '../families.ts';

/** Strings in the order a downstroke hits them (MIDI notes of the open strings). */
const TUNINGS: Record<string, readonly number[]> = {
  banjo: [67, 50, 55, 59, 62],
  mandolin: [55, 62, 69, 76],
  ukulele: [67, 60, 64, 69],
};
const STANDARD_TUNING = [40, 45, 50, 55, 59, 64] as const;

export function tuningOf(instrument: string): readonly number[] {
  return TUNINGS[instrument] ?? STANDARD_TUNING;
}

/** Overdriven guitars play power chords: the root and fifth (a full triad through distortion is mud). */
export function playsPowerChords(instrument: string): boolean {
  return instrument === 'distGuitar' || instrument === 'overdriveGuitar';
}

/** Bowed strings that can also be plucked or bowed tremolo. */
export function isBowed(instrument: string | undefined): boolean {
  return familyOf(instrument) === 'bowed' && instrument !== 'tremoloStrings';
}
