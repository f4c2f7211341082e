/**
 * The sung pitch over time, in MIDI units: each note's pitch, a portamento into slurred notes that ends just
 * after the note's onset, a vibrato that fades in on long notes, and the slow wander no voice holds still
 * without ("fine fluctuation", Saitou et al. 2007). Vibrato and wander are sines in cents, symmetric around the
 * note, so the note's mean pitch stays the written one. A spoken note (a rapped line) has no vibrato and falls.
 */
import type { Random } from '../../random.ts';
import { GLIDE_AFTER, GLIDE_BEFORE, type PitchNote } from './plan.ts';

/** Notes longer than this get vibrato, starting this late and reaching full depth this much later. */
const VIBRATO_MIN_NOTE = 0.4;
const VIBRATO_DELAY = 0.2;
const VIBRATO_FADE_IN = 0.25;
const VIBRATO_RATE = [5.5, 6.5] as const;
/** Depth in semitones (peak): 30–50 cents. */
const VIBRATO_DEPTH = [0.3, 0.5] as const;

/** The wander: two slow sines, a few cents each (a trained voice stays well inside ±10 cents). */
const DRIFT_RATES = [
  [0.6, 1.3],
  [2.5, 4.5],
] as const;
const DRIFT_DEPTH = [0.05, 0.03] as const;

interface Vibrato {
  rate: number;
  depth: number;
}

export class PitchContour {
  private cursor = 0;
  private readonly vibrato: (Vibrato | null)[];
  private readonly drift: { rate: number; phase: number; depth: number }[];

  constructor(
    private readonly notes: readonly PitchNote[],
    random: Random,
  ) {
    this.vibrato = notes.map((n) =>
      n.duration > VIBRATO_MIN_NOTE && n.fall === null
        ? { rate: random.range(...VIBRATO_RATE), depth: random.range(...VIBRATO_DEPTH) }
        : null,
    );
    this.drift = DRIFT_RATES.map((rates, i) => ({
      rate: random.range(rates[0], rates[1]),
      phase: random.range(0, 2 * Math.PI),
      depth: DRIFT_DEPTH[i] ?? 0,
    }));
  }

  /** MIDI pitch at `t` seconds. Calls must come in non-decreasing time (a cursor walks the notes). */
  midiAt(t: number): number {
    const notes = this.notes;
    while ((notes[this.cursor + 1]?.from ?? Infinity) <= t) this.cursor++;
    const note = notes[this.cursor];
    if (!note) return 60; // no notes
    let midi = note.midi;
    // A spoken syllable falls over its length (from its onset consonants on), as speech does.
    if (note.fall !== null) midi += note.fall * (1 - Math.min(1, Math.max(0, (t - note.time) / note.duration)));
    if (note.glideFrom !== null && t < note.time + GLIDE_AFTER) {
      const x = Math.max(0, (t - (note.time - GLIDE_BEFORE)) / (GLIDE_BEFORE + GLIDE_AFTER));
      const eased = x * x * (3 - 2 * x);
      midi = note.glideFrom + (note.midi - note.glideFrom) * eased;
    }
    for (const { rate, phase, depth } of this.drift) midi += depth * Math.sin(2 * Math.PI * rate * t + phase);
    const vibrato = this.vibrato[this.cursor];
    const since = t - note.time - VIBRATO_DELAY;
    if (vibrato && since > 0) {
      const depth = vibrato.depth * Math.min(1, since / VIBRATO_FADE_IN);
      midi += depth * Math.sin(2 * Math.PI * vibrato.rate * since);
    }
    return midi;
  }
}
