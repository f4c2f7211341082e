/**
 * The sung pitch over time, in MIDI units, after Saitou et al. (2007, "Speech-to-singing synthesis"), who found
 * that a voice without these movements is not heard as singing:
 *   - the written notes are a step function that the voice follows as a damped second-order system (a pitch
 *     change takes ~60 ms and overshoots the new note a little before settling), except into slurred notes,
 *     which glide (portamento) and land just after the onset;
 *   - a phrase after a rest starts with a scoop from below; a phrase's last note often falls away as it ends;
 *   - vibrato fades in on long notes, its rate and depth wandering a little as a singer's do;
 *   - a slow wander ("fine fluctuation") of a few cents that no voice holds still without.
 * Vibrato and wander are symmetric around the note, so a held note's mean pitch stays the written one. A spoken
 * note (a rapped line) has none of these gestures and no vibrato: it falls over its length, as speech does.
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
/** The vibrato's rate and depth wander by this share, at about 0.5–1 Hz. */
const VIBRATO_WANDER = { rate: 0.06, depth: 0.25 } as const;

/** The wander: two slow sines, a few cents each (a trained voice stays well inside ±10 cents). */
const DRIFT_RATES = [
  [0.6, 1.3],
  [2.5, 4.5],
] as const;
const DRIFT_DEPTH = [0.05, 0.03] as const;

/** The second-order pitch response (Saitou et al.: natural frequency 0.0348 rad/ms, damping 0.5). */
const RESPONSE = { omega: 34.8, damping: 0.5 } as const;
/** A gap longer than this between notes is a rest: the next phrase starts afresh, with a scoop from below. */
const REST = 0.12;
/** Whether a rest parts two neighbouring notes (a phrase ends before `after` or starts with it); no note is one. */
const restBetween = (before: PitchNote | undefined, after: PitchNote | undefined): boolean =>
  !before || !after || after.from - (before.time + before.duration) > REST;
/** The scoop into a phrase's first note, semitones below it. */
const SCOOP = [0.4, 1.0] as const;
/** A phrase's last note falls this many semitones over its last FALL_SECONDS, on FALL_CHANCE of phrases. */
const FALL = [0.3, 1.0] as const;
const FALL_SECONDS = 0.15;
const FALL_CHANCE = 0.6;

interface Vibrato {
  rate: number;
  depth: number;
  /** Phase offsets of the rate and depth wander. */
  wander: [number, number];
}

export class PitchContour {
  private cursor = 0;
  private readonly vibrato: (Vibrato | null)[];
  private readonly drift: { rate: number; phase: number; depth: number }[];
  private readonly scoop: number[];
  private readonly phraseFall: number[];
  /** The second-order response's state: pitch, its velocity (semitones/s), and when it was last advanced. */
  private y = Number.NaN;
  private velocity = 0;
  private last = 0;
  private vibratoPhase = 0;

  constructor(
    private readonly notes: readonly PitchNote[],
    random: Random,
  ) {
    this.vibrato = notes.map((n) =>
      n.duration > VIBRATO_MIN_NOTE && n.fall === null
        ? {
            rate: random.range(...VIBRATO_RATE),
            depth: random.range(...VIBRATO_DEPTH),
            wander: [random.range(0, 2 * Math.PI), random.range(0, 2 * Math.PI)],
          }
        : null,
    );
    this.drift = DRIFT_RATES.map((rates, i) => ({
      rate: random.range(rates[0], rates[1]),
      phase: random.range(0, 2 * Math.PI),
      depth: DRIFT_DEPTH[i] ?? 0,
    }));
    // Drawn per note in order, so a note's gestures do not depend on how its neighbours are sung.
    const gestures = random.fork('gestures');
    this.scoop = notes.map(() => gestures.range(...SCOOP));
    this.phraseFall = notes.map((n, i) => {
      const depth = gestures.range(...FALL);
      const ends = restBetween(n, notes[i + 1]);
      return gestures.chance(FALL_CHANCE) && ends && n.fall === null && n.duration > 2 * FALL_SECONDS ? depth : 0;
    });
  }

  /** MIDI pitch at `t` seconds. Calls must come in non-decreasing time (a cursor walks the notes). */
  midiAt(t: number): number {
    const notes = this.notes;
    let changed = false;
    while ((notes[this.cursor + 1]?.from ?? Infinity) <= t) {
      this.cursor++;
      changed = true;
    }
    const note = notes[this.cursor];
    if (!note) return 60; // no notes
    const before = notes[this.cursor - 1];
    const dt = Math.min(t - this.last, 0.01);
    this.last = t;
    const afterRest = restBetween(before, note);
    if (Number.isNaN(this.y) || t < note.from || (changed && afterRest)) {
      // A phrase starts below its first note and rises into it (the first phrase's breath waits there too).
      this.y = note.midi - (this.scoop[this.cursor] ?? 0);
      this.velocity = 0;
    }
    if (changed) this.vibratoPhase = 0;
    let midi: number;
    if (note.fall !== null) {
      // A spoken syllable falls over its length (from its onset consonants on), as speech does.
      midi = note.midi + note.fall * (1 - Math.min(1, Math.max(0, (t - note.time) / note.duration)));
      if (note.glideFrom !== null && t < note.time + GLIDE_AFTER) midi = this.glide(note, t);
      this.velocity = 0;
      this.y = midi;
    } else if (note.glideFrom !== null && t < note.time + GLIDE_AFTER) {
      // Portamento: the glide itself, followed exactly (the response would only lag it).
      midi = this.glide(note, t);
      this.velocity = dt > 0 ? (midi - this.y) / dt : 0;
      this.y = midi;
    } else {
      // Semi-implicit Euler on y'' = ω²(target − y) − 2ζω y' (stable: ω·dt ≤ 0.35).
      const { omega, damping } = RESPONSE;
      this.velocity += dt * (omega * omega * (note.midi - this.y) - 2 * damping * omega * this.velocity);
      this.y += dt * this.velocity;
      midi = this.y;
    }
    const fall = this.phraseFall[this.cursor] ?? 0;
    const toEnd = note.time + note.duration - t;
    if (fall > 0 && toEnd < FALL_SECONDS) {
      const x = 1 - Math.max(0, toEnd) / FALL_SECONDS;
      midi -= fall * x * x;
    }
    for (const { rate, phase, depth } of this.drift) midi += depth * Math.sin(2 * Math.PI * rate * t + phase);
    const vibrato = this.vibrato[this.cursor];
    const since = t - note.time - VIBRATO_DELAY;
    if (vibrato && since > 0) {
      const [rw, dw] = vibrato.wander;
      const rate = vibrato.rate * (1 + VIBRATO_WANDER.rate * Math.sin(2 * Math.PI * 0.7 * since + rw));
      this.vibratoPhase += 2 * Math.PI * rate * dt;
      const wander = 1 + VIBRATO_WANDER.depth * Math.sin(2 * Math.PI * 0.5 * since + dw);
      const depth = vibrato.depth * wander * Math.min(1, since / VIBRATO_FADE_IN);
      midi += depth * Math.sin(this.vibratoPhase);
    }
    return midi;
  }

  /** The portamento into a slurred note, eased: from the previous note's pitch to this one's. */
  private glide(note: PitchNote, t: number): number {
    const from = note.glideFrom ?? note.midi;
    const x = Math.max(0, (t - (note.time - GLIDE_BEFORE)) / (GLIDE_BEFORE + GLIDE_AFTER));
    return from + (note.midi - from) * x * x * (3 - 2 * x);
  }
}
