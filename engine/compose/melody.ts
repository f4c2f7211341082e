/**
 * The lead melody. Each section label gets its own motif; a section is a run of 4-bar phrases built from
 * the motif, its varied repeat and a cadential ending (see formOf). Pitches are realized against the
 * sounding chord: strong beats and long notes land on chord tones, everything else moves by steps in the
 * chord's scale, inside the preset's range, and a leap is answered by a step back. The piece's last note
 * is the tonic, held over the final chord.
 */
import { at } from '../checked.ts';
import type { Random } from '../random.ts';
import { mod } from '../theory/pitch.ts';
import { chordScale } from '../theory/scales.ts';
import { cadentialMotif, makeMotif, varyMotif, type Motif } from './motif.ts';
import {
  EPSILON,
  chordAt,
  clamp,
  isStrongBeat,
  sectionVelocity,
  type ComposeContext,
  type GridNote,
  type PlannedSection,
} from './model.ts';

/** The blues scale over the tonic: minor pentatonic with its flat fifth. */
const BLUES_SCALE = [0, 3, 5, 6, 7, 10];

interface LabelMaterial {
  motif: Motif;
  variant: Motif;
  cadence: Motif;
  /** The register centre: higher for louder sections, so a chorus sits above its verse. */
  center: number;
}

/** Index of the scale tone nearest to `midi` in a sorted pitch-class list, as an absolute "scale position". */
export function moveInScale(midi: number, steps: number, tones: readonly number[]): number {
  // Snap to the nearest tone of the scale first (the chord may have changed under the previous note).
  let current = midi;
  for (let d = 0; d < 12; d++) {
    if (tones.includes(mod(midi - d, 12))) {
      current = midi - d;
      break;
    }
    if (tones.includes(mod(midi + d, 12))) {
      current = midi + d;
      break;
    }
  }
  let remaining = steps;
  while (remaining !== 0) {
    const dir = Math.sign(remaining);
    do current += dir;
    while (!tones.includes(mod(current, 12)));
    remaining -= dir;
  }
  return current;
}

/** The chord tone nearest to `midi`; ties go in `direction`. */
export function nearestChordTone(midi: number, chordPcs: readonly number[], direction: number): number {
  for (let d = 0; d < 12; d++) {
    const first = direction >= 0 ? midi + d : midi - d;
    const second = direction >= 0 ? midi - d : midi + d;
    if (chordPcs.includes(mod(first, 12))) return first;
    if (chordPcs.includes(mod(second, 12))) return second;
  }
  return midi;
}

function materialFor(ctx: ComposeContext, section: PlannedSection, motifBeats: number, random: Random): LabelMaterial {
  const { low, high, density: presetDensity } = ctx.preset.melody;
  const density = clamp(presetDensity * (0.55 + 0.6 * section.energy) * (0.6 + 0.8 * ctx.spec.density), 0.05, 1);
  const motif = makeMotif(random, motifBeats, density, ctx.bpm >= 115);
  return {
    motif,
    variant: varyMotif(motif, random),
    cadence: cadentialMotif(motif, ctx.beatsPerBar),
    // Brighter, livelier moods sing a little higher (reference study 2.3: register rises with arousal and valence).
    center: Math.round(
      clamp(
        low + (0.3 + 0.3 * section.energy) * (high - low) + 1.5 * ctx.spec.arousal + 1.5 * ctx.spec.valence,
        low + 4,
        high - 4,
      ),
    ),
  };
}

/** The member of `pcs` nearest to `midi` that lies inside [low, high]. */
export function inRange(midi: number, pcs: readonly number[], low: number, high: number): number {
  let pitch = midi;
  while (pitch > high) pitch -= 12;
  while (pitch < low) pitch += 12;
  if (pitch <= high) return pitch;
  // The range is narrower than an octave around this pitch class: take the nearest member inside it.
  for (let p = high; p >= low; p--) if (pcs.includes(mod(p, 12))) return p;
  return midi;
}

/**
 * After a leap (more than 4 semitones) the line turns back by a small interval (Huron's post-skip
 * reversal): the nearest allowed tone 1–5 semitones the other way, or null when there is none.
 */
function reversal(previous: number, leap: number, pcs: readonly number[]): number | null {
  const direction = -Math.sign(leap);
  for (let d = 1; d <= 5; d++) if (pcs.includes(mod(previous + direction * d, 12))) return previous + direction * d;
  return null;
}

interface LineState {
  /** The last pitch played and the interval that reached it (0 at the start). */
  previous: number | null;
  lastInterval: number;
}

/** Realizes one motif instance starting at `origin`. */
function realize(
  ctx: ComposeContext,
  motif: Motif,
  origin: number,
  material: LabelMaterial,
  limit: number,
  velocity: number,
  line: LineState,
  ending: PhraseEnding,
): GridNote[] {
  const { low, high, blue } = ctx.preset.melody;
  const notes: GridNote[] = [];
  let previous = line.previous ?? material.center;
  const blues = blue ? BLUES_SCALE.map((interval) => mod(ctx.tonic + interval, 12)) : null;
  motif.notes.forEach((note, i) => {
    const beat = origin + note.at;
    if (beat >= limit - EPSILON) return;
    const chord = chordAt(ctx.chords, beat).chord;
    const tones = blues ?? chordScale(ctx.scale, chord.pitchClasses);
    const landing = isStrongBeat(beat, ctx.beatsPerBar) || note.beats >= 1.5 || i === motif.notes.length - 1;
    const allowed = landing ? chord.pitchClasses : tones;
    const reversed =
      Math.abs(line.lastInterval) > 4 && line.previous !== null
        ? reversal(line.previous, line.lastInterval, allowed)
        : null;
    let pitch: number;
    if (i === 0 && line.previous === null) {
      // A section's first statement starts from the label's register centre, so repeats of a section match.
      const pc = at(chord.pitchClasses, Math.min(motif.startTone, chord.pitchClasses.length - 1));
      pitch = nearestChordTone(material.center, [pc], 1);
    } else if (reversed !== null) {
      pitch = reversed;
    } else if (i === 0 && line.previous !== null) {
      // Later statements pick up near where the last one ended, drawn a little toward the centre.
      pitch = nearestChordTone(
        Math.round(line.previous + (material.center - line.previous) * 0.3),
        chord.pitchClasses,
        0,
      );
    } else {
      pitch = moveInScale(previous, note.step, tones);
      // Out of range: take the step the other way instead (the contour reflects off the edge).
      if (pitch > high || pitch < low) pitch = moveInScale(previous, -note.step, tones);
    }
    if (landing) pitch = nearestChordTone(pitch, chord.pitchClasses, note.step);
    // A phrase that ends on a chord holding the tonic ends on the tonic itself when it is near: the key is
    // confirmed. An open phrase (the antecedent) that ends on the tonic chord rests on its third instead, as
    // a question does; the third is what tells minor from major.
    if (i === motif.notes.length - 1 && chord.pitchClasses.includes(ctx.tonic)) {
      const goal = ending === 'open' && chord.root === ctx.tonic ? at(chord.pitchClasses, 1) : ctx.tonic;
      const home = nearestChordTone(pitch, [goal], -1);
      if (Math.abs(home - pitch) <= 4) pitch = home;
    }
    pitch = inRange(pitch, allowed, low, high);
    const accent = isStrongBeat(beat, ctx.beatsPerBar) ? 1 : 0.86;
    notes.push({
      beat,
      beats: Math.min(note.beats, limit - beat),
      midi: pitch,
      velocity: clamp(velocity * accent * (1 + (pitch - material.center) / 60), 0.05, 1),
    });
    line.lastInterval = line.previous === null ? 0 : pitch - line.previous;
    line.previous = pitch;
    previous = pitch;
  });
  return notes;
}

/** How a statement ends: closing a phrase pair (the consequent), leaving it open (the antecedent), or inside a phrase. */
type PhraseEnding = 'closed' | 'open' | null;

/**
 * Which form of the motif plays as statement `j` of `count`: statement, varied repeat, statement, and a
 * cadence to close every second phrase and the section (an antecedent-consequent pair of phrases).
 */
function formOf(
  material: LabelMaterial,
  j: number,
  count: number,
  perPhrase: number,
): { motif: Motif; ending: PhraseEnding } {
  if (j === count - 1) return { motif: material.cadence, ending: 'closed' };
  const inPhrase = j % perPhrase;
  const phrase = Math.floor(j / perPhrase);
  if (inPhrase === perPhrase - 1)
    return phrase % 2 === 1
      ? { motif: material.cadence, ending: 'closed' }
      : { motif: material.variant, ending: 'open' };
  return { motif: inPhrase % 2 === 1 ? material.variant : material.motif, ending: null };
}

export function composeMelody(ctx: ComposeContext, random: Random): GridNote[] {
  const bpb = ctx.beatsPerBar;
  const motifBars = ctx.bpm < 75 ? 1 : 2;
  const materials = new Map<string, LabelMaterial>();
  const notes: GridNote[] = [];
  for (const section of ctx.sections) {
    if (!section.roles.has('lead')) continue;
    // The line restarts with each section: a repeated section is then realized exactly as before.
    const line: LineState = { previous: null, lastInterval: 0 };
    const motifBeats = Math.min(motifBars * bpb, Math.max(bpb, Math.floor(section.bars) * bpb));
    let material = materials.get(section.label);
    if (material === undefined) {
      material = materialFor(ctx, section, motifBeats, random.fork(section.label));
      materials.set(section.label, material);
    }
    const limit = Math.min(section.beat + section.beats, ctx.endingBeat);
    const count = Math.max(1, Math.ceil((limit - section.beat) / material.motif.beats - EPSILON));
    const perPhrase = Math.max(2, Math.round((4 * bpb) / material.motif.beats));
    const velocity = sectionVelocity(ctx.spec.arousal, section.energy);
    for (let j = 0; j < count; j++) {
      const origin = section.beat + j * material.motif.beats;
      if (origin >= limit - EPSILON) break;
      const { motif, ending } = formOf(material, j, count, perPhrase);
      notes.push(...realize(ctx, motif, origin, material, limit, velocity, line, ending));
    }
  }
  // Monophonic line: a note stops where the next begins. Short notes are detached when the mood is lively
  // and stay legato when it is calm (articulation follows arousal).
  const gate = ctx.spec.arousal > 0.3 ? 0.8 : ctx.spec.arousal > -0.2 ? 0.92 : 1;
  for (let i = 0; i + 1 < notes.length; i++) {
    const note = at(notes, i);
    note.beats = Math.min(note.beats, at(notes, i + 1).beat - note.beat);
    if (note.beats < 1.5) note.beats *= gate;
  }
  return withFinalTonic(ctx, notes);
}

/** The last note of the piece: the tonic nearest to where the line was, held over the final chord. */
function withFinalTonic(ctx: ComposeContext, notes: GridNote[]): GridNote[] {
  const kept = notes.filter((n) => n.beat < ctx.endingBeat - EPSILON);
  const { low, high } = ctx.preset.melody;
  const last = kept[kept.length - 1];
  let pitch = nearestChordTone(last?.midi ?? Math.round((low + high) / 2), [ctx.tonic], -1);
  while (pitch > high) pitch -= 12;
  while (pitch < low) pitch += 12;
  const final = at(ctx.sections, ctx.sections.length - 1);
  // A plan's last section that leaves the lead out means it: no held tonic from an instrument asked to rest.
  // (Template forms keep their final note as before, so their tracks stay byte for byte what they were.)
  if (final.planKind !== undefined && !final.roles.has('lead')) return kept;
  const velocity = sectionVelocity(ctx.spec.arousal, final.energy) * 0.9;
  kept.push({ beat: ctx.endingBeat, beats: ctx.totalBeats - ctx.endingBeat, midi: pitch, velocity });
  return kept;
}
