/**
 * Motifs: a short rhythm with a contour in scale steps, realized against whatever chord is sounding
 * (Abundant Music's chord-relative motifs, as an idea). Variation follows Temperley's observation that a
 * repeated pattern changes one interval, usually into a bigger one.
 */
import { at } from '../checked.ts';
import type { Random } from '../random.ts';

export interface MotifNote {
  /** Beats from the motif start, and length in beats. */
  at: number;
  beats: number;
  /** Scale steps from the previous note (0 for the first). */
  step: number;
}

export interface Motif {
  notes: MotifNote[];
  /** Length in beats. */
  beats: number;
  /** Which chord tone the motif starts on: 0 root, 1 third, 2 fifth. */
  startTone: number;
}

type Cell = [offset: number, length: number][];
type CellName = 'quarter' | 'eighths' | 'dotted' | 'syncopated' | 'sixteenths' | 'rest';

const CELLS: Record<CellName, Cell> = {
  quarter: [[0, 1]],
  eighths: [
    [0, 0.5],
    [0.5, 0.5],
  ],
  dotted: [
    [0, 0.75],
    [0.75, 0.25],
  ],
  syncopated: [[0.5, 0.5]],
  sixteenths: [
    [0, 0.25],
    [0.25, 0.25],
    [0.5, 0.25],
    [0.75, 0.25],
  ],
  rest: [],
};

/** Cell weights for a density 0–1: sparse motifs rest and hold, dense ones subdivide. */
function cellWeights(density: number, fast: boolean): [CellName[], number[]] {
  const names: CellName[] = ['quarter', 'eighths', 'dotted', 'syncopated', 'sixteenths', 'rest'];
  const weights = [
    1,
    0.3 + 1.4 * density,
    0.2 + 0.5 * density,
    0.3,
    fast ? 0 : Math.max(0, density - 0.55) * 2,
    1.3 * (1 - density) + 0.1,
  ];
  return [names, weights];
}

/** A contour step: small steps likely, repeats damped, pulled back toward where the motif started. */
function nextStep(random: Random, previous: number, height: number): number {
  if (Math.abs(previous) >= 3) return -Math.sign(previous) * random.int(1, 2); // a leap is answered by a step back
  const steps = [-4, -3, -2, -1, 0, 1, 2, 3, 4];
  const weights = steps.map((s) => {
    const base = at([0.12, 0.45, 2, 3, 0.6, 3, 2, 0.45, 0.12], s + 4);
    const away = Math.sign(s) === Math.sign(height) && s !== 0;
    return away ? base / (1 + Math.abs(height) * 0.45) : base;
  });
  return random.weighted(steps, weights);
}

export function makeMotif(random: Random, beats: number, density: number, fast: boolean): Motif {
  const [names, weights] = cellWeights(density, fast);
  const notes: MotifNote[] = [];
  let beat = 0;
  while (beat < beats - 1e-6) {
    const first = beat === 0;
    // Half notes now and then, so slow motifs breathe.
    if (!first && beat + 2 <= beats && random.chance(0.25 * (1 - density))) {
      notes.push({ at: beat, beats: 2, step: 0 });
      beat += 2;
      continue;
    }
    let name = random.weighted(names, weights);
    if (first && (name === 'rest' || name === 'syncopated')) name = 'quarter';
    for (const [offset, length] of CELLS[name]) notes.push({ at: beat + offset, beats: length, step: 0 });
    beat += 1;
  }
  // Short notes before a rest may ring into it: legato phrasing.
  for (const [i, note] of notes.entries()) {
    const nextAt = notes[i + 1]?.at ?? beats;
    if (nextAt - note.at > note.beats && random.chance(0.5)) note.beats = nextAt - note.at;
  }
  let height = 0;
  let previous = 0;
  for (let i = 1; i < notes.length; i++) {
    previous = nextStep(random, previous, height);
    height += previous;
    at(notes, i).step = previous;
  }
  return { notes, beats, startTone: random.weighted([0, 1, 2], [2, 3, 2]) };
}

/** The repeat: one interval made bigger (a leap where there was a step), the next answered by a step back. */
export function varyMotif(motif: Motif, random: Random): Motif {
  const notes = motif.notes.map((n) => ({ ...n }));
  const candidates = notes.map((_, i) => i).filter((i) => i > 0 && Math.abs(at(notes, i).step) <= 2);
  if (candidates.length > 0) {
    const k = random.pick(candidates);
    const note = at(notes, k);
    const direction = note.step === 0 ? (random.chance(0.5) ? 1 : -1) : Math.sign(note.step);
    note.step += direction * 2;
    const after = notes[k + 1];
    if (after) after.step = -direction * Math.max(1, Math.min(2, Math.abs(after.step)));
  }
  return { ...motif, notes };
}

/**
 * The phrase-ending form: the motif up to the middle of its last bar, then one long note held to the end
 * (the realizer lands it on a chord tone).
 */
export function cadentialMotif(motif: Motif, beatsPerBar: number): Motif {
  const cut = motif.beats - Math.max(beatsPerBar / 2, motif.beats > beatsPerBar ? beatsPerBar : 0);
  const notes = motif.notes.filter((n) => n.at < cut - 1e-6).map((n) => ({ ...n }));
  const lastAt = Math.max(cut, 0);
  const landing = notes.length > 0 ? lastAt : 0;
  notes.push({ at: landing, beats: motif.beats - landing, step: notes.length > 0 ? -1 : 0 });
  for (let i = 0; i + 1 < notes.length; i++) {
    const note = at(notes, i);
    note.beats = Math.min(note.beats, at(notes, i + 1).at - note.at);
  }
  return { ...motif, notes };
}
