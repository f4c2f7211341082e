/**
 * The chords role in the preset's playing style, and the pad role that sustains the same voicings.
 * Rhythms are chosen per section label, so a repeated section is played the same way.
 */
import { at, last } from '../checked.ts';
import type { ChordStyle } from '../types.ts';
import type { Random } from '../random.ts';
import { meterName } from './meter.ts';
import {
  EPSILON,
  isStrongBeat,
  strongBeats,
  sectionVelocity,
  type ChordSlot,
  type ComposeContext,
  type GridNote,
} from './model.ts';
import { familyOf } from './instruments.ts';
import { guitarShapes, strum, strumPlan, type Shape, type Stroke } from './guitar.ts';

/** A hit inside a bar: where (in fractions of the bar) and for how long (fraction of the bar). */
type Hit = [at: number, length: number];

/** Comping bars (jazz/lo-fi): syncopated, never on every beat. */
const COMP_BARS: Hit[][] = [
  [
    [0, 0.375],
    [0.375, 0.125],
    [0.625, 0.25],
  ],
  [
    [0, 0.5],
    [0.625, 0.375],
  ],
  [
    [0.125, 0.25],
    [0.5, 0.25],
    [0.875, 0.125],
  ],
  [
    [0, 0.25],
    [0.375, 0.5],
  ],
  [[0, 0.875]],
];
/** Stab rhythms in sixteenths of a bar (house/EDM). */
const STAB_BARS: number[][] = [
  [2, 6, 10, 14],
  [0, 3, 6, 10, 12],
  [3, 6, 11, 14],
  [2, 5, 8, 11, 14],
];

/** The sixteenths (of a 4/4 bar) a chicken scratch lets ring open; the rest are muted. */
const SCRATCH_ACCENTS: number[][] = [
  [2, 7, 10, 15],
  [3, 6, 10, 13],
  [2, 5, 10, 14],
];

/** A guitar chops stabs on its highest strings only. */
const STAB_STRINGS = 4;

interface Ctx {
  ctx: ComposeContext;
  slot: ChordSlot;
  /** The notes to play: a keyboard voicing, or a guitar's chord shape in string order. */
  voicing: readonly number[];
  velocity: number;
  energy: number;
  choice: number;
  /** Set when a guitar-type instrument plays: every chord is a stroke across its strings. */
  guitar: { instrument: string; random: Random } | null;
}

const slotEnd = (slot: ChordSlot) => slot.beat + slot.beats;

/**
 * The rhythm choice for the bar a chord starts in: a section's pattern alternates with a second one every
 * other bar (call and answer), the same in every repeat of the section.
 */
function barChoice(c: Ctx): number {
  const bar = Math.floor((c.slot.beat - at(c.ctx.sections, c.slot.section).beat) / c.ctx.beatsPerBar + EPSILON);
  return c.choice + (bar % 2 === 1 ? 1 + (c.choice % 2) : 0);
}

/**
 * Onsets at the given fractions of every bar the slot covers, clipped to the slot; a chord change between
 * them is struck where it starts unless `offBeatOnly` (the skank never plays on the beat).
 */
function barHits(c: Ctx, hits: readonly Hit[], offBeatOnly = false): Hit[] {
  const { slot, ctx } = c;
  const bpb = ctx.beatsPerBar;
  const result: Hit[] = [];
  for (let bar = Math.floor(slot.beat / bpb + EPSILON); bar * bpb < slotEnd(slot) - EPSILON; bar++) {
    for (const [at, length] of hits) {
      const beat = bar * bpb + at * bpb;
      if (beat >= slot.beat - EPSILON && beat < slotEnd(slot) - EPSILON)
        result.push([beat, Math.min(length * bpb, slotEnd(slot) - beat)]);
    }
  }
  // A chord change mid-bar must still be heard where it starts.
  if (!offBeatOnly && (result.length === 0 || at(result, 0)[0] > slot.beat + EPSILON))
    result.unshift([slot.beat, Math.min(hits[0]?.[1] ?? 1, 1) * bpb]);
  return result.map(([b, l]) => [b, Math.min(l, slotEnd(slot) - b)]);
}

/** One hit on each strong beat of the bar, lasting until the next (halves in 4/4 and 6/8). */
function strongHits(beatsPerBar: number): Hit[] {
  const strong = strongBeats(beatsPerBar);
  return strong.map((b, i): Hit => [b / beatsPerBar, ((strong[i + 1] ?? beatsPerBar) - b) / beatsPerBar]);
}

/** Strong beats, each answered by a short hit on the beat before the next pulse (when that beat is weak). */
function pushedHits(beatsPerBar: number): Hit[] {
  const strong = strongBeats(beatsPerBar);
  const hits: Hit[] = [];
  strong.forEach((b, i) => {
    const next = strong[i + 1] ?? beatsPerBar;
    hits.push([b / beatsPerBar, Math.min(0.9, next - b - 1 || 0.9) / beatsPerBar]);
    if (next - 1 > b) hits.push([(next - 1) / beatsPerBar, 0.6 / beatsPerBar]);
  });
  return hits;
}

/**
 * Stabs outside 4/4 (whose stab rhythms are sixteenths of a bar): short chords on the beats between the
 * strong ones, the waltz's "pah-pah" and the compound meters' after-pulse; every other one when quiet.
 */
function offPulseHits(c: Ctx): Hit[] {
  const bpb = c.ctx.beatsPerBar;
  const weak = Array.from({ length: bpb }, (_, b) => b).filter((b) => !isStrongBeat(b, bpb));
  return weak.filter((_, i) => c.energy >= 0.6 || i % 2 === 0).map((b): Hit => [b / bpb, 0.4 / bpb]);
}

/** Every hit strikes the whole chord together; a guitar sweeps it with a downstroke instead. */
function chordHits(
  c: Ctx,
  hits: readonly Hit[],
  velocity: number,
  gate = 0.95,
  strings?: number,
  muted = false,
): GridNote[] {
  if (c.guitar) {
    const strokes = hits.map(([beat, length], i): Stroke => {
      const stroke: Stroke = { beat, beats: length * gate, down: true, velocity: velocity * (i === 0 ? 1 : 0.85) };
      if (strings !== undefined) stroke.strings = strings;
      if (muted) stroke.muted = true;
      return stroke;
    });
    return strum(c.voicing, strokes, c.ctx.bpm, slotEnd(c.slot), c.guitar.random);
  }
  return hits.flatMap(([beat, length], i) =>
    c.voicing.map((midi) => ({ beat, beats: length * gate, midi, velocity: velocity * (i === 0 ? 1 : 0.85) })),
  );
}

const STYLES: Record<ChordStyle, (c: Ctx) => GridNote[]> = {
  block: (c) => {
    const perBar: Hit[] = c.energy >= 0.75 ? strongHits(c.ctx.beatsPerBar) : [[0, 1]];
    return chordHits(c, barHits(c, perBar), c.velocity);
  },
  sustain: (c) => chordHits(c, [[c.slot.beat, c.slot.beats]], c.velocity * 0.9, 0.98),
  stabs: (c) => {
    if (c.ctx.beatsPerBar !== 4)
      return chordHits(c, barHits(c, offPulseHits(c)), c.velocity, 1, c.guitar ? STAB_STRINGS : undefined);
    const steps = at(STAB_BARS, barChoice(c) % STAB_BARS.length).filter((_, i) => c.energy >= 0.6 || i % 2 === 0);
    // A guitar chops stabs on its four highest strings (the reggae skank).
    return chordHits(
      c,
      barHits(
        c,
        steps.map((s) => [s / 16, 0.09] as Hit),
      ),
      c.velocity,
      1,
      c.guitar ? STAB_STRINGS : undefined,
    );
  },
  comp: (c) => {
    // The comping bars are syncopations of a 4/4 bar; elsewhere the chord falls on the pulse and, livelier,
    // is pushed again on the beat before each pulse (6/8: 1 . 3 4 . 6).
    if (c.ctx.beatsPerBar !== 4)
      return chordHits(
        c,
        barHits(c, c.energy < 0.4 ? strongHits(c.ctx.beatsPerBar) : pushedHits(c.ctx.beatsPerBar)),
        c.velocity,
        0.9,
      );
    const bar = c.energy < 0.4 ? last(COMP_BARS) : at(COMP_BARS, barChoice(c) % (COMP_BARS.length - 1));
    return chordHits(c, barHits(c, bar), c.velocity, 0.9);
  },
  arpeggio: (c) => {
    const step = c.ctx.bpm < 90 && c.energy >= 0.6 ? 0.25 : 0.5;
    const order = [...c.voicing, ...c.voicing.slice(1, -1).reverse()];
    return broken(c, order, step, 1.8);
  },
  ostinato: (c) => {
    const step = c.ctx.bpm < 100 && c.energy >= 0.7 ? 0.25 : 0.5;
    const v = c.voicing;
    const order = [at(v, 0), last(v), v[1] ?? at(v, 0), last(v)];
    return broken(c, order, step, 0.85);
  },
  // Tango's marcato: every beat struck short and detached, the strong beats leaning harder.
  marcato: (c) => {
    const bpb = c.ctx.beatsPerBar;
    const beats = barHits(
      c,
      Array.from({ length: bpb }, (_, b): Hit => [b / bpb, 0.45 / bpb]),
    );
    return beats.flatMap(([beat, length]) =>
      chordHits(c, [[beat, length]], c.velocity * (isStrongBeat(beat, bpb) ? 1 : 0.78), 0.9),
    );
  },
  // Reggae's skank: a short, damped chop ("chka") on the off-beats of the bar (2 and 4), doubled with a sixteenth
  // later when lively.
  skank: (c) => {
    const bpb = c.ctx.beatsPerBar;
    const strings = c.guitar ? STAB_STRINGS : undefined;
    if (bpb !== 4) return chordHits(c, barHits(c, offPulseHits(c)), c.velocity, 1, strings, true);
    const hits: Hit[] = [
      [0.25, 0.06],
      [0.75, 0.06],
    ];
    if (c.energy >= 0.75 && barChoice(c) % 2 === 1) hits.push([0.8125, 0.05]);
    return chordHits(c, barHits(c, hits, true), c.velocity, 1, strings, true);
  },
  // The reggae organ's bubble: on every beat, the voicing's bottom on the "e" and its upper notes on the "and"
  // and the "a", short, so the off-beats bubble under the skank.
  bubble: (c) => {
    const { slot, voicing } = c;
    const low = Math.min(...voicing);
    const upper = voicing.filter((m) => m !== low);
    const notes: GridNote[] = [];
    for (let beat = Math.ceil(slot.beat - EPSILON); beat < slotEnd(slot) - EPSILON; beat++) {
      const within = (x: number) => beat + x < slotEnd(slot) - EPSILON;
      if (within(0.25)) notes.push({ beat: beat + 0.25, beats: 0.2, midi: low, velocity: c.velocity * 0.7 });
      for (const [x, accent] of [
        [0.5, 1],
        [0.75, 0.8],
      ] as const) {
        if (!within(x) || (c.energy < 0.45 && x === 0.75)) continue;
        for (const midi of upper) notes.push({ beat: beat + x, beats: 0.18, midi, velocity: c.velocity * accent });
      }
    }
    return notes;
  },
  // Funk's chicken scratch: sixteenths strummed down and up, most of them muted "chk"s, the chord ringing out on
  // a few accented ones (the "and" of one, the "e" of two ...) that the section keeps; eighths when quiet.
  scratch: (c) => {
    const { ctx, slot } = c;
    const bpb = ctx.beatsPerBar;
    const step = c.energy < 0.45 ? 0.5 : 0.25;
    const accents = at(SCRATCH_ACCENTS, barChoice(c) % SCRATCH_ACCENTS.length);
    const strokes: Stroke[] = [];
    for (let beat = slot.beat; beat < slotEnd(slot) - EPSILON; beat += step) {
      const inBar = Math.round((((beat % bpb) + bpb) % bpb) / 0.25);
      const open = accents.includes(inBar % 16);
      const stroke: Stroke = {
        beat,
        beats: open ? step * 1.6 : step,
        down: Math.round(beat / 0.25) % 2 === 0,
        velocity: c.velocity * (open ? 1.05 : Math.round(beat / 0.25) % 2 === 0 ? 0.62 : 0.5),
        strings: STAB_STRINGS,
      };
      if (!open) stroke.muted = true;
      strokes.push(stroke);
    }
    if (c.guitar) return strum(c.voicing, strokes, ctx.bpm, slotEnd(slot), c.guitar.random);
    return strokes
      .filter((s) => !s.muted || s.down)
      .flatMap((s) =>
        c.voicing
          .slice(-3)
          .map((midi) => ({ beat: s.beat, beats: s.muted ? 0.12 : s.beats * 0.8, midi, velocity: s.velocity })),
      );
  },
  strum: (c) => {
    const { ctx } = c;
    // One strum slot per eighth note (per beat in x/8 meters).
    const slots = Math.max(1, Math.round(ctx.beatsPerBar * (ctx.spec.meter.beatUnit >= 8 ? 1 : 2)));
    const section = at(ctx.sections, c.slot.section);
    const perBeat = slots / ctx.beatsPerBar;
    const strongSlots = strongBeats(ctx.beatsPerBar).map((b) => Math.round(b * perBeat));
    const plan = strumPlan(
      c.guitar?.instrument ?? '',
      { meter: meterName(ctx.spec.meter), slots, strongSlots },
      c.energy,
      section.kind,
      c.choice,
    );
    const hits: Hit[] = [];
    for (let i = 0; i < slots; i++) if ((plan.pattern[i] ?? '.') !== '.') hits.push([i / slots, 1 / slots]);
    const onsets = barHits(c, hits);
    const strokes = onsets.map(([beat], i): Stroke => {
      const next = onsets[i + 1]?.[0] ?? slotEnd(c.slot);
      const inBar = ((beat % ctx.beatsPerBar) + ctx.beatsPerBar) % ctx.beatsPerBar;
      // The chord change is always a downstroke on every string.
      const down = i === 0 || plan.pattern[Math.round((inBar / ctx.beatsPerBar) * slots)] !== 'U';
      const stroke: Stroke = {
        beat,
        beats: next - beat,
        down,
        velocity: c.velocity * (down ? 1 : 0.72) * (i === 0 ? 1 : 0.9),
        letRing: true,
      };
      if (plan.muted) stroke.muted = true;
      return stroke;
    });
    if (c.guitar) return strum(c.voicing, strokes, ctx.bpm, slotEnd(c.slot), c.guitar.random);
    // Keyboards keep the rhythm with the whole chord down and its top three notes up, struck together.
    return strokes.flatMap((stroke) => {
      const notes = stroke.down ? c.voicing : c.voicing.slice(-3);
      return notes.map((midi) => ({ beat: stroke.beat, beats: stroke.beats * 0.95, midi, velocity: stroke.velocity }));
    });
  },
};

/** Voicing notes one after another, `step` beats apart, each lasting `gate` steps. */
function broken(c: Ctx, order: readonly number[], step: number, gate: number): GridNote[] {
  const notes: GridNote[] = [];
  let i = 0;
  for (let beat = c.slot.beat; beat < slotEnd(c.slot) - EPSILON; beat += step, i++) {
    notes.push({
      beat,
      beats: Math.min(step * gate, slotEnd(c.slot) - beat),
      midi: at(order, i % order.length),
      velocity: c.velocity * (Math.abs(beat % 1) < EPSILON ? 1 : 0.8),
    });
  }
  return notes;
}

/**
 * The ending: the final tonic voicing struck, then struck again softer a bar later when there is room, so
 * the last chord fades instead of stopping. A guitar lets a slow downstroke ring.
 */
function endingHits(c: Ctx): GridNote[] {
  const { ctx, slot, voicing, velocity } = c;
  const bpb = ctx.beatsPerBar;
  const hits: Hit[] =
    slot.beats < bpb * 1.5
      ? [[slot.beat, slot.beats]]
      : [
          [slot.beat, bpb],
          [slot.beat + bpb, slotEnd(slot) - slot.beat - bpb],
        ];
  return hits.flatMap(([beat, beats], i) => {
    const level = velocity * (i === 0 ? 1 : 0.6);
    if (c.guitar)
      return strum(
        voicing,
        [{ beat, beats, down: true, velocity: level * 0.8 }],
        ctx.bpm,
        slotEnd(slot),
        c.guitar.random,
      );
    return voicing.map((midi) => ({ beat, beats, midi, velocity: level }));
  });
}

/**
 * The chords role. `bassAnchors` (the bass note under each chord, already kept free of parallels with the
 * voicing's top) become a left-hand root when the arrangement has no bass of its own, as a pianist playing
 * alone would add. A guitar plays its own chord shapes instead, their lowest string the bass when alone.
 */
export function composeChords(
  ctx: ComposeContext,
  voicings: readonly number[][],
  bassAnchors: readonly number[],
  random: Random,
  role: 'chords' | 'pad' | 'arp' = 'chords',
  style: ChordStyle = ctx.preset.chords,
): GridNote[] {
  const choices = new Map<string, number>();
  const notes: GridNote[] = [];
  const instrument = ctx.instruments[role] ?? '';
  const guitar = familyOf(instrument) === 'guitar' ? { instrument, random: random.fork('strum') } : null;
  const leftHand = role === 'chords' && !ctx.roles.has('bass') && !guitar;
  const shapes = guitar ? shapesFor(ctx, instrument, voicings, bassAnchors, style) : voicings;
  // A second part playing the chords sits under the chords role: a little softer.
  const level = role === 'chords' ? 0.85 : 0.75;
  ctx.chords.forEach((slot, i) => {
    const section = at(ctx.sections, slot.section);
    if (!section.roles.has(role)) return;
    let choice = choices.get(section.label);
    if (choice === undefined) {
      choice = random.int(0, 99);
      choices.set(section.label, choice);
    }
    const velocity = sectionVelocity(ctx.spec.arousal, section.energy) * level;
    if (leftHand)
      notes.push({ beat: slot.beat, beats: slot.beats * 0.96, midi: at(bassAnchors, i), velocity: velocity * 0.9 });
    const c: Ctx = {
      ctx,
      slot,
      voicing: at(shapes, i),
      velocity,
      energy: section.energy,
      choice,
      guitar,
    };
    notes.push(...(slot.beat >= ctx.endingBeat - EPSILON ? endingHits(c) : STYLES[style](c)));
  });
  return notes;
}

/**
 * Guitar shapes kept free of parallels with the bass (or, alone, the guitar's own first note) and the pad's top,
 * judged on what the style plays of each shape.
 */
function shapesFor(
  ctx: ComposeContext,
  instrument: string,
  voicings: readonly number[][],
  bassAnchors: readonly number[],
  style: ChordStyle,
) {
  const alone = !ctx.roles.has('bass');
  const ending = (i: number) => at(ctx.chords, i).beat >= ctx.endingBeat - EPSILON;
  const chopped = style === 'stabs' || style === 'skank' || style === 'scratch';
  const played = (shape: Shape, i: number) => (chopped && !ending(i) ? shape.slice(-STAB_STRINGS) : shape);
  const picked = (i: number) => (style === 'arpeggio' || style === 'ostinato') && !ending(i);
  return guitarShapes(ctx.chords, instrument, {
    bass: ctx.chords.map((_, i) => (alone ? null : at(bassAnchors, i))),
    otherTop: ctx.chords.map((slot, i) =>
      at(ctx.sections, slot.section).roles.has('pad') ? Math.max(...at(voicings, i)) : -Infinity,
    ),
    played,
    firstNote: (shape, i) => (picked(i) ? at(shape, 0) : Math.min(...played(shape, i))),
  });
}

/** The pad: each voicing held for its whole chord, softer than the chords. */
export function composePad(ctx: ComposeContext, voicings: readonly number[][]): GridNote[] {
  return ctx.chords.flatMap((slot, i) => {
    const section = at(ctx.sections, slot.section);
    if (!section.roles.has('pad')) return [];
    const velocity = sectionVelocity(ctx.spec.arousal, section.energy) * 0.7;
    return at(voicings, i).map((midi) => ({ beat: slot.beat, beats: slot.beats * 0.99, midi, velocity }));
  });
}
