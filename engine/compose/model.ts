/**
 * The compose stage's working data. Everything here is in METER beats (the unit `bpm` counts); index.ts
 * converts to the Score's quarter-note beats and seconds at the very end.
 */
import { at } from '../checked.ts';
import type { Articulation, Mode, PlanKind, Preset, Role, SectionKind, SongSpec } from '../types.ts';
import type { ParsedChord } from '../theory/roman.ts';

/** A note on the grid before swing and humanizing. */
export interface GridNote {
  beat: number;
  beats: number;
  midi: number;
  velocity: number;
  /** Seconds added after swing (a strum's spread); not a grid position. */
  offset?: number;
  /** How a sampled instrument plays it (pizzicato, tremolo, palm-muted); absent: ordinarily. */
  articulation?: Articulation;
  /**
   * Grid beat where a sustain pedal lifts: the note rings at least until just before then (and never past the
   * notes struck there). Piano-type chords and arpeggios, re-pedalled at each chord change.
   */
  holdUntil?: number;
  /** Semitones the note slides in from (Note.glide). */
  glide?: number;
}

export interface PlannedSection {
  kind: SectionKind;
  label: string;
  startBar: number;
  /** Whole bars, except the final section which also holds the fractional bar that rings out. */
  bars: number;
  energy: number;
  /** Roles that play in this section (already limited to the arrangement's roles). */
  roles: ReadonlySet<Role>;
  /** Beat where the section starts and its length in beats. */
  beat: number;
  beats: number;
  /** The plan kind asked for, when the track follows a composition plan. */
  planKind?: PlanKind;
  /** Words the plan asks to be sung in this section. */
  lyrics?: string;
}

export interface ChordSlot {
  beat: number;
  beats: number;
  symbol: string;
  chord: ParsedChord;
  /** Index into the sections array. */
  section: number;
}

/** Everything a part generator needs to know, computed once. */
export interface ComposeContext {
  spec: SongSpec;
  preset: Preset;
  bpm: number;
  beatsPerBar: number;
  /** Meter beats in the whole track, possibly fractional. */
  totalBeats: number;
  /** Beat where the final tonic chord (the ending) starts. */
  endingBeat: number;
  tonic: number;
  mode: Mode;
  scale: number[];
  sections: PlannedSection[];
  chords: ChordSlot[];
  /** Roles of the arrangement (spec.instruments minus exclusions and vocal). */
  roles: ReadonlySet<Role>;
  /** The patch playing each role of the arrangement (how a part is played depends on its instrument). */
  instruments: Partial<Record<Role, string>>;
}

export const EPSILON = 1e-6;

/** The chord slot sounding at `beat` (the last one for beats past the end). */
export function chordAt(chords: readonly ChordSlot[], beat: number): ChordSlot {
  let lo = 0;
  let hi = chords.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (at(chords, mid).beat <= beat + EPSILON) lo = mid;
    else hi = mid - 1;
  }
  return at(chords, lo);
}

/** The section containing `beat`. */
export function sectionAt(sections: readonly PlannedSection[], beat: number): PlannedSection {
  let found = at(sections, 0);
  for (const section of sections) if (section.beat <= beat + EPSILON) found = section;
  return found;
}

/** Mean note velocity for a section: 0.55 + 0.25·arousal, scaled by how full the section is. */
export function sectionVelocity(arousal: number, energy: number): number {
  const base = 0.55 + 0.25 * arousal;
  return Math.min(1, Math.max(0.08, base * (0.62 + 0.55 * energy)));
}

/** Beats (within the bar) that carry metrical weight: where melodies land on chord tones. */
export function strongBeats(beatsPerBar: number): number[] {
  if (beatsPerBar === 4) return [0, 2];
  // Odd meters are counted in groups: 3+2 (5/4), 2+2+3 (7/8).
  if (beatsPerBar === 5) return [0, 3];
  if (beatsPerBar === 7) return [0, 2, 4];
  if (beatsPerBar % 3 === 0 && beatsPerBar > 3) return Array.from({ length: beatsPerBar / 3 }, (_, i) => i * 3);
  if (beatsPerBar % 2 === 0 && beatsPerBar > 4) return Array.from({ length: beatsPerBar / 2 }, (_, i) => i * 2);
  return [0];
}

const strongCache = new Map<number, number[]>();

export function isStrongBeat(beat: number, beatsPerBar: number): boolean {
  let strong = strongCache.get(beatsPerBar);
  if (!strong) {
    strong = strongBeats(beatsPerBar);
    strongCache.set(beatsPerBar, strong);
  }
  const inBar = beat % beatsPerBar;
  return strong.some((s) => Math.abs(inBar - s) < EPSILON);
}

export function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
