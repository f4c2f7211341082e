/**
 * Prerendered patches (the generative.fm technique). Playing every note through live Tone synths costs CPU for
 * every note-second and node-web-audio-api keeps finished nodes alive until garbage collection, so a 60 s track
 * took ~20 s. Instead each patch renders a few root notes ONCE (every ROOT_SPACING semitones, held as long as the
 * longest note needs) and the mixer replays them resampled to each note's pitch, like a sampler.
 */
import type { Drum, Note } from '../types.ts';
import { DRUMS } from '../types.ts';
import type { Random } from '../random.ts';
import { at, defined } from '../checked.ts';
import { SAMPLE_RATE } from './constants.ts';
import { whiteNoise } from './noise.ts';
import { rmsOf } from './filters.ts';
import { renderWithTone } from './tone-render.ts';
import type { PitchedPatch } from './patches/types.ts';
import type { ToneAudioBuffer } from 'tone';
import type { Kit } from './drums/kits.ts';
import type { ToneLib } from './globals.ts';
import { withLoop, type RootSample } from './loop.ts';

export type { RootSample } from './loop.ts';

/** Roots every major third: resampling moves a root at most two semitones, which keeps timbre natural. */
export const ROOT_SPACING = 4;
/**
 * Looping patches: the stretch [loopStart, loopStart + LOOP_SECONDS) of a sample repeats, crossfaded over
 * LOOP_FADE_SECONDS, so a held note never needs more than loopStart + LOOP + FADE seconds of prerender.
 */
export const LOOP_SECONDS = 0.8;
export const LOOP_FADE_SECONDS = 0.25;
const DEFAULT_LOOP_START = 1.4;

function loopStartOf(patch: PitchedPatch): number {
  return patch.loopStart ?? DEFAULT_LOOP_START;
}
/** Longest note the mixer plays (seconds); a safety bound for malformed scores. */
const MAX_NOTE_SECONDS = 60;

const TARGET_RMS = 0.1;

export function rootOf(midi: number): number {
  return Math.round(midi / ROOT_SPACING) * ROOT_SPACING;
}

export function frequencyOf(midi: number): number {
  return 440 * 2 ** ((midi - 69) / 12);
}

/**
 * How a note uses its root: the resampling ratio, how long it is held (bounded by a decaying patch's natural
 * length) and how many seconds of the root's sample must be rendered for it.
 */
export function noteNeed(
  note: Note,
  patch: PitchedPatch,
): { root: number; ratio: number; hold: number; seconds: number } {
  const root = rootOf(note.midi);
  const ratio = 2 ** ((note.midi - root) / 12);
  const limit = patch.hold === 'loop' ? MAX_NOTE_SECONDS : patch.hold;
  const hold = Math.min(Math.max(note.duration, 0.02), limit);
  const full = (hold + patch.release) * ratio + 0.01;
  const seconds = patch.hold === 'loop' ? Math.min(full, loopStartOf(patch) + LOOP_SECONDS + LOOP_FADE_SECONDS) : full;
  return { root, ratio, hold, seconds };
}

/** Silence between roots in the prerender, longer than any patch's own (short) release. */
const SLOT_GAP_SECONDS = 0.2;

function noiseBuffer(Tone: ToneLib, random: Random, seconds = 3): ToneAudioBuffer {
  return new Tone.ToneAudioBuffer().fromArray(whiteNoise(random, Math.ceil(seconds * SAMPLE_RATE)));
}

/** Renders one sample per root used by `notes`, level-calibrated so patches sit at comparable loudness. */
export async function prerenderPitched(
  patch: PitchedPatch,
  notes: readonly Note[],
  random: Random,
): Promise<Map<number, RootSample>> {
  const needs = new Map<number, number>();
  for (const note of notes) {
    const { root, seconds } = noteNeed(note, patch);
    needs.set(root, Math.max(needs.get(root) ?? 0, seconds));
  }
  // One instance plays the roots one after another: building a Tone instrument costs tens of milliseconds of
  // JavaScript, more than rendering a few seconds of it, so one instance per patch is the cheapest layout.
  const roots = [...needs].sort(([a], [b]) => a - b);
  const slots: { root: number; start: number; seconds: number }[] = [];
  let cursor = 0.01;
  for (const [root, seconds] of roots) {
    slots.push({ root, start: cursor, seconds });
    cursor += seconds + SLOT_GAP_SECONDS;
  }
  const [rendered] = await renderWithTone(cursor, 1, (Tone, [output]) => {
    const instance = patch.build({
      Tone,
      output: defined(output, "the render's output"),
      noise: noiseBuffer(Tone, random),
    });
    for (const slot of slots) {
      instance.start(frequencyOf(slot.root), slot.start);
      instance.stop(slot.start + slot.seconds);
    }
  });
  const data = defined(rendered, 'the rendered channel');
  const byRoot = new Map<number, Float32Array>();
  for (const slot of slots) {
    const from = Math.round(slot.start * SAMPLE_RATE);
    byRoot.set(slot.root, data.slice(from, from + Math.ceil(slot.seconds * SAMPLE_RATE)));
  }
  const levels = [...byRoot.values()]
    .map((data) => rmsOf(data.subarray(0, Math.round(0.5 * SAMPLE_RATE))))
    .filter((level) => level > 1e-6);
  const mean = levels.reduce((sum, level) => sum + level, 0) / Math.max(1, levels.length);
  const scale = mean > 0 ? (TARGET_RMS / mean) * 10 ** (patch.trimDb / 20) : 1;
  const samples = new Map<number, RootSample>();
  for (const [root, data] of byRoot) {
    for (let i = 0; i < data.length; i++) data[i] = (data[i] ?? 0) * scale;
    samples.set(
      root,
      patch.hold === 'loop'
        ? withLoop(data, { start: loopStartOf(patch), seconds: LOOP_SECONDS, fade: LOOP_FADE_SECONDS })
        : { data, loop: null },
    );
  }
  return samples;
}

/**
 * Renders one hit of every used drum of a kit, side by side in one multi-channel context (one channel per
 * drum): one context instead of eleven, and each hit is a single trigger, so no finished nodes pile up.
 * Velocity becomes gain in the mixer.
 */
export async function prerenderKit(
  kit: Kit,
  drums: ReadonlySet<Drum>,
  random: Random,
): Promise<Map<Drum, Float32Array>> {
  const used = DRUMS.filter((drum) => drums.has(drum));
  const samples = new Map<Drum, Float32Array>();
  if (used.length === 0) return samples;
  const seconds = Math.max(...used.map((drum) => kit[drum].length));
  const rendered = await renderWithTone(seconds, used.length, (Tone, outputs) => {
    const noise = noiseBuffer(Tone, random);
    for (const [channel, drum] of used.entries()) kit[drum].hit({ Tone, output: at(outputs, channel), noise }, 0, 1);
  });
  used.forEach((drum, channel) => {
    const sound = kit[drum];
    const data = at(rendered, channel).slice(0, Math.ceil(sound.length * SAMPLE_RATE));
    // A short fade-out: the hit's own tail may not have fully decayed at the sample's end.
    const fade = Math.min(data.length, Math.round(0.02 * SAMPLE_RATE));
    for (let i = 0; i < fade; i++) data[data.length - 1 - i] = (data[data.length - 1 - i] ?? 0) * (i / fade);
    let peak = 0;
    for (const value of data) peak = Math.max(peak, Math.abs(value));
    // Soft saturation of the transient (tanh on the peak-normalised hit) trims ~3 dB of crest factor, which
    // the master limiter would otherwise have to take from the whole mix.
    const drive = 2;
    const scale = peak > 0 ? 1 / peak : 1;
    const makeUp = sound.peak / Math.tanh(drive);
    for (let i = 0; i < data.length; i++) data[i] = Math.tanh((data[i] ?? 0) * scale * drive) * makeUp;
    samples.set(drum, data);
  });
  return samples;
}
