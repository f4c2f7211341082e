/**
 * From grid to performance: swing delays the off-beat of the swing subdivision, a little timing and velocity
 * jitter makes it breathe (by instrument: drums tight, bass a touch behind, pads loose; less for electronic
 * styles), a sustain pedal holds notes to its lift, and nothing may sound past the track's end.
 * Note.beat stays the grid position (in quarter notes); only Note.time moves.
 */
import { at } from '../checked.ts';
import type { Note, Role } from '../types.ts';
import type { Random } from '../random.ts';
import { clamp, type GridNote } from './model.ts';
import { familyOf, type Family } from './instruments.ts';

/** How loosely a part is played. Seconds, except velocityJitter (0–1 velocity). */
export interface Feel {
  /** Standard deviation of a struck chord's timing (its notes move together). */
  jitter: number;
  /** Mean lateness: a bass sitting a little behind the beat. */
  lag: number;
  /** Standard deviation of each note against its chord: how far apart "together" is. */
  spread: number;
  velocityJitter: number;
}

/** No note moves further than this from its grid time (plus swing and strum offsets). */
const MAX_DRIFT = 0.012;

const SYNTH: Feel = { jitter: 0.004, lag: 0, spread: 0, velocityJitter: 0.02 };
const FEEL: Partial<Record<Family, Feel>> = {
  acousticKit: { jitter: 0.004, lag: 0, spread: 0.0015, velocityJitter: 0.03 },
  electronicKit: { jitter: 0.0015, lag: 0, spread: 0, velocityJitter: 0.015 },
  bass: { jitter: 0.006, lag: 0.006, spread: 0, velocityJitter: 0.03 },
  synthBass: { jitter: 0.002, lag: 0.002, spread: 0, velocityJitter: 0.015 },
  piano: { jitter: 0.008, lag: 0, spread: 0.002, velocityJitter: 0.035 },
  keys: { jitter: 0.008, lag: 0, spread: 0.002, velocityJitter: 0.035 },
  guitar: { jitter: 0.008, lag: 0, spread: 0, velocityJitter: 0.035 },
  plucked: { jitter: 0.007, lag: 0, spread: 0.002, velocityJitter: 0.035 },
  bowed: { jitter: 0.009, lag: 0.004, spread: 0.005, velocityJitter: 0.025 },
  wind: { jitter: 0.009, lag: 0.003, spread: 0.003, velocityJitter: 0.03 },
  voice: { jitter: 0.01, lag: 0.004, spread: 0.005, velocityJitter: 0.025 },
  synth: SYNTH,
};
const PAD: Feel = { jitter: 0.01, lag: 0.004, spread: 0.006, velocityJitter: 0.02 };
const STILL: Feel = { jitter: 0, lag: 0, spread: 0, velocityJitter: 0 };

/**
 * The feel of a part from its role and instrument: drums tight but not quantized, the bass slightly behind,
 * pads loose, keys and guitars in between. Electronic styles are programmed: a fraction of the looseness.
 */
export function feelFor(role: Role, instrument: string, electronic: boolean): Feel {
  if (role === 'texture') return STILL;
  const family = familyOf(instrument);
  let feel = FEEL[family] ?? SYNTH;
  if (role === 'pad') feel = family === 'synth' ? { ...PAD, spread: PAD.spread / 2 } : PAD;
  if (!electronic) return feel;
  return {
    jitter: feel.jitter * 0.3,
    lag: feel.lag * 0.3,
    spread: feel.spread * 0.3,
    velocityJitter: feel.velocityJitter * 0.6,
  };
}

export interface Performance extends Feel {
  bpm: number;
  beatUnit: number;
  /** 0 straight … 1 full triplet swing. */
  swing: number;
  /** The swung subdivision in quarter notes: 0.25 (sixteenths) or 0.5 (eighths). */
  swingUnit: number;
  /** Seconds: no note may end after this. */
  endLimit: number;
  /**
   * The ending: notes from grid beat `from` on (the final chord) end by `limit` seconds, earlier than
   * endLimit, so their release decays inside the track instead of being cut at its end.
   */
  ending: { from: number; limit: number };
  /** One note at a time (the lead): each note ends before the next begins. */
  monophonic: boolean;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/** Swing delay in seconds for a note at `quarter` (quarter-note beats). */
export function swingDelay(quarter: number, p: Pick<Performance, 'bpm' | 'beatUnit' | 'swing' | 'swingUnit'>): number {
  if (p.swing <= 0) return 0;
  const secondsPerQuarter = (60 / p.bpm) * (p.beatUnit / 4);
  const sub = p.swingUnit;
  const position = quarter % (2 * sub);
  if (Math.abs(position - sub) > 1e-6) return 0;
  return p.swing * ((2 * sub) / 6) * secondsPerQuarter;
}

/** Seconds the pedal lifts before the chord change it clears. */
const PEDAL_LIFT = 0.012;

export function perform(notes: readonly GridNote[], p: Performance, random: Random): Note[] {
  const secondsPerBeat = 60 / p.bpm;
  const quarterPerBeat = 4 / p.beatUnit;
  const onsetJitter = new Map<number, number>();
  const result: Note[] = [];
  const pedalled: { note: Note; holdUntil: number; limit: number }[] = [];
  const earliest = new Map<number, number>();
  for (const note of notes) {
    const quarter = round(note.beat * quarterPerBeat);
    // Notes struck together move together: a chord is jittered as one, its notes only `spread` apart.
    let jitter = onsetJitter.get(quarter);
    if (jitter === undefined) {
      jitter = random.gaussian() * p.jitter;
      onsetJitter.set(quarter, jitter);
    }
    const loose = p.spread > 0 ? random.gaussian() * p.spread : 0;
    const drift = clamp(jitter + p.lag + loose, -MAX_DRIFT, MAX_DRIFT);
    const time = Math.max(0, note.beat * secondsPerBeat + swingDelay(quarter, p) + drift + (note.offset ?? 0));
    if (time > p.endLimit - 0.03) continue;
    const start = round(time);
    const limit = note.beat >= p.ending.from - 1e-6 && start < p.ending.limit - 0.1 ? p.ending.limit : p.endLimit;
    // Rounded down, so rounding can never push a note's end past the limit.
    const duration = Math.floor(Math.min(note.beats * secondsPerBeat, limit - start) * 1e6) / 1e6;
    const played: Note = {
      time: start,
      duration: Math.max(0.02, duration),
      midi: note.midi,
      velocity: round(clamp(note.velocity + random.gaussian() * p.velocityJitter, 0.02, 1)),
      beat: quarter,
    };
    if (note.articulation) played.articulation = note.articulation;
    if (note.glide) played.glide = note.glide;
    if (note.holdUntil !== undefined) pedalled.push({ note: played, holdUntil: note.holdUntil, limit });
    earliest.set(quarter, Math.min(start, earliest.get(quarter) ?? Infinity));
    result.push(played);
  }
  // The pedal lifts just before the chord change, and before anything struck there sounds: every pedalled note
  // rings until then, and none into the next chord.
  for (const { note, holdUntil, limit } of pedalled) {
    const quarter = round(holdUntil * quarterPerBeat);
    const change = Math.min(holdUntil * secondsPerBeat + swingDelay(quarter, p), earliest.get(quarter) ?? Infinity);
    const lift = Math.min(change - PEDAL_LIFT, limit);
    note.duration = Math.max(0.02, Math.floor((lift - note.time) * 1e6) / 1e6);
  }
  result.sort((a, b) => a.time - b.time || a.midi - b.midi);
  return p.monophonic ? trimToNext(result, () => true) : trimToNext(result, (a, b) => a.midi === b.midi);
}

/**
 * Swing and jitter can pull a note's successor in before the note ends. A key cannot sound twice at once (MIDI
 * has no such thing) and a monophonic line has one note at a time, so the earlier note is shortened to end
 * just before the later one starts.
 */
function trimToNext(notes: Note[], collides: (a: Note, b: Note) => boolean): Note[] {
  const GAP = 0.004;
  for (let i = 0; i < notes.length; i++) {
    const note = at(notes, i);
    for (let j = i + 1; j < notes.length && at(notes, j).time < note.time + note.duration; j++) {
      const later = at(notes, j);
      if (!collides(note, later)) continue;
      const room = later.time - note.time - GAP;
      note.duration = Math.max(0.01, Math.floor(Math.min(note.duration, room) * 1e6) / 1e6);
      break;
    }
  }
  return notes;
}
