/**
 * From grid to performance: swing delays the off-beat of the swing subdivision, a little timing and velocity
 * jitter makes it breathe (less for electronic styles), and nothing may sound past the track's end.
 * Note.beat stays the grid position (in quarter notes); only Note.time moves.
 */
import type { Note } from '../types.ts';
import type { Random } from '../random.ts';
import { clamp, type GridNote } from './model.ts';

export interface Performance {
  bpm: number;
  beatUnit: number;
  /** 0 straight … 1 full triplet swing. */
  swing: number;
  /** The swung subdivision in quarter notes: 0.25 (sixteenths) or 0.5 (eighths). */
  swingUnit: number;
  /** Standard deviation of timing jitter in seconds (capped at 12 ms). */
  jitter: number;
  velocityJitter: number;
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

export function perform(notes: readonly GridNote[], p: Performance, random: Random): Note[] {
  const secondsPerBeat = 60 / p.bpm;
  const quarterPerBeat = 4 / p.beatUnit;
  const onsetJitter = new Map<number, number>();
  const result: Note[] = [];
  for (const note of notes) {
    const quarter = round(note.beat * quarterPerBeat);
    // Notes struck together move together: a chord is jittered as one.
    let jitter = onsetJitter.get(quarter);
    if (jitter === undefined) {
      jitter = clamp(random.gaussian() * p.jitter, -0.012, 0.012);
      onsetJitter.set(quarter, jitter);
    }
    const time = Math.max(0, note.beat * secondsPerBeat + swingDelay(quarter, p) + jitter + (note.offset ?? 0));
    if (time > p.endLimit - 0.03) continue;
    const start = round(time);
    const limit = note.beat >= p.ending.from - 1e-6 && start < p.ending.limit - 0.1 ? p.ending.limit : p.endLimit;
    // Rounded down, so rounding can never push a note's end past the limit.
    const duration = Math.floor(Math.min(note.beats * secondsPerBeat, limit - start) * 1e6) / 1e6;
    result.push({
      time: start,
      duration: Math.max(0.02, duration),
      midi: note.midi,
      velocity: round(clamp(note.velocity + random.gaussian() * p.velocityJitter, 0.02, 1)),
      beat: quarter,
    });
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
    const note = notes[i]!;
    for (let j = i + 1; j < notes.length && notes[j]!.time < note.time + note.duration; j++) {
      if (!collides(note, notes[j]!)) continue;
      const room = notes[j]!.time - note.time - GAP;
      note.duration = Math.max(0.01, Math.floor(Math.min(note.duration, room) * 1e6) / 1e6);
      break;
    }
  }
  return notes;
}
