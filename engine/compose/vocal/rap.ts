/**
 * A rapped delivery (issue 28): the words said in rhythm, not sung. Each bar of a sung section is one line (a
 * "bar" in the rapper's sense) on a sixteenth-note grid: syllables on sixteenths and eighths with the odd dotted
 * gap and rest, stressed syllables on the beats, the line's last (rhyming) syllable on a strong step, different
 * from line to line. The pitch is speech, not a tune: a narrow contour around a speaking pitch that drifts down
 * over the line, stressed syllables a little higher, each syllable falling a little and the line's last falling
 * further (Note.glide, which the singer slides over a spoken note's whole length, without vibrato).
 */
import { at } from '../../checked.ts';
import type { Random } from '../../random.ts';
import type { ComposeContext } from '../model.ts';
import type { LineSlot } from './lines.ts';
import { metricWeight } from './rhythm.ts';

/** Speaking pitch (MIDI) of a rapper's voice: about 147 Hz (male) and 220 Hz (female). */
export const SPEAKING_PITCH: Record<'female' | 'male', number> = { male: 50, female: 57 };
/** The grid: sixteenths. */
const STEP_BEATS = 0.25;
/** Steps each bar-line leaves silent at its end: a sixteenth to breathe before the next bar. */
const REST_STEPS = 1;
/** Syllables a second a written bar aims at (rappers say 4–6). */
const SYLLABLES_PER_SECOND = 4.5;
/** The contour: semitones the line drifts down over a bar, a stressed syllable's lift, and the falls. */
const DECLINATION = 3;
const STRESS_LIFT = 2;
const SYLLABLE_FALL = { stressed: 1.5, unstressed: 0.5 } as const;
const LINE_FALL = 3;
const SECTION_FALL = 5;

/** Whether this track's voice raps: the style raps (hip hop, trap), or the prompt asks for a rapper. */
export function raps(ctx: Pick<ComposeContext, 'preset' | 'spec'>): boolean {
  return ctx.preset.delivery === 'rapped' || ctx.spec.vocals.delivery === 'rapped';
}

/** The sung sections' line slots cut into bars, one line each, on sixteenths. */
export function rapSlots(slots: readonly LineSlot[], beatsPerBar: number): LineSlot[] {
  const out: LineSlot[] = [];
  const perSection = new Map<number, number>();
  for (const slot of slots) {
    const bars = Math.max(1, Math.round(slot.beats / beatsPerBar));
    for (let bar = 0; bar < bars; bar++) {
      const index = perSection.get(slot.section) ?? 0;
      perSection.set(slot.section, index + 1);
      out.push({
        ...slot,
        index,
        beat: slot.beat + bar * beatsPerBar,
        beats: beatsPerBar,
        slotBeats: STEP_BEATS,
        slots: Math.round(beatsPerBar / STEP_BEATS) - REST_STEPS,
      });
    }
  }
  return out;
}

/** The syllables a written bar-line should have: about 4.5 a second, within what the bar's steps hold. */
export function rapSyllableRange(slots: number, secondsPerBeat: number): { min: number; max: number } {
  const target = Math.round((slots + REST_STEPS) * STEP_BEATS * secondsPerBeat * SYLLABLES_PER_SECOND);
  const max = Math.max(5, Math.min(13, slots - 2, target + 1));
  return { min: Math.max(3, max - 3), max };
}

/** Cost of a syllable of this stress (1 primary, 2 secondary, 0 none) on a step of this metric weight. */
function stressCost(stress: number, weight: number): number {
  if (stress === 0) return weight >= 3 ? 0.8 : weight >= 2 ? 0.3 : 0;
  const cost = weight >= 2 ? 0 : weight >= 1 ? 0.6 : 1.5;
  return stress === 1 ? cost : cost / 2;
}

/** Cost of `steps` sixteenths between two syllables: eighths and sixteenths flow, longer gaps are rests. */
function gapCost(steps: number, stepSeconds: number): number {
  if (steps * stepSeconds < 0.09) return 2;
  if (steps <= 2) return steps === 1 ? 0.15 : 0;
  return steps === 3 ? 0.4 : 0.9 + (steps - 4) * 0.8;
}

export interface RapLine {
  /** Grid steps of each syllable's onset and its length in steps (shorter than the gap where a rest follows). */
  steps: number[];
  lengths: number[];
  pitches: number[];
  /** Semitones each syllable starts above its pitch and falls over its length (Note.glide). */
  falls: number[];
  /** Velocity factors: stressed syllables on the beat are said hardest. */
  accents: number[];
}

/**
 * The line's rhythm and speech contour. `closesSection`: the last line of a section falls further. Each line
 * draws its own small preferences from `random`, so bars with the same stresses are not said alike.
 */
export function rapLine(
  stresses: readonly number[],
  grid: { slots: number; beatsPerBar: number; secondsPerBeat: number },
  voice: { center: number; closesSection: boolean },
  random: Random,
): RapLine {
  const steps = placeRap(stresses, grid, random);
  const n = steps.length;
  const lengths = steps.map((step, k) => {
    const gap = (steps[k + 1] ?? grid.slots + REST_STEPS) - step;
    // Runs of sixteenths and eighths are joined; a longer gap is a short syllable and a rest.
    if (k === n - 1) return Math.min(gap - REST_STEPS, 3);
    return gap <= 2 ? gap : Math.min(gap - 1, 2);
  });
  const weights = steps.map((step) => metricWeight(step, { slotBeats: STEP_BEATS, beatsPerBar: grid.beatsPerBar }));
  const offset = random.int(-1, 1);
  const pitches: number[] = [];
  const falls: number[] = [];
  steps.forEach((step, k) => {
    const stressed = at(stresses, k) === 1;
    const last = k === n - 1;
    const drift = 2 - (DECLINATION * step) / grid.slots;
    const lift = stressed ? STRESS_LIFT + (at(weights, k) >= 3 ? 1 : 0) : 0;
    const wobble = random.chance(0.3) ? random.int(-1, 1) : 0;
    const pitch = last ? voice.center - 1 : voice.center + offset + drift + lift + wobble;
    pitches.push(Math.round(pitch));
    falls.push(
      last
        ? voice.closesSection
          ? SECTION_FALL
          : LINE_FALL
        : stressed
          ? SYLLABLE_FALL.stressed
          : SYLLABLE_FALL.unstressed,
    );
  });
  const accents = steps.map((_, k) =>
    at(stresses, k) === 1 ? (at(weights, k) >= 2 ? 1 : 0.92) : at(stresses, k) === 2 ? 0.86 : 0.78,
  );
  return { steps, lengths, pitches, falls, accents };
}

/**
 * Onset steps by dynamic programming: stress against the beat, gaps that flow, the last syllable on a strong
 * step late in the bar, and a small random preference per syllable and step (the line's own flow). A line with
 * more syllables than steps is said on consecutive sixteenths.
 */
function placeRap(
  stresses: readonly number[],
  grid: { slots: number; beatsPerBar: number; secondsPerBeat: number },
  random: Random,
): number[] {
  const n = stresses.length;
  const slots = grid.slots;
  if (n === 0) return [];
  if (n > slots - 1) return stresses.map((_, k) => Math.min(k, slots - 1));
  const stepSeconds = STEP_BEATS * grid.secondsPerBeat;
  const weights = Array.from({ length: slots }, (_, step) =>
    metricWeight(step, { slotBeats: STEP_BEATS, beatsPerBar: grid.beatsPerBar }),
  );
  const taste = Array.from({ length: n }, () => Float64Array.from({ length: slots }, () => random.range(0, 0.6)));
  const cost = Array.from({ length: n }, () => new Float64Array(slots).fill(Infinity));
  const from = Array.from({ length: n }, () => new Int16Array(slots).fill(-1));
  const own = (i: number, j: number) => stressCost(at(stresses, i), at(weights, j)) + at(at(taste, i), j);
  const first = at(cost, 0);
  for (let j = 0; j < slots; j++) first[j] = own(0, j) + 0.25 * j;
  for (let i = 1; i < n; i++) {
    const row = at(cost, i);
    const before = at(cost, i - 1);
    const fromRow = at(from, i);
    for (let j = i; j < slots; j++) {
      let best = Infinity;
      for (let k = i - 1; k < j; k++) {
        const total = at(before, k) + gapCost(j - k, stepSeconds);
        if (total < best) {
          best = total;
          fromRow[j] = k;
        }
      }
      row[j] = best + own(i, j);
    }
  }
  // The last syllable lands on a beat or an eighth, late in the bar, and keeps two steps.
  const lastRow = at(cost, n - 1);
  let end = n - 1;
  let best = Infinity;
  for (let j = n - 1; j <= slots - 2; j++) {
    const weight = at(weights, j);
    const total = at(lastRow, j) + (weight >= 2 ? 0 : weight >= 1 ? 0.3 : 1.2) + 0.3 * (slots - 2 - j);
    if (total < best) {
      best = total;
      end = j;
    }
  }
  const onsets = new Array<number>(n);
  for (let i = n - 1, j = end; i >= 0; i--) {
    onsets[i] = j;
    j = at(at(from, i), j);
  }
  return onsets;
}

/** How much softer the beat's melody plays under a rapped line than between lines (velocity). */
const UNDER_RAP_VELOCITY = 0.75;

/**
 * The beat's melody under a rap: a producer's loop keeps playing under the verses (a sung melody's lead rests
 * instead, compose/index.ts), a little softer where the voice is.
 */
export function underTheRap<T extends { time: number; duration: number; velocity: number }>(
  notes: readonly T[],
  spans: readonly (readonly [number, number])[],
): T[] {
  return notes.map((n) =>
    spans.some(([a, b]) => n.time + n.duration > a && n.time < b)
      ? { ...n, velocity: n.velocity * UNDER_RAP_VELOCITY }
      : n,
  );
}
