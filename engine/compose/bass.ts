/**
 * Bass lines in the preset's style. Every chord starts with its "anchor" note (the root, or the tonic for a
 * pedal) so the voicing stage can rule out parallels against the real bass.
 */
import { at, defined } from '../checked.ts';
import type { BassStyle } from '../types.ts';
import type { Random } from '../random.ts';
import { lowestAtOrAbove, mod } from '../theory/pitch.ts';
import { chordScale } from '../theory/scales.ts';
import { hitsOf, type DrumGrid } from './drums.ts';
import {
  EPSILON,
  clamp,
  sectionVelocity,
  strongBeats,
  type ChordSlot,
  type ComposeContext,
  type GridNote,
} from './model.ts';

/** The lowest anchor note: 808s sit lower than a played bass. */
function bassFloor(style: BassStyle): number {
  return style === 'sub808' ? 26 : style === 'acid' ? 31 : 33;
}

/** The bass note sounding at the start of each chord. */
export function bassAnchors(ctx: ComposeContext, style: BassStyle): number[] {
  const floor = bassFloor(style);
  return ctx.chords.map((slot) => lowestAtOrAbove(style === 'pedal' ? ctx.tonic : slot.chord.root, floor));
}

interface SlotInput {
  ctx: ComposeContext;
  slot: ChordSlot;
  anchor: number;
  nextAnchor: number;
  /** The anchor of the chord before, when the bass played it. */
  previousAnchor: number | undefined;
  /** 0–1: how busy the line is (section energy and arousal). */
  drive: number;
  velocity: number;
  drumBars: readonly (DrumGrid | null)[];
  stepsPerBar: number;
  acid: AcidPattern;
}

/** Onsets from `start` every `every` beats until `end`. */
function pulses(start: number, end: number, every: number): number[] {
  const result: number[] = [];
  for (let beat = start; beat < end - EPSILON; beat += every) result.push(beat);
  return result;
}

/** Notes lasting until the next onset (times `gate`), all in the slot. */
function legato(
  onsets: readonly number[],
  pitches: readonly number[],
  end: number,
  velocity: number,
  gate = 0.92,
): GridNote[] {
  return onsets.map((beat, i) => ({
    beat,
    beats: ((onsets[i + 1] ?? end) - beat) * gate,
    midi: at(pitches, i % pitches.length),
    velocity: velocity * (i === 0 ? 1 : 0.88),
  }));
}

/**
 * The slot's start and every strong beat after it: 1 and 3 in 4/4, the pulses of 6/8, the group starts of
 * 5/4 (3+2) and 7/8 (2+2+3), the downbeat alone in 3/4. Halving the bar would put a 3/4 bass on "two-and".
 */
function strongOnsets(ctx: ComposeContext, slot: ChordSlot): number[] {
  const bpb = ctx.beatsPerBar;
  const onsets = [slot.beat];
  for (let bar = Math.floor(slot.beat / bpb + EPSILON); bar * bpb < end(slot) - EPSILON; bar++) {
    for (const strong of strongBeats(bpb)) {
      const beat = bar * bpb + strong;
      if (beat > slot.beat + EPSILON && beat < end(slot) - EPSILON) onsets.push(beat);
    }
  }
  return onsets;
}

function fifthAbove(slot: ChordSlot, anchor: number): number {
  return anchor + (slot.chord.intervals[2] ?? 7);
}

type SlotGenerator = (input: SlotInput) => GridNote[];

const end = (s: ChordSlot) => s.beat + s.beats;

const GENERATORS: Record<BassStyle, SlotGenerator> = {
  root: ({ slot, anchor, drive, velocity, ctx }) => {
    const onsets =
      drive < 0.45
        ? pulses(slot.beat, end(slot), ctx.beatsPerBar)
        : drive < 0.7
          ? strongOnsets(ctx, slot)
          : pulses(slot.beat, end(slot), 0.5);
    return legato(onsets, [anchor], end(slot), velocity);
  },
  rootFifth: ({ slot, anchor, drive, velocity, ctx }) => {
    const onsets = drive < 0.75 ? strongOnsets(ctx, slot) : pulses(slot.beat, end(slot), 1);
    return legato(onsets, [anchor, fifthAbove(slot, anchor)], end(slot), velocity);
  },
  octaves: ({ slot, anchor, drive, velocity }) =>
    legato(pulses(slot.beat, end(slot), drive < 0.4 ? 1 : 0.5), [anchor, anchor + 12], end(slot), velocity, 0.8),
  walking: ({ ctx, slot, anchor, nextAnchor, velocity }) => {
    const onsets = pulses(slot.beat, end(slot), 1);
    const tones = slot.chord.intervals.slice(1).map((i) => anchor + mod(i, 12));
    const pitches = onsets.map((_, i) => (i === 0 ? anchor : at(tones, (i - 1) % tones.length)));
    if (onsets.length >= 2)
      pitches[pitches.length - 1] = approachTone(ctx, slot, nextAnchor, at(pitches, pitches.length - 2));
    return legato(onsets, pitches, end(slot), velocity, 0.9);
  },
  offbeat: ({ slot, anchor, drive, velocity }) => {
    const onsets = pulses(slot.beat + 0.5, end(slot), 1);
    const pitches = onsets.map((_, i) => (drive > 0.85 && i % 4 === 3 ? anchor + 12 : anchor));
    return onsets.map((beat, i) => ({
      beat,
      beats: 0.4,
      midi: at(pitches, i),
      velocity: velocity * (i === 0 ? 1 : 0.9),
    }));
  },
  sub808: ({ ctx, slot, anchor, previousAnchor, drive, velocity, drumBars, stepsPerBar }) => {
    const onsets = new Set<number>([slot.beat]);
    for (let bar = Math.floor(slot.beat / ctx.beatsPerBar); bar * ctx.beatsPerBar < end(slot) - EPSILON; bar++) {
      const grid = drumBars[bar];
      const kicks = grid
        ? hitsOf(grid, 'kick', stepsPerBar, ctx.beatsPerBar).map((h) => h.beat)
        : [0, ctx.beatsPerBar * 0.625];
      for (const k of kicks) {
        const beat = bar * ctx.beatsPerBar + k;
        if (beat > slot.beat + EPSILON && beat < end(slot) - EPSILON) onsets.add(beat);
      }
    }
    const sorted = [...onsets].sort((a, b) => a - b);
    // Lively sections jump the 808 an octave up on the last hit of the chord and slide back down from it.
    const pitches = sorted.map((_, i) =>
      (drive > 0.8 && i % 4 === 2) || (drive >= 0.5 && i > 0 && i === sorted.length - 1) ? anchor + 12 : anchor,
    );
    const notes = legato(sorted, pitches, end(slot), velocity, 0.97);
    // The 808 slides between its pitches (it is played legato, each note tied into the next).
    notes.forEach((note, i) => {
      const from = i === 0 ? previousAnchor : pitches[i - 1];
      if (from !== undefined && from !== note.midi && Math.abs(from - note.midi) <= 12) note.glide = from - note.midi;
    });
    return notes;
  },
  locked: (input) => lockedLine(input),
  // Boom bap's round bass: the root on every kick, held into the next one, and no octave pops or dead notes
  // (funk's locked line put most of the bass at 100–300 Hz; this one stays under the chord's root).
  kicks: (input) => {
    const onsets = [...new Set([input.slot.beat, ...kickBeats(input)])]
      .filter((beat) => beat >= input.slot.beat - EPSILON && beat < end(input.slot) - EPSILON)
      .sort((a, b) => a - b);
    return legato(onsets, [input.anchor], end(input.slot), input.velocity, 0.85);
  },
  // The blues' boogie: up the chord's root, third, fifth and sixth and back down from its seventh, a tone a beat
  // (two swung eighths each when lively), the figure blues bassists and pianists' left hands play under a shuffle.
  boogie: ({ ctx, slot, anchor, drive, velocity }) => {
    const third = anchor + (slot.chord.intervals.find((i) => i === 3 || i === 4) ?? 4);
    const fifth = anchor + (slot.chord.intervals.find((i) => i === 6 || i === 7 || i === 8) ?? 7);
    // The sixth and seventh of the key's own scale (major sixth and flat seventh in the blues' mixolydian and
    // dorian): in another mode the figure bends to it rather than play outside the key.
    const tones = chordScale(ctx.scale, slot.chord.pitchClasses);
    const inKey = (midi: number): number =>
      [midi, midi - 1, midi + 1].find((candidate) => tones.includes(mod(candidate, 12))) ?? midi;
    const sixth = inKey(anchor + 9);
    const seventh = inKey(anchor + 10);
    const up = [anchor, third, fifth, sixth];
    const down = [seventh, sixth, fifth, third];
    const every = drive >= 0.35 ? 0.5 : 1;
    const onsets = pulses(slot.beat, end(slot), every);
    const pitches = onsets.map((beat) => {
      // Up in one bar, down in the next, whatever the chord's length.
      const bar = Math.floor(beat / ctx.beatsPerBar + EPSILON);
      const figure = bar % 2 === 0 ? up : down;
      return at(figure, Math.floor(beat - bar * ctx.beatsPerBar + EPSILON) % 4);
    });
    return legato(onsets, pitches, end(slot), velocity, 0.85).map((note, i) =>
      every === 0.5 && i % 2 === 1 ? { ...note, velocity: note.velocity * 0.8 } : note,
    );
  },
  dub: (input) => dubLine(input),
  acid: (input) => acidLine(input),
  pedal: ({ slot, anchor, velocity, ctx }) =>
    legato(pulses(slot.beat, end(slot), ctx.beatsPerBar * 2), [anchor], end(slot), velocity * 0.9, 0.98),
  ostinato: ({ slot, anchor, drive, velocity }) => {
    const fifth = fifthAbove(slot, anchor);
    const figure = [anchor, anchor, anchor + 12, anchor, fifth, anchor, anchor + 12, fifth];
    return legato(pulses(slot.beat, end(slot), drive < 0.35 ? 1 : 0.5), figure, end(slot), velocity, 0.75);
  },
};

/** Where the kick hits in each bar the slot covers (grid beats), or the downbeat and the "and" of three without drums. */
function kickBeats(input: SlotInput): number[] {
  const { ctx, slot, drumBars, stepsPerBar } = input;
  const bpb = ctx.beatsPerBar;
  const beats: number[] = [];
  for (let bar = Math.floor(slot.beat / bpb + EPSILON); bar * bpb < end(slot) - EPSILON; bar++) {
    const grid = drumBars[bar];
    const kicks = grid?.kick ? hitsOf(grid, 'kick', stepsPerBar, bpb).map((h) => h.beat) : [0, bpb * 0.625];
    for (const k of kicks) beats.push(bar * bpb + k);
  }
  return beats;
}

/**
 * Funk's bass, locked to the kick: a thumbed root on every kick, the octave popped on the "and" after each
 * backbeat, a dead note a sixteenth before the kicks that follow the one, and a pickup into the next chord;
 * quiet sections play the kicks alone.
 */
function lockedLine(input: SlotInput): GridNote[] {
  const { ctx, slot, anchor, nextAnchor, drive, velocity } = input;
  const bpb = ctx.beatsPerBar;
  const inSlot = (beat: number) => beat >= slot.beat - EPSILON && beat < end(slot) - EPSILON;
  const hits = new Map<number, { midi: number; level: number; dead?: boolean }>();
  const key = (beat: number) => Math.round(beat * 4);
  for (const beat of kickBeats(input)) if (inSlot(beat)) hits.set(key(beat), { midi: anchor, level: 1 });
  hits.set(key(slot.beat), { midi: anchor, level: 1 });
  if (drive >= 0.4) {
    for (let bar = Math.floor(slot.beat / bpb + EPSILON); bar * bpb < end(slot) - EPSILON; bar++) {
      for (const within of bpb === 4 ? [1.5, 3.5] : [bpb - 0.5]) {
        const beat = bar * bpb + within;
        if (inSlot(beat) && !hits.has(key(beat))) hits.set(key(beat), { midi: anchor + 12, level: 0.85 });
      }
    }
    for (const [k, hit] of [...hits]) {
      const before = k - 1;
      if (hit.midi === anchor && k !== key(slot.beat) && inSlot(before / 4) && !hits.has(before))
        hits.set(before, { midi: anchor, level: 0.4, dead: true });
    }
    const last = key(end(slot)) - 1;
    if (drive >= 0.6 && nextAnchor !== anchor && inSlot(last / 4) && !hits.has(last))
      hits.set(last, { midi: nextAnchor + (nextAnchor > anchor ? -1 : 1), level: 0.75 });
  }
  const onsets = [...hits.keys()].sort((a, b) => a - b);
  return onsets.map((k, i) => {
    const hit = defined(hits.get(k), 'a locked bass hit');
    const next = onsets[i + 1] ?? key(end(slot));
    const note: GridNote = {
      beat: k / 4,
      beats: hit.dead ? 0.1 : Math.min(0.75, ((next - k) / 4) * 0.8),
      midi: hit.midi,
      velocity: clamp(velocity * hit.level, 0, 1),
    };
    return note;
  });
}

/** A tone of a reggae riff: the chord's root, third, fifth or octave, or the scale tone above the fifth. */
type RiffTone = 'root' | 'third' | 'fifth' | 'sixth' | 'octave';
/** Reggae bass riffs, one bar of 4/4 each: [beat, length in beats, tone]. Space is part of the line. */
const DUB_RIFFS: [number, number, RiffTone][][] = [
  [
    [0, 1.25, 'root'],
    [1.5, 0.5, 'root'],
    [2, 0.75, 'fifth'],
    [2.75, 0.25, 'third'],
    [3, 0.5, 'octave'],
    [3.5, 0.5, 'fifth'],
  ],
  [
    [0, 0.75, 'root'],
    [0.75, 0.25, 'root'],
    [1.5, 0.5, 'third'],
    [2.5, 0.5, 'fifth'],
    [3, 1, 'sixth'],
  ],
  // The one dropped, as the drummer does: the riff starts on its "and".
  [
    [0.5, 0.5, 'root'],
    [1, 0.75, 'root'],
    [2, 0.5, 'fifth'],
    [2.5, 0.5, 'octave'],
    [3.5, 0.5, 'fifth'],
  ],
  [
    [0, 1.5, 'root'],
    [2, 0.5, 'third'],
    [2.5, 0.5, 'fifth'],
    [3, 0.5, 'sixth'],
    [3.5, 0.5, 'fifth'],
  ],
];

/**
 * Reggae's bass: a deep melodic riff in the chord's tones with rests between, the same riffs for every section
 * of a label (two alternating bars); quiet sections play its root and fifth on 1 and 3. Outside 4/4 the strong
 * beats carry root and fifth.
 */
function dubLine({ ctx, slot, anchor, drive, velocity }: SlotInput): GridNote[] {
  if (ctx.beatsPerBar !== 4 || drive < 0.3) {
    return legato(strongOnsets(ctx, slot), [anchor, fifthAbove(slot, anchor)], end(slot), velocity, 0.7);
  }
  const section = at(ctx.sections, slot.section);
  // A riff per section label, chosen from its letters so every chorus plays the same one.
  const first = [...section.label].reduce((sum, c) => sum + c.charCodeAt(0), 0) % DUB_RIFFS.length;
  const fifth = fifthAbove(slot, anchor);
  const tones = chordScale(ctx.scale, slot.chord.pitchClasses);
  let sixth = fifth + 1;
  while (!tones.includes(mod(sixth, 12))) sixth++;
  const pitch: Record<RiffTone, number> = {
    root: anchor,
    third: anchor + (slot.chord.intervals.find((i) => i === 3 || i === 4) ?? slot.chord.intervals[1] ?? 4),
    fifth,
    sixth,
    octave: anchor + 12,
  };
  const notes: GridNote[] = [];
  for (let bar = Math.floor(slot.beat / 4 + EPSILON); bar * 4 < end(slot) - EPSILON; bar++) {
    const barInSection = bar - section.startBar;
    const riff = at(DUB_RIFFS, (first + (barInSection % 2)) % DUB_RIFFS.length);
    for (const [within, length, tone] of riff) {
      const beat = bar * 4 + within;
      if (beat < slot.beat - EPSILON || beat >= end(slot) - EPSILON) continue;
      notes.push({
        beat,
        beats: Math.min(length * 0.9, end(slot) - beat),
        midi: pitch[tone],
        velocity: velocity * (tone === 'root' ? 1 : 0.88),
      });
    }
  }
  // A chord that changes mid-bar is still heard from its start, on its root (a bar's dropped one stays dropped):
  // the riff's tone on that beat may be another, and the voicing stage kept the chords' top note free of
  // parallels with the root, not with the riff.
  const midBar = Math.abs(slot.beat / 4 - Math.round(slot.beat / 4)) > EPSILON;
  const opening = notes[0];
  if (midBar && opening && opening.beat <= slot.beat + EPSILON) opening.midi = anchor;
  else if (midBar) {
    const until = opening?.beat ?? end(slot);
    notes.unshift({ beat: slot.beat, beats: Math.min(0.75, until - slot.beat), midi: anchor, velocity });
  }
  return notes;
}

/** The scale tone next to the coming root, on the side of the previous note: walking bass's last beat. */
function approachTone(ctx: ComposeContext, slot: ChordSlot, target: number, previous: number): number {
  const tones = chordScale(ctx.scale, slot.chord.pitchClasses);
  const inScale = (midi: number) => tones.includes(mod(midi, 12));
  let above = target + 1;
  while (!inScale(above)) above++;
  let below = target - 1;
  while (!inScale(below)) below--;
  return Math.abs(previous - above) < Math.abs(previous - below) ? above : below;
}

/** A 16-step acid figure per section label: chord-tone indices, accents and slides (acid-banger's idea). */
interface AcidStep {
  tone: number;
  octave: number;
  accent: boolean;
  slide: boolean;
}
type AcidPattern = Map<string, (AcidStep | null)[]>;

export function makeAcidPatterns(ctx: ComposeContext, random: Random): AcidPattern {
  const patterns: AcidPattern = new Map();
  for (const section of ctx.sections) {
    if (patterns.has(section.label)) continue;
    const r = random.fork(section.label);
    const steps: (AcidStep | null)[] = [];
    for (let i = 0; i < 16; i++) {
      const p = i % 4 === 0 ? 0.7 : i % 2 === 0 ? 0.45 : 0.28;
      if (i !== 0 && !r.chance(p)) {
        steps.push(null);
        continue;
      }
      steps.push({
        tone: i === 0 ? 0 : r.weighted([0, 1, 2, 3], [4, 1, 2, 1]),
        octave: i !== 0 && r.chance(0.25) ? 12 : 0,
        accent: r.chance(0.3),
        slide: r.chance(0.15),
      });
    }
    patterns.set(section.label, steps);
  }
  return patterns;
}

function acidLine({ ctx, slot, anchor, velocity, acid }: SlotInput): GridNote[] {
  const pattern = defined(acid.get(at(ctx.sections, slot.section).label), 'acid pattern of the section');
  // Sixteenth notes whatever the meter (a beat unit of an eighth holds two), the 16-step figure wrapping.
  const stepBeats = ctx.spec.meter.beatUnit === 8 ? 0.5 : 0.25;
  const onsets: { beat: number; step: AcidStep }[] = [];
  for (let beat = slot.beat; beat < end(slot) - EPSILON; beat += stepBeats) {
    const index = Math.round((beat - Math.floor(beat / ctx.beatsPerBar + EPSILON) * ctx.beatsPerBar) / stepBeats) % 16;
    const step = beat === slot.beat ? { tone: 0, octave: 0, accent: true, slide: false } : pattern[index];
    if (step) onsets.push({ beat, step });
  }
  const intervals = slot.chord.intervals;
  return onsets.map(({ beat, step }, i) => {
    const next = onsets[i + 1]?.beat ?? end(slot);
    return {
      beat,
      // A slide overlaps the next note: the renderer glides between overlapping notes.
      beats:
        step.slide && i + 1 < onsets.length ? next - beat + stepBeats * 0.25 : Math.min(next - beat, stepBeats) * 0.85,
      midi: anchor + mod(at(intervals, step.tone % intervals.length), 12) + step.octave,
      velocity: clamp(velocity * (step.accent ? 1.2 : 0.82), 0, 1),
    };
  });
}

export function composeBass(
  ctx: ComposeContext,
  anchors: readonly number[],
  drumBars: readonly (DrumGrid | null)[],
  stepsPerBar: number,
  random: Random,
): GridNote[] {
  const style = ctx.preset.bass;
  const acid = makeAcidPatterns(ctx, random);
  const notes: GridNote[] = [];
  ctx.chords.forEach((slot, i) => {
    const section = at(ctx.sections, slot.section);
    if (!section.roles.has('bass')) return;
    const anchor = at(anchors, i);
    const velocity = sectionVelocity(ctx.spec.arousal, section.energy) * 0.95;
    if (slot.beat >= ctx.endingBeat - EPSILON) {
      // The ending: the root held under the final chord.
      notes.push({ beat: slot.beat, beats: slot.beats, midi: anchor, velocity: velocity * 0.9 });
      return;
    }
    const drive = section.energy * (0.6 + 0.2 * (ctx.spec.arousal + 1));
    const input: SlotInput = {
      ctx,
      slot,
      anchor,
      nextAnchor: anchors[i + 1] ?? anchor,
      previousAnchor:
        i > 0 && at(ctx.sections, at(ctx.chords, i - 1).section).roles.has('bass') ? anchors[i - 1] : undefined,
      drive,
      velocity,
      drumBars,
      stepsPerBar,
      acid,
    };
    notes.push(...GENERATORS[style](input));
  });
  return notes;
}
