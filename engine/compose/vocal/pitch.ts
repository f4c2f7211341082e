/**
 * Pitches for a sung line: an arch contour around the section's register centre, stressed syllables and strong
 * beats on chord tones, the rest stepping through the chord's scale toward the contour, leaps answered by a
 * step back, and the line's last note on a chord tone (the tonic to close a section on a tonic chord).
 */
import { at } from '../../checked.ts';
import type { Random } from '../../random.ts';
import { chordScale } from '../../theory/scales.ts';
import { inRange, moveInScale, nearestChordTone } from '../melody.ts';
import { chordAt, type ComposeContext } from '../model.ts';

export interface LinePitchInput {
  /** Meter beats of the notes' onsets. */
  onsets: readonly number[];
  /** Whether each note carries weight (stressed syllable or strong beat): those land on chord tones. */
  accented: readonly boolean[];
  center: number;
  range: { low: number; high: number };
  /** The line closes its section: end on the tonic when the chord allows. */
  closesSection: boolean;
}

/** Semitones of the arch: how far the middle of a line rises above its ends. */
const ARCH = 4;

export function linePitches(
  ctx: Pick<ComposeContext, 'chords' | 'scale' | 'tonic'>,
  input: LinePitchInput,
  random: Random,
): number[] {
  const { onsets, accented, center, range } = input;
  const count = onsets.length;
  // Lines vary: an arch, a rise or a fall, around a centre shifted a little per line.
  const shape = random.weighted(['arch', 'rise', 'fall'] as const, [0.55, 0.2, 0.25]);
  const offset = random.int(-2, 2);
  const target = (k: number): number => {
    const x = count === 1 ? 0.5 : k / (count - 1);
    const curve =
      shape === 'arch' ? Math.sin(Math.PI * x) * ARCH : shape === 'rise' ? (x - 0.3) * ARCH : (0.7 - x) * ARCH;
    return center + offset + curve;
  };
  const pitches: number[] = [];
  let lastInterval = 0;
  for (let k = 0; k < count; k++) {
    const chord = chordAt(ctx.chords, at(onsets, k)).chord;
    const tones = chordScale(ctx.scale, chord.pitchClasses);
    const last = k === count - 1;
    const goal = Math.round(target(k));
    let pitch: number;
    if (k === 0) {
      pitch = nearestChordTone(goal, chord.pitchClasses, 0);
    } else {
      const previous = at(pitches, k - 1);
      if (Math.abs(lastInterval) > 4) {
        // After a leap, turn back by a step.
        pitch = moveInScale(previous, -Math.sign(lastInterval), tones);
      } else {
        const direction = Math.sign(goal - previous);
        pitch =
          direction === 0
            ? random.chance(0.5)
              ? previous
              : moveInScale(previous, random.chance(0.5) ? 1 : -1, tones)
            : moveInScale(previous, direction, tones);
      }
      if (accented[k] || last) pitch = nearestChordTone(pitch, chord.pitchClasses, Math.sign(goal - pitch));
    }
    if (last && input.closesSection && chord.pitchClasses.includes(ctx.tonic)) {
      const home = nearestChordTone(pitch, [ctx.tonic], -1);
      if (Math.abs(home - pitch) <= 5) pitch = home;
    }
    pitch = inRange(pitch, accented[k] || last ? chord.pitchClasses : tones, range.low, range.high);
    lastInterval = k === 0 ? 0 : pitch - at(pitches, k - 1);
    pitches.push(pitch);
  }
  return pitches;
}

/** A melisma's second note: a scale step below the held note (above when at the bottom of the range). */
export function melismaPitch(
  ctx: Pick<ComposeContext, 'chords' | 'scale'>,
  beat: number,
  from: number,
  range: { low: number; high: number },
): number {
  const chord = chordAt(ctx.chords, beat).chord;
  const tones = chordScale(ctx.scale, chord.pitchClasses);
  const below = moveInScale(from, -1, tones);
  return below >= range.low ? below : moveInScale(from, 1, tones);
}
