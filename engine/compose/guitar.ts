/**
 * Guitars (and their cousins: banjo, mandolin, ukulele) voiced and strummed as they are played: chord shapes
 * that fit the fretboard, strokes that sweep the strings one after another (down low→high, up high→low and
 * lighter on the higher strings), strum patterns per style, and palm-muted chugs for overdriven verses.
 */
import { at } from '../checked.ts';
import type { Random } from '../random.ts';
import { isParallelPerfect, movementCost, playedPitchClasses } from '../theory/voicings.ts';
import { lowestAtOrAbove, mod } from '../theory/pitch.ts';
import { clamp, type ChordSlot, type GridNote } from './model.ts';
import { playsPowerChords, tuningOf } from './instruments.ts';

/** A chord shape: the sounding notes in the order a downstroke hits them. */
export type Shape = readonly number[];

const MAX_FRET = 12;
/** The cost of a shape whose played strings leave the root out: more than a move up the neck (0.5 a fret). */
const ROOTLESS_CHOP = 3;
const SEVENTH_BELOW_CHOP = 3;

/** Whether `midi` is the seventh of the slot's chord (a minor or major seventh above its root, when the chord has one). */
function isSeventh(midi: number, slot: ChordSlot): boolean {
  const interval = mod(midi - slot.chord.root, 12);
  return (interval === 10 || interval === 11) && slot.chord.intervals.some((i) => mod(i, 12) === interval);
}
/** Fretted notes within one hand position: the lowest fret (a barre there) to three frets above. */
const HAND_SPAN = 3;

const sorted = (shape: Shape) => [...shape].sort((a, b) => a - b);
const lowOf = (shape: Shape) => Math.min(...shape);
const highOf = (shape: Shape) => Math.max(...shape);

interface Candidate {
  shape: Shape;
  /** Fingering cost: position, muted strings, missing fifth, doubled thirds. */
  cost: number;
}

/** Every playable shape of a chord on the instrument, with its fingering cost. */
function chordShapes(slot: ChordSlot, instrument: string): Candidate[] {
  const tuning = tuningOf(instrument);
  const pcs = playedPitchClasses(slot.chord.pitchClasses, slot.chord.intervals);
  const intervals = slot.chord.intervals.filter((_, i) => pcs.includes(at(slot.chord.pitchClasses, i)));
  const fifth = pcs.find((_, i) => intervals[i] === 7);
  const third = pcs.find((_, i) => intervals[i] === 3 || intervals[i] === 4);
  const essential = pcs.filter((pc) => pc !== fifth || pcs.length === 3);
  // A six-string may leave its lowest strings out; smaller instruments sound every string.
  const ascending = tuning.every((note, i) => i === 0 || note > at(tuning, i - 1));
  const minStrings = tuning.length >= 6 ? 4 : tuning.length;
  const found = new Map<string, Candidate>();
  for (let position = 0; position <= MAX_FRET - HAND_SPAN; position++) {
    const options = tuning.map((open) => {
      const frets: number[] = [];
      if (position <= 3 && pcs.includes(mod(open, 12))) frets.push(0);
      for (let fret = Math.max(1, position); fret <= position + HAND_SPAN; fret++)
        if (pcs.includes(mod(open + fret, 12))) frets.push(fret);
      return frets;
    });
    const frets: number[] = [];
    const visit = (string: number) => {
      if (string === tuning.length) {
        const candidate = judge(frets, tuning, {
          pcs,
          essential,
          root: slot.chord.root,
          third,
          fifth,
          position,
          ascending,
          minStrings,
        });
        if (candidate) {
          const key = candidate.shape.join(',');
          const existing = found.get(key);
          if (!existing || existing.cost > candidate.cost) found.set(key, candidate);
        }
        return;
      }
      // Muted strings only on the bass side, before the first sounding string.
      if (frets.every((f) => f < 0) && string < tuning.length - minStrings + 1) {
        frets.push(-1);
        visit(string + 1);
        frets.pop();
      }
      for (const fret of at(options, string)) {
        frets.push(fret);
        visit(string + 1);
        frets.pop();
      }
    };
    visit(0);
  }
  return [...found.values()];
}

interface ShapeRules {
  pcs: number[];
  essential: number[];
  root: number;
  third: number | undefined;
  fifth: number | undefined;
  position: number;
  ascending: boolean;
  minStrings: number;
}

function judge(frets: readonly number[], tuning: readonly number[], r: ShapeRules): Candidate | null {
  const shape: number[] = [];
  frets.forEach((fret, i) => {
    if (fret >= 0) shape.push(at(tuning, i) + fret);
  });
  if (shape.length < r.minStrings) return null;
  const present = new Set(shape.map((n) => mod(n, 12)));
  if (!r.essential.every((pc) => present.has(pc))) return null;
  // Strings sound in order: a downstroke on a standard-tuned guitar always sweeps from low to high.
  if (r.ascending && shape.some((note, i) => i > 0 && note <= at(shape, i - 1))) return null;
  if (r.ascending && mod(lowOf(shape), 12) !== r.root) return null;
  const fretted = frets.filter((f) => f > 0);
  if (fretted.length > 0) {
    const lowest = Math.min(...fretted);
    if (Math.max(...fretted) - lowest > HAND_SPAN) return null;
    // Four fingers: one may barre the lowest fret, the others take one string each.
    const barre = fretted.filter((f) => f === lowest).length > 1;
    if (fretted.filter((f) => f > lowest).length + (barre ? 1 : Math.min(1, fretted.length)) > 4) return null;
  }
  const muted = frets.filter((f) => f < 0).length;
  const thirds = shape.filter((n) => mod(n, 12) === r.third).length;
  const unisons = shape.length - new Set(shape).size;
  const cost =
    unisons * 1.5 +
    r.position * 0.5 +
    muted * 1.2 +
    (r.fifth !== undefined && !present.has(r.fifth) ? 0.8 : 0) +
    Math.max(0, thirds - 1) * 1.5 +
    (fretted.length > 0 ? (Math.max(...fretted) - Math.min(...fretted)) * 0.2 : 0);
  return { shape, cost };
}

/**
 * Power chords: root and fifth on the low strings, with the octave on top when it fits, and the chord's third
 * above that where the chord has one: without it the key's mode rests on the other parts alone, and a
 * rock song in D minor was heard in C or G major.
 */
function powerShapes(slot: ChordSlot): Candidate[] {
  const fifthInterval = slot.chord.intervals.find((i) => i >= 6 && i <= 8) ?? 7;
  const thirdInterval = slot.chord.intervals.find((i) => i === 3 || i === 4);
  const result: Candidate[] = [];
  for (const [root, cost] of [
    [lowestAtOrAbove(slot.chord.root, 40), 0],
    [lowestAtOrAbove(slot.chord.root, 40) + 12, 1.5],
  ] as const) {
    if (root > 57) continue;
    if (thirdInterval !== undefined)
      result.push({ shape: [root, root + fifthInterval, root + 12, root + 12 + thirdInterval], cost });
    result.push({
      shape: [root, root + fifthInterval, root + 12],
      cost: cost + (thirdInterval !== undefined ? 0.3 : 0),
    });
    result.push({ shape: [root, root + fifthInterval], cost: cost + 0.4 });
  }
  return result;
}

export interface ShapeContext {
  /** The bass note at each chord change, or null where the guitar's own first note is the bass. */
  bass: readonly (number | null)[];
  /** The highest note another chord part (a pad) sounds with each chord, or -Infinity. */
  otherTop: readonly number[];
  /** The notes of a shape the part plays with chord `index` (stabs: only the highest strings). Default: all. */
  played?: (shape: Shape, index: number) => Shape;
  /** The part's own bass, when it is alone: the lowest note of its first stroke, or its first picked note. */
  firstNote?: (shape: Shape, index: number) => number;
}

/** A fingering's lesser forms, for when every full shape would move in parallels: its top string or its lowest left out. */
function thinned(candidates: readonly Candidate[]): Candidate[] {
  return candidates.flatMap((c) => {
    if (c.shape.length < 3) return [];
    const top = c.shape.indexOf(highOf(c.shape));
    const low = c.shape.indexOf(lowOf(c.shape));
    return [
      { shape: c.shape.filter((_, i) => i !== top), cost: c.cost + 3 },
      { shape: c.shape.filter((_, i) => i !== low), cost: c.cost + 4 },
    ];
  });
}

/**
 * A shape for every chord: the easiest fingering that moves least from the previous one, never forming
 * parallel fifths or octaves between the bass and the top note heard (this guitar's or a pad's above it).
 */
export function guitarShapes(chords: readonly ChordSlot[], instrument: string, context: ShapeContext): Shape[] {
  const cache = new Map<string, Candidate[]>();
  const power = playsPowerChords(instrument);
  const played = context.played ?? ((shape: Shape) => shape);
  const firstNote = context.firstNote ?? ((shape: Shape, index: number) => lowOf(played(shape, index)));
  const outer = (shape: Shape, i: number) => ({
    low: context.bass[i] ?? firstNote(shape, i),
    high: Math.max(highOf(played(shape, i)), at(context.otherTop, i)),
  });
  const result: Shape[] = [];
  let previous: Shape | null = null;
  chords.forEach((slot, i) => {
    const key = `${slot.chord.root}:${slot.chord.pitchClasses.join(',')}`;
    let candidates = cache.get(key);
    if (!candidates) {
      candidates = power ? powerShapes(slot) : chordShapes(slot, instrument);
      cache.set(key, candidates);
    }
    if (candidates.length === 0) candidates = powerShapes(slot);
    const choose = (options: readonly Candidate[]) => {
      let best = at(options, 0).shape;
      let bestCost = Infinity;
      for (const candidate of options) {
        let cost = candidate.cost;
        // A chop on the high strings still holds the root: F#m7's top four strings alone (E A C# E) are heard
        // as an A chord, and a vamp of such chops moves the key.
        const chop = played(candidate.shape, i);
        if (!chop.some((n) => mod(n, 12) === slot.chord.root)) cost += ROOTLESS_CHOP;
        // Nor does it stand on the chord's seventh (a third inversion, which asks to resolve): F#m7 chopped as
        // E A C# F# shares its low E with the vamp's bVII (E B E G#), and the vamp was heard in E.
        if (isSeventh(Math.min(...chop), slot)) cost += SEVENTH_BELOW_CHOP;
        if (previous) {
          cost += 0.25 * movementCost(sorted(previous), sorted(candidate.shape));
          const before = outer(previous, i - 1);
          const after = outer(candidate.shape, i);
          if (isParallelPerfect(before.low, before.high, after.low, after.high)) cost += 1000;
        }
        if (cost < bestCost) {
          bestCost = cost;
          best = candidate.shape;
        }
      }
      return { best, bestCost };
    };
    let { best, bestCost } = choose(candidates);
    if (bestCost >= 1000) ({ best, bestCost } = choose([...candidates, ...thinned(candidates), ...powerShapes(slot)]));
    result.push(best);
    previous = best;
  });
  return result;
}

/** One stroke of the strumming hand. */
export interface Stroke {
  beat: number;
  /** Beats until the next stroke (or the chord's end). */
  beats: number;
  down: boolean;
  velocity: number;
  /** Palm-muted: short, damped notes. */
  muted?: boolean;
  /** Strings ring on until the next stroke that hits them (strumming); otherwise each note lasts `beats`. */
  letRing?: boolean;
  /** Chops sound only the higher strings (reggae skank, funk): how many. */
  strings?: number;
}

/** Seconds from the first string of a stroke to the last: quicker at fast tempos and when played hard (8–30 ms). */
export function strokeSpread(bpm: number, velocity: number, down: boolean): number {
  const spread = 0.034 - (bpm - 60) * 0.00012 - (velocity - 0.5) * 0.024;
  return clamp(down ? spread : spread * 0.7, 0.008, 0.03);
}

/**
 * The notes of a run of strokes on one shape. A downstroke sweeps every string low→high starting on the grid
 * time; an upstroke catches the higher strings, high→low, lighter. A string rings until the next stroke that
 * hits it (the bass strings ring on under an upstroke), or briefly when palm-muted.
 */
export function strum(shape: Shape, strokes: readonly Stroke[], bpm: number, end: number, random: Random): GridNote[] {
  const secondsPerBeat = 60 / bpm;
  const n = shape.length;
  const upStrings = Math.max(2, Math.min(n, Math.ceil(n * 0.6)));
  const struck = strokes.map((stroke) => {
    const count = stroke.strings ?? (stroke.down ? n : upStrings);
    const strings = Array.from({ length: Math.min(n, count) }, (_, k) => n - Math.min(n, count) + k);
    return stroke.down ? strings : strings.reverse();
  });
  const notes: GridNote[] = [];
  strokes.forEach((stroke, s) => {
    const strings = at(struck, s);
    // No two strokes sweep quite alike, but all stay within 8–30 ms.
    const spread = clamp(strokeSpread(bpm, stroke.velocity, stroke.down) * random.range(0.85, 1.15), 0.008, 0.03);
    const gap = strings.length > 1 ? spread / (strings.length - 1) : 0;
    strings.forEach((string, k) => {
      let next = end;
      for (let t = s + 1; t < strokes.length; t++) {
        if (at(struck, t).includes(string)) {
          next = at(strokes, t).beat;
          break;
        }
      }
      const offset = Math.round(k * gap * 1e6) / 1e6;
      const lateness = offset / secondsPerBeat;
      const ring = stroke.muted
        ? Math.min(stroke.beats * 0.45, 0.16 / secondsPerBeat)
        : Math.max(0.05, (stroke.letRing ? next - stroke.beat : stroke.beats) - lateness) * (stroke.letRing ? 0.97 : 1);
      // The pick digs into the first strings it meets and glances off the last ones.
      const accent = 1 - 0.14 * (strings.length > 1 ? k / (strings.length - 1) : 0);
      const note: GridNote = {
        beat: stroke.beat,
        beats: ring,
        midi: at(shape, string),
        velocity: stroke.velocity * accent,
      };
      if (offset > 0) note.offset = offset;
      if (stroke.muted) note.articulation = 'muted';
      notes.push(note);
    });
  });
  return notes;
}

/**
 * Eighth-note strum patterns (D down, U up, . the hand passing without touching), by meter: 3/4 downs on its
 * three beats, 6/8 and 12/8 on their dotted-quarter pulses, 5/4 as 3+2, 7/8 as 2+2+3.
 */
const ACOUSTIC_PATTERNS: Record<string, string[]> = {
  '4/4': ['D.DU.UDU', 'D.D.D.DU', 'D..UD.DU'],
  '3/4': ['D.DUDU', 'D..UDU', 'D.D.DU'],
  '2/4': ['D.DU', 'D.DU', 'DUDU'],
  '6/8': ['D.UD.U', 'DUUDUU', 'D..DUU'],
  '12/8': ['D.UD.UD.UD.U', 'DUUDUUDUUDUU', 'D..DUUD..DUU'],
  '5/4': ['D.DUD.D.DU', 'D.D.DUD.DU', 'D..UD.D..U'],
  '7/8': ['D.D.D.U', 'DUDUD.U', 'D.DUD.U'],
};

/** Downstrokes on the bar's strong beats only: the quiet pulse. */
function sparsePattern(slots: number, strongSlots: readonly number[]): string {
  return Array.from({ length: slots }, (_, i) => (strongSlots.includes(i) ? 'D' : '.')).join('');
}

/** A pattern of `slots` strokes for a bar: down on the beats, up on some off-beats, when no table entry fits. */
function genericPattern(slots: number, busy: boolean): string {
  return Array.from({ length: slots }, (_, i) => (i % 2 === 0 ? 'D' : busy && i % 4 === 3 ? 'U' : '.')).join('');
}

export interface StrumPlan {
  pattern: string;
  /** Palm-mute every stroke. */
  muted: boolean;
}

/**
 * The pattern a section is strummed with. Acoustic: a sparse downstroke pulse when quiet, else the style's
 * folk/pop pattern. Power chords: steady eighth downstrokes, palm-muted chugs in verses and ringing open in
 * choruses, whole-note hits when quiet.
 */
export function strumPlan(
  instrument: string,
  bar: { meter: string; slots: number; strongSlots: readonly number[] },
  energy: number,
  kind: string,
  choice: number,
): StrumPlan {
  const { slots } = bar;
  if (playsPowerChords(instrument)) {
    if (energy < 0.45) return { pattern: sparsePattern(slots, bar.strongSlots), muted: false };
    if (kind === 'bridge') return { pattern: genericPattern(slots, false), muted: false };
    return { pattern: 'D'.repeat(slots), muted: kind === 'verse' || kind === 'theme' };
  }
  if (energy < 0.45) return { pattern: sparsePattern(slots, bar.strongSlots), muted: false };
  const table = ACOUSTIC_PATTERNS[bar.meter];
  return { pattern: table ? at(table, choice % table.length) : genericPattern(slots, true), muted: false };
}
