/**
 * Places every note of the score into the mix buses in plain TypeScript: prerendered samples are resampled to
 * the note's pitch, cut at its end with a release fade, scaled by velocity and part gain, panned, and copied to
 * the reverb and delay sends. Doing this outside the audio graph avoids one source node per note.
 */
import type { Drum, Note, Part, Role, Score } from '../types.ts';
import { DRUM_MIDI } from '../types.ts';
import { createRandom } from '../random.ts';
import { SAMPLE_RATE } from './constants.ts';
import { noteNeed, prerenderKit, prerenderPitched } from './prerender.ts';
import { unrolled } from './loop.ts';
import {
  SAMPLED_INSTRUMENTS,
  SAMPLED_KITS,
  type SampledInstrument,
  type SampledInstrumentName,
  type SampledKit,
  type SampledKitName,
} from './sampled/catalogue.ts';
import { playSampled, playSampledKit, type PlayedNote } from './sampled/notes.ts';
import { UnknownInstrumentError } from '../errors.ts';
import * as checked from '../checked.ts';
import { pitchClassOf } from '../theory/pitch.ts';
import { PITCHED_PATCHES, type PitchedPatch } from './patches/index.ts';
import { KITS } from './drums/kits.ts';
import { isTexture, renderTexture, type Texture } from './textures.ts';
import { stagePlace } from './stage.ts';
import { GroupRouter, groupRank, type Stereo } from './groups.ts';
import { delaySendOf, type StemBuses, type StemSet } from './stems.ts';
import { padHit, treatNotes } from './tone.ts';

export interface MixBuses {
  left: Float32Array;
  right: Float32Array;
  /** Mono sends. */
  reverb: Float32Array;
  delay: Float32Array;
  /**
   * Where notes are written while mixing: the submix of the current part's group (EQ and compression, groups.ts),
   * or left/right themselves. After mixScore it is left/right again.
   */
  dry: Stereo;
}

/** Default level of each role in dB, before Part.gainDb. */
// Balanced by measuring each role's RMS over the presets' own arrangements (drums sat 12 dB over the rest).
const ROLE_GAIN_DB: Record<Role, number> = {
  drums: -6,
  bass: 1,
  chords: -4,
  pad: -8,
  lead: -1,
  arp: -6,
  texture: -22,
  vocal: 0,
};
/** Reverb send per role, multiplied by spec.effects.reverb. */
const ROLE_REVERB: Record<Role, number> = {
  drums: 0.12,
  bass: 0.02,
  chords: 0.55,
  pad: 0.8,
  lead: 0.5,
  arp: 0.55,
  texture: 0.25,
  vocal: 0.45,
};
/** Delay send per role, multiplied by spec.effects.delay. */
const ROLE_DELAY: Record<Role, number> = {
  drums: 0,
  bass: 0,
  chords: 0.2,
  pad: 0.1,
  lead: 0.8,
  arp: 0.6,
  texture: 0,
  vocal: 0.4,
};
/** Roles whose notes are spread across the stereo field by pitch (a wide keyboard or section). */
const SPREAD_ROLES: ReadonlySet<Role> = new Set(['chords', 'pad', 'arp']);
const MIDI_TO_DRUM = new Map<number, Drum>([
  ...Object.entries(DRUM_MIDI).map(([drum, midi]) => [midi, drum as Drum] as const),
  [35, 'kick'],
  [40, 'snare'],
  [44, 'hat'],
  [41, 'tomLow'],
  [43, 'tomLow'],
  [47, 'tomHigh'],
  [48, 'tomHigh'],
  [57, 'crash'],
  [52, 'crash'],
  [55, 'crash'],
  [59, 'ride'],
  [53, 'ride'],
  [69, 'shaker'],
  [54, 'shaker'],
  [82, 'shaker'],
]);

export function drumOf(midi: number): Drum {
  return MIDI_TO_DRUM.get(midi) ?? 'rim';
}

type Kind =
  | { kind: 'pitched'; patch: PitchedPatch }
  | { kind: 'sampled'; instrument: SampledInstrument }
  | { kind: 'kit'; name: string }
  | { kind: 'sampledKit'; kit: SampledKit }
  | { kind: 'texture'; texture: Texture };

/**
 * What a part's instrument name resolves to. A name nothing can play is an error, never a stand-in: presets
 * and the lexicon are validated against PATCHES, and every name there must resolve here (a test checks).
 */
export function resolveInstrument(part: Pick<Part, 'role' | 'instrument'>): Kind {
  const name = part.instrument;
  if (part.role === 'drums') {
    if (Object.hasOwn(SAMPLED_KITS, name)) return { kind: 'sampledKit', kit: SAMPLED_KITS[name as SampledKitName] };
    if (KITS[name]) return { kind: 'kit', name };
  } else {
    if (Object.hasOwn(SAMPLED_INSTRUMENTS, name))
      return { kind: 'sampled', instrument: SAMPLED_INSTRUMENTS[name as SampledInstrumentName] };
    const pitched = PITCHED_PATCHES[name];
    if (pitched) return { kind: 'pitched', patch: pitched };
    if (isTexture(name)) return { kind: 'texture', texture: name };
  }
  throw new UnknownInstrumentError(name, part.role);
}

interface Placement {
  gainLeft: number;
  gainRight: number;
  reverb: number;
  delay: number;
}

function placement(part: Part, score: Score, pan: number): Placement {
  const gain = 10 ** ((ROLE_GAIN_DB[part.role] + part.gainDb) / 20);
  const stage = stagePlace(part, score);
  const angle = ((Math.max(-1, Math.min(1, pan + stage.pan)) + 1) * Math.PI) / 4;
  const { effects } = score.spec;
  return {
    gainLeft: gain * Math.cos(angle) * Math.SQRT2,
    gainRight: gain * Math.sin(angle) * Math.SQRT2,
    reverb: gain * (stage.reverb ?? ROLE_REVERB[part.role]) * effects.reverb,
    delay: gain * ROLE_DELAY[part.role] * effects.delay,
  };
}

/** Where a note is written: stereo dry and mono sends (the delay send only when the note sends to it). */
interface NoteTarget {
  left: Float32Array;
  right: Float32Array;
  reverb: Float32Array;
  delay: Float32Array | null;
}

function mixTarget(buses: MixBuses): NoteTarget {
  return { left: buses.dry.left, right: buses.dry.right, reverb: buses.reverb, delay: buses.delay };
}

function stemTarget(stem: StemBuses, at: Placement): NoteTarget {
  return { left: stem.left, right: stem.right, reverb: stem.reverb, delay: at.delay !== 0 ? delaySendOf(stem) : null };
}

/** Seconds an 808's glide takes to reach the note's pitch. */
const GLIDE_SECONDS = 0.09;

/**
 * Adds a sample (resampled by `ratio`, cut at `holdFrames` with a `releaseFrames` fade, times `gain`) at
 * frame `start`, into both channels and the sends. A note with a `glide` starts that many semitones away and
 * slides into its pitch.
 */
function addNote(target: NoteTarget, note: PlayedNote, start: number, gain: number, at: Placement, glide = 0): void {
  if (glide !== 0) {
    addGlidingNote(target, note, start, gain, at, glide);
    return;
  }
  const { sample, ratio, holdFrames, releaseFrames } = note;
  const frames = target.left.length;
  const total = holdFrames + releaseFrames;
  const { left, right, reverb } = target;
  const delay = target.delay ?? target.reverb;
  const length = sample.length;
  const gl = at.gainLeft * gain,
    gr = at.gainRight * gain,
    gv = at.reverb * gain,
    gd = at.delay * gain;
  const sendDelay = gd !== 0 && target.delay !== null;
  const end = Math.min(total, frames - start);
  for (let j = Math.max(0, -start); j < end; j++) {
    const index = start + j;
    const position = j * ratio;
    const i0 = position | 0;
    if (i0 + 1 >= length) break;
    const a = sample[i0] ?? 0;
    let value = a + ((sample[i0 + 1] ?? 0) - a) * (position - i0);
    if (j >= holdFrames) {
      // Quadratic release: smooth to zero, quicker than linear at the start like a damper.
      const remaining = 1 - (j - holdFrames) / releaseFrames;
      value *= remaining * remaining;
    }
    left[index] = (left[index] ?? 0) + value * gl;
    right[index] = (right[index] ?? 0) + value * gr;
    reverb[index] = (reverb[index] ?? 0) + value * gv;
    if (sendDelay) delay[index] = (delay[index] ?? 0) + value * gd;
  }
}

/** addNote for a note sliding in from `glide` semitones away: the read position advances at a changing rate. */
function addGlidingNote(
  target: NoteTarget,
  note: PlayedNote,
  start: number,
  gain: number,
  at: Placement,
  glide: number,
): void {
  const { sample, ratio, holdFrames, releaseFrames } = note;
  const frames = target.left.length;
  const end = Math.min(holdFrames + releaseFrames, frames - start);
  const glideFrames = Math.min(Math.round(GLIDE_SECONDS * SAMPLE_RATE), holdFrames);
  const { left, right, reverb } = target;
  const delay = target.delay;
  const gl = at.gainLeft * gain,
    gr = at.gainRight * gain,
    gv = at.reverb * gain,
    gd = at.delay * gain;
  let position = 0;
  for (let j = 0; j < end; j++) {
    const i0 = position | 0;
    if (i0 + 1 >= sample.length) break;
    const a = sample[i0] ?? 0;
    let value = a + ((sample[i0 + 1] ?? 0) - a) * (position - i0);
    // The pitch moves linearly in semitones, quickest at the start as an 808's portamento does.
    const away = j < glideFrames ? (1 - j / glideFrames) ** 2 : 0;
    position += away > 0 ? ratio * 2 ** ((glide * away) / 12) : ratio;
    if (j >= holdFrames) {
      const remaining = 1 - (j - holdFrames) / releaseFrames;
      value *= remaining * remaining;
    }
    const index = start + j;
    if (index < 0) continue;
    left[index] = (left[index] ?? 0) + value * gl;
    right[index] = (right[index] ?? 0) + value * gr;
    reverb[index] = (reverb[index] ?? 0) + value * gv;
    if (delay && gd !== 0) delay[index] = (delay[index] ?? 0) + value * gd;
  }
}

/** Velocity to amplitude: a gentle curve so soft notes stay audible. */
function velocityGain(velocity: number): number {
  return 0.15 + 0.85 * Math.max(0, Math.min(1, velocity)) ** 1.3;
}

/** Cymbals and hats sit a little off-centre, like a drum kit seen from the audience. */
const DRUM_PAN: Partial<Record<Drum, number>> = {
  hat: 0.25,
  openHat: 0.25,
  ride: -0.3,
  crash: -0.2,
  tomHigh: 0.2,
  tomLow: -0.25,
  shaker: 0.35,
};

/** Places a part's played notes: pitched parts spread by pitch where the role is wide, drums by the drum. */
function placeNotes(
  buses: MixBuses,
  part: Part,
  score: Score,
  played: readonly PlayedNote[],
  stem: StemBuses | null,
): void {
  const spread = SPREAD_ROLES.has(part.role) ? 0.5 : 0;
  // A treated part replays treated samples (tone.ts), into the mix and its stem alike.
  const notes = part.tone ? treatNotes(played, part.tone) : played;
  const target = mixTarget(buses);
  const drums = part.role === 'drums';
  part.notes.forEach((note, index) => {
    const pan = drums
      ? part.pan + (DRUM_PAN[drumOf(note.midi)] ?? 0)
      : part.pan + spread * ((note.midi % 12) / 11 - 0.5);
    const one = drums ? padHit(checked.at(notes, index), part.tone, drumOf(note.midi)) : checked.at(notes, index);
    const start = Math.round(note.time * SAMPLE_RATE),
      gain = velocityGain(note.velocity) * one.gain,
      at = placement(part, score, pan);
    addNote(target, one, start, gain, at, note.glide);
    if (stem) addNote(stemTarget(stem, at), one, start, gain, at, note.glide);
  });
}

/** A synthesized patch's notes: prerendered roots (prerender.ts), replayed at each note's pitch. */
async function playPitched(part: Part, patch: PitchedPatch, score: Score): Promise<PlayedNote[]> {
  // The random stream keeps its historical name: renamed, every seed would sound different.
  const samples = await prerenderPitched(patch, part.notes, createRandom(score.spec.seed, `voice/${part.instrument}`));
  const releaseFrames = Math.max(1, Math.round(patch.release * SAMPLE_RATE));
  const needs = part.notes.map((note) => noteNeed(note, patch));
  // Frames each root must provide, its loop unrolled that far once rather than wrapped per sample per note
  // (a glide from above reads faster while it slides).
  const longest = new Map<number, number>();
  needs.forEach((need, i) => {
    const glide = Math.max(0, checked.at(part.notes, i).glide ?? 0);
    const frames =
      Math.ceil(
        (need.hold + patch.release) * need.ratio * SAMPLE_RATE + GLIDE_SECONDS * SAMPLE_RATE * (2 ** (glide / 12) - 1),
      ) + 2;
    longest.set(need.root, Math.max(longest.get(need.root) ?? 0, frames));
  });
  const ready = new Map([...samples].map(([root, sample]) => [root, unrolled(sample, longest.get(root) ?? 0)]));
  return needs.map((need) => ({
    sample: checked.defined(ready.get(need.root), `the prerendered root ${need.root}`),
    ratio: need.ratio,
    holdFrames: Math.round(need.hold * SAMPLE_RATE),
    releaseFrames,
    gain: 1,
  }));
}

/** A synthesized kit's hits: one prerendered hit per drum, velocity as gain. */
async function playKit(part: Part, kitName: string, score: Score): Promise<PlayedNote[]> {
  const kit = checked.defined(KITS[kitName], `the kit ${kitName}`);
  const samples = await prerenderKit(
    kit,
    new Set(part.notes.map((note) => drumOf(note.midi))),
    createRandom(score.spec.seed, `kit/${kitName}`),
  );
  return part.notes.map((note) => {
    const sample = checked.defined(samples.get(drumOf(note.midi)), `the prerendered ${drumOf(note.midi)}`);
    return { sample, ratio: 1, holdFrames: sample.length, releaseFrames: 0, gain: 1 };
  });
}

/** Beds are generated this long and tiled (with a crossfade), like an ambience loop: their cost stops growing with the track. */
const BED_SECONDS = 24;
const BED_CROSSFADE_SECONDS = 1;
/** A bed's fade in and out where its part starts and stops. */
const BED_FADE_SECONDS = 1;
/** A bed ending this close to a loop's end plays to the end (the composer stops notes a little early). */
const LOOP_END_REACH_SECONDS = 0.1;

/**
 * A bed plays where the part has notes (fading in and out over a second), or all along if it has none. In a
 * seamless loop a bed that plays to the end goes on past it by its fade, so its fade-out, carried round onto
 * the start, crosses the fade-in there instead of leaving a hole at the seam.
 */
function mixTexture(buses: MixBuses, part: Part, texture: Texture, score: Score, stem: StemBuses | null): void {
  const frames = buses.left.length;
  const bedFrames = Math.min(frames, BED_SECONDS * SAMPLE_RATE);
  const bed = renderTexture(texture, createRandom(score.spec.seed, `texture/${texture}`), bedFrames, SAMPLE_RATE);
  const crossfade = Math.min(BED_CROSSFADE_SECONDS * SAMPLE_RATE, Math.floor(bedFrames / 4));
  // Tiling period: the last `crossfade` frames of each repeat fade out while the next repeat fades in.
  const period = bedFrames - crossfade;
  const sampleAt = (channel: Float32Array, i: number): number => {
    if (bedFrames === frames) return channel[i] ?? 0;
    const offset = i % period;
    if (offset >= crossfade || i < period) return channel[offset] ?? 0;
    const x = offset / crossfade;
    return (channel[offset] ?? 0) * Math.sqrt(x) + (channel[offset + period] ?? 0) * Math.sqrt(1 - x);
  };
  const spans: Note[] =
    part.notes.length > 0 ? part.notes : [{ time: 0, duration: score.duration, midi: 60, velocity: 0.8, beat: 0 }];
  const at = placement(part, score, part.pan);
  const fade = BED_FADE_SECONDS * SAMPLE_RATE;
  for (const span of spans) {
    const start = Math.max(0, Math.round(span.time * SAMPLE_RATE));
    const toEnd = score.spec.loop === true && span.time + span.duration >= score.duration - LOOP_END_REACH_SECONDS;
    const end = Math.min(
      frames,
      Math.round((span.time + span.duration + (toEnd ? BED_FADE_SECONDS : 0)) * SAMPLE_RATE),
    );
    const gain = velocityGain(span.velocity);
    for (let i = start; i < end; i++) {
      const envelope = Math.min(1, (i - start) / fade, (end - i) / fade) * gain;
      const l = sampleAt(bed.left, i) * envelope,
        r = sampleAt(bed.right, i) * envelope;
      buses.left[i] = (buses.left[i] ?? 0) + l * at.gainLeft;
      buses.right[i] = (buses.right[i] ?? 0) + r * at.gainRight;
      buses.reverb[i] = (buses.reverb[i] ?? 0) + (l + r) * 0.5 * at.reverb;
      if (stem) {
        stem.left[i] = (stem.left[i] ?? 0) + l * at.gainLeft;
        stem.right[i] = (stem.right[i] ?? 0) + r * at.gainRight;
        stem.reverb[i] = (stem.reverb[i] ?? 0) + (l + r) * 0.5 * at.reverb;
      }
    }
  }
}

/** A part added by the effects settings (rain bed, lo-fi vinyl) rather than by the composer. */
function effectBed(role: Role, instrument: string, gainDb: number): Part {
  return { role, instrument, notes: [], gainDb, pan: 0 };
}

function play(kind: Exclude<Kind, { kind: 'texture' }>, part: Part, score: Score): Promise<PlayedNote[]> {
  switch (kind.kind) {
    case 'sampled':
      return playSampled(kind.instrument, part.notes);
    case 'sampledKit':
      return playSampledKit(
        kind.kit,
        part.notes,
        createRandom(score.spec.seed, `kit/${part.instrument}`),
        pitchClassOf(score.spec.key.tonic),
      );
    case 'pitched':
      return playPitched(part, kind.patch, score);
    case 'kit':
      return playKit(part, kind.name, score);
  }
}

/**
 * All parts of the score plus effect beds, mixed into stereo dry buses and mono sends; with `stems`, also into
 * each role's stem (the mix is the same either way).
 */
export async function mixScore(
  score: Score,
  frames: number,
  onPart?: (done: number, total: number) => void,
  stems: StemSet | null = null,
): Promise<MixBuses> {
  const left = new Float32Array(frames),
    right = new Float32Array(frames);
  const buses: MixBuses = {
    left,
    right,
    reverb: new Float32Array(frames),
    delay: new Float32Array(frames),
    dry: { left, right },
  };
  const parts = [...score.parts];
  const textures = new Set(parts.filter((part) => part.role === 'texture').map((part) => part.instrument));
  if (score.spec.effects.rain && !textures.has('rain')) parts.push(effectBed('texture', 'rain', 2));
  if (score.spec.effects.lofi && !textures.has('vinyl')) parts.push(effectBed('texture', 'vinyl', -2));
  // Group by group, so each group's submix is complete when its EQ and compressor run.
  parts.sort((a, b) => groupRank(a.role) - groupRank(b.role));
  // A group's stems are finished once it is: they wait on disk, their reverb sends decimated (stems.ts finish).
  const groups = new GroupRouter(buses, score, stems, (finished) => stems?.finish(finished));
  for (const [index, part] of parts.entries()) {
    // The voice is sung and mixed by vocal.ts; its part exists for the MIDI file.
    if (part.role === 'vocal') continue;
    groups.enter(part.role);
    const kind = resolveInstrument(part);
    const stem = stems && (kind.kind === 'texture' || part.notes.length > 0) ? stems.of(part.role) : null;
    if (kind.kind === 'texture') mixTexture(buses, part, kind.texture, score, stem);
    else if (part.notes.length > 0) placeNotes(buses, part, score, await play(kind, part, score), stem);
    onPart?.(index + 1, parts.length);
  }
  groups.finish();
  return buses;
}
