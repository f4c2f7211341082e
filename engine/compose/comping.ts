/**
 * The chords role in the preset's playing style, and the pad role that sustains the same voicings.
 * Rhythms are chosen per section label, so a repeated section is played the same way.
 */
import type { ChordStyle } from '../types.ts';
import type { Random } from '../random.ts';
import { EPSILON, sectionVelocity, type ChordSlot, type ComposeContext, type GridNote } from './model.ts';

/** A hit inside a bar: where (in fractions of the bar) and for how long (fraction of the bar). */
type Hit = [at: number, length: number];

/** Comping bars (jazz/lo-fi): syncopated, never on every beat. */
const COMP_BARS: Hit[][] = [
  [[0, 0.375], [0.375, 0.125], [0.625, 0.25]],
  [[0, 0.5], [0.625, 0.375]],
  [[0.125, 0.25], [0.5, 0.25], [0.875, 0.125]],
  [[0, 0.25], [0.375, 0.5]],
  [[0, 0.875]],
];
/** Stab rhythms in sixteenths of a bar (house/EDM). */
const STAB_BARS: number[][] = [
  [2, 6, 10, 14],
  [0, 3, 6, 10, 12],
  [3, 6, 11, 14],
  [2, 5, 8, 11, 14],
];
/** Down (D) and up (U) strums on eighths. */
const STRUMS = ['D.DU.UDU', 'D.D.D.DU', 'D..UD.DU'];

interface Ctx {
  ctx: ComposeContext;
  slot: ChordSlot;
  voicing: number[];
  velocity: number;
  energy: number;
  choice: number;
}

const slotEnd = (slot: ChordSlot) => slot.beat + slot.beats;

/**
 * The rhythm choice for the bar a chord starts in: a section's pattern alternates with a second one every
 * other bar (call and answer), the same in every repeat of the section.
 */
function barChoice(c: Ctx): number {
  const bar = Math.floor((c.slot.beat - c.ctx.sections[c.slot.section]!.beat) / c.ctx.beatsPerBar + EPSILON);
  return c.choice + (bar % 2 === 1 ? 1 + (c.choice % 2) : 0);
}

/** Onsets at the given fractions of every bar the slot covers, clipped to the slot. */
function barHits(c: Ctx, hits: readonly Hit[]): Hit[] {
  const { slot, ctx } = c;
  const bpb = ctx.beatsPerBar;
  const result: Hit[] = [];
  for (let bar = Math.floor(slot.beat / bpb + EPSILON); bar * bpb < slotEnd(slot) - EPSILON; bar++) {
    for (const [at, length] of hits) {
      const beat = bar * bpb + at * bpb;
      if (beat >= slot.beat - EPSILON && beat < slotEnd(slot) - EPSILON) result.push([beat, Math.min(length * bpb, slotEnd(slot) - beat)]);
    }
  }
  // A chord change mid-bar must still be heard where it starts.
  if (result.length === 0 || result[0]![0] > slot.beat + EPSILON) result.unshift([slot.beat, Math.min(hits[0]?.[1] ?? 1, 1) * bpb]);
  return result.map(([b, l]) => [b, Math.min(l, slotEnd(slot) - b)]);
}

function chordHits(voicing: readonly number[], hits: readonly Hit[], velocity: number, gate = 0.95): GridNote[] {
  return hits.flatMap(([beat, length], i) =>
    voicing.map((midi) => ({ beat, beats: length * gate, midi, velocity: velocity * (i === 0 ? 1 : 0.85) })));
}

const STYLES: Record<ChordStyle, (c: Ctx) => GridNote[]> = {
  block: (c) => {
    const perBar: Hit[] = c.energy >= 0.75 ? [[0, 0.5], [0.5, 0.5]] : [[0, 1]];
    return chordHits(c.voicing, barHits(c, perBar), c.velocity);
  },
  sustain: (c) => chordHits(c.voicing, [[c.slot.beat, c.slot.beats]], c.velocity * 0.9, 0.98),
  stabs: (c) => {
    const steps = STAB_BARS[barChoice(c) % STAB_BARS.length]!.filter((_, i) => c.energy >= 0.6 || i % 2 === 0);
    return chordHits(c.voicing, barHits(c, steps.map((s) => [s / 16, 0.09] as Hit)), c.velocity, 1);
  },
  comp: (c) => {
    const bar = c.energy < 0.4 ? COMP_BARS[COMP_BARS.length - 1]! : COMP_BARS[barChoice(c) % (COMP_BARS.length - 1)]!;
    return chordHits(c.voicing, barHits(c, bar), c.velocity, 0.9);
  },
  arpeggio: (c) => {
    const step = c.ctx.bpm < 90 && c.energy >= 0.6 ? 0.25 : 0.5;
    const order = [...c.voicing, ...c.voicing.slice(1, -1).reverse()];
    return broken(c, order, step, 1.8);
  },
  ostinato: (c) => {
    const step = c.ctx.bpm < 100 && c.energy >= 0.7 ? 0.25 : 0.5;
    const v = c.voicing;
    const order = [v[0]!, v[v.length - 1]!, v[1] ?? v[0]!, v[v.length - 1]!];
    return broken(c, order, step, 0.85);
  },
  strum: (c) => {
    const pattern = c.energy < 0.45 ? 'D...D...' : STRUMS[c.choice % STRUMS.length]!;
    const hits: Hit[] = [];
    [...pattern].forEach((stroke, i) => {
      if (stroke !== '.') hits.push([i / 8, 1 / 8]);
    });
    const onsets = barHits(c, hits);
    const spread = 0.012; // seconds between strings: a strum, not a block
    return onsets.flatMap(([beat], i) => {
      const next = onsets[i + 1]?.[0] ?? slotEnd(c.slot);
      const down = pattern[Math.round(((beat % c.ctx.beatsPerBar) / c.ctx.beatsPerBar) * 8)] !== 'U';
      const strings = down ? c.voicing : [...c.voicing].reverse().slice(0, 3);
      return strings.map((midi, s) => ({
        beat, beats: (next - beat) * 0.95, midi, offset: s * spread, velocity: c.velocity * (down ? 1 : 0.75) * (i === 0 ? 1 : 0.9),
      }));
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
      midi: order[i % order.length]!,
      velocity: c.velocity * (Math.abs(beat % 1) < EPSILON ? 1 : 0.8),
    });
  }
  return notes;
}

/**
 * The ending: the final tonic voicing struck, then struck again softer a bar later when there is room, so
 * the last chord fades instead of stopping.
 */
function endingHits(ctx: ComposeContext, slot: ChordSlot, voicing: readonly number[], velocity: number): GridNote[] {
  const bpb = ctx.beatsPerBar;
  if (slot.beats < bpb * 1.5) return voicing.map((midi) => ({ beat: slot.beat, beats: slot.beats, midi, velocity }));
  const second = slot.beat + bpb;
  return [
    ...voicing.map((midi) => ({ beat: slot.beat, beats: bpb, midi, velocity })),
    ...voicing.map((midi) => ({ beat: second, beats: slotEnd(slot) - second, midi, velocity: velocity * 0.6 })),
  ];
}

/**
 * The chords role. `bassAnchors` (the bass note under each chord, already kept free of parallels with the
 * voicing's top) become a left-hand root when the arrangement has no bass of its own, as a pianist or
 * guitarist playing alone would add.
 */
export function composeChords(ctx: ComposeContext, voicings: readonly number[][], bassAnchors: readonly number[], random: Random): GridNote[] {
  const choices = new Map<string, number>();
  const notes: GridNote[] = [];
  const leftHand = !ctx.roles.has('bass');
  ctx.chords.forEach((slot, i) => {
    const section = ctx.sections[slot.section]!;
    if (!section.roles.has('chords')) return;
    if (!choices.has(section.label)) choices.set(section.label, random.int(0, 99));
    const velocity = sectionVelocity(ctx.spec.arousal, section.energy) * 0.85;
    if (leftHand) notes.push({ beat: slot.beat, beats: slot.beats * 0.96, midi: bassAnchors[i]!, velocity: velocity * 0.9 });
    if (slot.beat >= ctx.endingBeat - EPSILON) {
      notes.push(...endingHits(ctx, slot, voicings[i]!, velocity));
      return;
    }
    notes.push(...STYLES[ctx.preset.chords]({ ctx, slot, voicing: voicings[i]!, velocity, energy: section.energy, choice: choices.get(section.label)! }));
  });
  return notes;
}

/** The pad: each voicing held for its whole chord, softer than the chords. */
export function composePad(ctx: ComposeContext, voicings: readonly number[][]): GridNote[] {
  return ctx.chords.flatMap((slot, i) => {
    const section = ctx.sections[slot.section]!;
    if (!section.roles.has('pad')) return [];
    const velocity = sectionVelocity(ctx.spec.arousal, section.energy) * 0.7;
    return voicings[i]!.map((midi) => ({ beat: slot.beat, beats: slot.beats * 0.99, midi, velocity }));
  });
}
