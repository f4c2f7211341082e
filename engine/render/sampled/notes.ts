/**
 * Sampled notes for the mixer. Like the synthesized patches (prerender.ts), each instrument renders a few root
 * notes and the mixer replays them resampled to each note's pitch; here a root is rendered per velocity layer,
 * so a soft note is a soft sample (darker, as the bank's velocity layers and filter make it) and a hard one a
 * hard sample, with the mixer's velocity curve setting the level on top. Rendered roots are kept per thread
 * (bounded), so the instruments a worker has played before cost almost nothing the next time.
 */
import type { Note } from '../../types.ts';
import type { Random } from '../../random.ts';
import { defined } from '../../checked.ts';
import { SAMPLE_RATE } from '../constants.ts';
import { loopedLength, unrolled, withLoop, type LoopShape, type RootSample } from '../loop.ts';
import { rootOf } from '../prerender.ts';
import { rmsOf, StateVariableFilter } from '../filters.ts';
import { soundBank, type NoteRenderer } from './bank.ts';
import type { BankPreset, SampledInstrument, SampledKit } from './catalogue.ts';

/** What the mixer needs to place one note. */
export interface PlayedNote {
  sample: Float32Array;
  /** Resampling ratio from the sample to the note's pitch. */
  ratio: number;
  holdFrames: number;
  releaseFrames: number;
  /** Level of the sample (calibration and round-robin variation); the mixer's velocity curve multiplies it. */
  gain: number;
}

/** Velocity layers: MIDI velocities rendered, and the highest note velocity (0–1) each one plays. */
const LAYERS = [
  { upTo: 0.5, midi: 52 },
  { upTo: 0.78, midi: 88 },
  { upTo: Infinity, midi: 120 },
] as const;
const DRUM_LAYERS = [
  { upTo: 0.35, midi: 40 },
  { upTo: 0.6, midi: 72 },
  { upTo: 0.85, midi: 100 },
  { upTo: Infinity, midi: 125 },
] as const;

function layerOf(layers: readonly { upTo: number; midi: number }[], velocity: number): number {
  return defined(
    layers.find((layer) => velocity <= layer.upTo),
    `a velocity layer for ${velocity}`,
  ).midi;
}

/** Sustaining notes loop a settled second of the rendered note, after its attack and the bank's own decay. */
const LOOP: LoopShape = { start: 1.5, seconds: 1, fade: 0.3 };
/** Rendered lengths are rounded up to this step, so a slightly longer note reuses a cached root. */
const LENGTH_STEP_SECONDS = 0.5;
/** Level of each instrument's reference note at every layer (the mixer's velocity curve then shapes dynamics). */
const TARGET_RMS = 0.1;
const TARGET_DRUM_PEAK = 0.8;
/** The drum that calibrates a kit's level, at every layer. */
const REFERENCE_DRUM = 38;
/** Rendered roots kept per thread, and decoded bank samples kept between parts. */
const CACHE_BYTES = 64 * 1024 * 1024;
const DECODED_BYTES = 48 * 1024 * 1024;

/** Seconds a drum key's hit rings: cymbals and open hats long, everything else short. */
function drumSeconds(key: number): number {
  if ([49, 51, 52, 53, 55, 57, 59].includes(key)) return 3;
  if (key === 46) return 1.5;
  return 1;
}

/**
 * Softer is darker. Many of the bank's presets change only their level with velocity, so each soft layer also
 * goes through a gentle low-pass (12 dB/octave) a few harmonics above the note: an instrument played softly
 * loses its upper partials first. The loudest layer is left as recorded. Causal, so a longer render of a
 * root begins exactly like a shorter one.
 */
function velocityTone(data: Float32Array, key: number, velocity: number): void {
  const harmonics = velocity <= LAYERS[0].midi ? 6 : velocity <= LAYERS[1].midi ? 14 : 0;
  if (harmonics === 0) return;
  const cutoff = Math.min(16000, Math.max(900, 440 * 2 ** ((key - 69) / 12) * harmonics));
  const filter = new StateVariableFilter(SAMPLE_RATE, cutoff, Math.SQRT1_2);
  const out = { low: 0, band: 0 };
  for (let i = 0; i < data.length; i++) {
    filter.process(data[i] ?? 0, out);
    data[i] = out.low;
  }
}

/** Renders by preset, key, layer; a longer render replaces a shorter one (a prefix of it: renders are causal). */
class RenderedNotes {
  readonly #entries = new Map<string, Float32Array>();
  #bytes = 0;

  constructor(readonly renderer: NoteRenderer) {}

  get(preset: BankPreset, percussion: boolean, key: number, velocity: number, seconds: number): Float32Array {
    const id = `${percussion ? 'kit' : 'preset'}/${preset.bank}/${preset.program}/${key}/${velocity}`;
    const frames = Math.ceil(seconds * SAMPLE_RATE);
    const cached = this.#entries.get(id);
    if (cached && cached.length >= frames) {
      // Least recently used first in the map's order.
      this.#entries.delete(id);
      this.#entries.set(id, cached);
      return cached.subarray(0, frames);
    }
    const step = LENGTH_STEP_SECONDS;
    const rendered = this.renderer.render(preset, percussion, key, velocity, Math.ceil(seconds / step) * step);
    if (!percussion) velocityTone(rendered, key, velocity);
    if (cached) this.#forget(id, cached);
    this.#entries.set(id, rendered);
    this.#bytes += rendered.byteLength;
    for (const [oldest, data] of this.#entries) {
      if (this.#bytes <= CACHE_BYTES) break;
      this.#forget(oldest, data);
    }
    return rendered.subarray(0, frames);
  }

  #forget(id: string, data: Float32Array): void {
    this.#entries.delete(id);
    this.#bytes -= data.byteLength;
  }
}

let notes: Promise<RenderedNotes> | null = null;

function renderedNotes(): Promise<RenderedNotes> {
  notes ??= soundBank().then((renderer) => new RenderedNotes(renderer));
  return notes;
}

function peak(data: Float32Array): number {
  let max = 0;
  for (const value of data) max = Math.max(max, Math.abs(value));
  return max;
}

/** The gain that brings the instrument's reference note at this layer to TARGET_RMS (over its first half second). */
function calibration(cache: RenderedNotes, instrument: SampledInstrument, layer: number): number {
  const level = rmsOf(cache.get(instrument, false, rootOf(instrument.centre), layer, 0.5));
  return level > 1e-6 ? (TARGET_RMS / level) * 10 ** (instrument.trimDb / 20) : 1;
}

interface NotePlan {
  instrument: SampledInstrument;
  root: number;
  layer: number;
  ratio: number;
  /** Seconds held before the release, and seconds of rendered sample the note reads. */
  hold: number;
  seconds: number;
}

function planNote(base: SampledInstrument, note: Note): NotePlan {
  const instrument = (note.articulation && base.articulations?.[note.articulation]) || base;
  const root = rootOf(note.midi);
  const ratio = 2 ** ((note.midi - root) / 12);
  const hold = Math.max(0.02, instrument.hold === 'loop' ? note.duration : Math.min(note.duration, instrument.hold));
  const seconds = (hold + instrument.release) * ratio + 0.01;
  return { instrument, root, layer: layerOf(LAYERS, note.velocity), ratio, hold, seconds };
}

/** A copy of `data` falling `dbPerSecond` from its start: a plucked string's decay while it is held. */
function decayed(data: Float32Array, dbPerSecond: number): Float32Array {
  const out = new Float32Array(data.length);
  const perFrame = 10 ** (-dbPerSecond / 20 / SAMPLE_RATE);
  let gain = 1;
  for (let i = 0; i < data.length; i++) {
    out[i] = (data[i] ?? 0) * gain;
    gain *= perFrame;
  }
  return out;
}

/** Every note of a part played by a sampled instrument (and its articulations), in the order given. */
export async function playSampled(base: SampledInstrument, notes: readonly Note[]): Promise<PlayedNote[]> {
  const cache = await renderedNotes();
  const plans = notes.map((note) => planNote(base, note));
  // One sample per (articulation, root, layer): rendered as long as its longest note needs (looping sounds
  // only up to the loop's end), then unrolled once to that length.
  const groups = new Map<string, { plan: NotePlan; seconds: number }>();
  const keyOf = (plan: NotePlan) => `${plan.instrument.bank}/${plan.instrument.program}/${plan.root}/${plan.layer}`;
  for (const plan of plans) {
    const group = groups.get(keyOf(plan));
    if (!group || group.seconds < plan.seconds) groups.set(keyOf(plan), { plan, seconds: plan.seconds });
  }
  const samples = new Map<string, { data: Float32Array; gain: number }>();
  for (const [key, { plan, seconds }] of groups) {
    const looping = plan.instrument.hold === 'loop';
    const rendered = cache.get(
      plan.instrument,
      false,
      plan.root,
      plan.layer,
      looping ? Math.min(seconds, loopedLength(LOOP)) : seconds,
    );
    const sample: RootSample = looping ? withLoop(rendered, LOOP) : { data: rendered, loop: null };
    const data = unrolled(sample, Math.ceil(seconds * SAMPLE_RATE) + 2);
    samples.set(key, {
      data: plan.instrument.decayDb ? decayed(data, plan.instrument.decayDb) : data,
      gain: calibration(cache, plan.instrument, plan.layer),
    });
  }
  cache.renderer.trim(DECODED_BYTES);
  return plans.map((plan) => {
    const key = keyOf(plan);
    const { data, gain } = defined(samples.get(key), `the rendered note ${key}`);
    return {
      sample: data,
      ratio: plan.ratio,
      holdFrames: Math.round(plan.hold * SAMPLE_RATE),
      releaseFrames: Math.max(1, Math.round(plan.instrument.release * SAMPLE_RATE)),
      gain,
    };
  });
}

/** Below this level under its peak a hit's tail is inaudible in a mix (and cut, after a short fade). */
const AUDIBLE_DB = -60;

/** The hit up to its last sample within AUDIBLE_DB of its peak, plus 10 ms for the fade. */
function audible(hit: Float32Array): Float32Array {
  const floor = peak(hit) * 10 ** (AUDIBLE_DB / 20);
  let last = hit.length - 1;
  while (last > 0 && Math.abs(hit[last] ?? 0) < floor) last--;
  return hit.subarray(0, Math.min(hit.length, last + 1 + Math.round(0.01 * SAMPLE_RATE)));
}

const LOW_TOMS = new Set([41, 43, 45]);
const HIGH_TOMS = new Set([47, 48, 50]);

/** The kit's key for a General MIDI drum key: toms tuned to the key where the kit's toms are timpani. */
function kitKey(kit: SampledKit, key: number, tonic: number): number {
  if (!kit.timpani || !(LOW_TOMS.has(key) || HIGH_TOMS.has(key))) return key;
  const pitchClass = LOW_TOMS.has(key) ? tonic : (tonic + 7) % 12;
  return kit.timpani.lowestKey + ((pitchClass - kit.timpani.lowestPitchClass + 12) % 12);
}

/**
 * Drum hits from a sampled kit, by General MIDI key and velocity layer. Repeated hits never sound identical:
 * each one is tuned and levelled a little differently (a drummer never strikes the same spot twice), from the
 * part's seeded random.
 */
export async function playSampledKit(
  kit: SampledKit,
  notes: readonly Note[],
  random: Random,
  tonic: number,
): Promise<PlayedNote[]> {
  const cache = await renderedNotes();
  const levels = new Map<number, number>();
  const levelAt = (layer: number) => {
    let level = levels.get(layer);
    if (level === undefined) {
      const reference = peak(cache.get(kit, true, REFERENCE_DRUM, layer, drumSeconds(REFERENCE_DRUM)));
      level = (reference > 1e-6 ? TARGET_DRUM_PEAK / reference : 1) * 10 ** ((kit.trimDb ?? 0) / 20);
      levels.set(layer, level);
    }
    return level;
  };
  // Each hit only as long as it is audible: a closed hat rendered for a second is mostly silence, and the
  // mixer's cost is the frames it places.
  const hits = new Map<string, Float32Array>();
  const hitOf = (key: number, layer: number) => {
    let hit = hits.get(`${key}/${layer}`);
    if (!hit) {
      hit = audible(cache.get(kit, true, key, layer, drumSeconds(key)));
      hits.set(`${key}/${layer}`, hit);
    }
    return hit;
  };
  const played = notes.map((note) => {
    const layer = layerOf(DRUM_LAYERS, note.velocity);
    const sample = hitOf(kitKey(kit, note.midi, tonic), layer);
    const ratio = 1 + (random.next() - 0.5) * 0.012;
    const gain = levelAt(layer) * (1 + (random.next() - 0.5) * 0.1);
    // The last few milliseconds fade: a cymbal may still ring where its rendered hit ends.
    const releaseFrames = Math.round(0.02 * SAMPLE_RATE);
    return {
      sample,
      ratio,
      holdFrames: Math.max(0, Math.floor((sample.length - 2) / ratio) - releaseFrames),
      releaseFrames,
      gain,
    };
  });
  cache.renderer.trim(DECODED_BYTES);
  return played;
}
