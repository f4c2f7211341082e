/**
 * The voice in the mix: the lead line and the backing "oohs" are sung into their own buffers (render/voice/),
 * then the lead gets a high-pass and a compressor, two quiet detuned doubles left and right, and the backing is
 * spread wide. The voice is set to sit just above the accompaniment's loudness where it sings, the
 * accompaniment ducks a little under it, and it feeds the reverb and delay sends like any part.
 */
import type { Score } from '../types.ts';
import { createRandom } from '../random.ts';
import { SAMPLE_RATE } from './constants.ts';
import { biquad, compress, filterInPlace } from './bus.ts';
import { integratedLoudness } from './master/index.ts';
import type { MixBuses } from './mix.ts';
import { sing } from './voice/index.ts';

/** Loudness of the voice over the accompaniment where it sings (LU): audible, not on top of the band. */
const VOICE_OVER_BAND_LU = 1.5;
/** The accompaniment's gain under a full voice (ducking). */
const DUCK_DB = -2.5;
/** Doubles and backing relative to the lead. */
const DOUBLE_DB = -11;
const BACKING_DB = -7;
/** Reverb and delay sends of the voice, multiplied by the spec's effect amounts (as mix.ts does per role). */
const REVERB_SEND = 0.45;
const DELAY_SEND = 0.35;

export interface VocalStems {
  /** The lead voice as sung: dry, mono, before any processing (for pitch and formant analysis). */
  lead: Float32Array;
  /** The whole voice as it enters the master bus (lead chain, doubles, backing; no reverb). */
  vocal: { left: Float32Array; right: Float32Array };
  /** Everything else as it enters the master bus (ducked, no reverb). */
  accompaniment: { left: Float32Array; right: Float32Array };
}

const dbToGain = (db: number): number => 10 ** (db / 20);

/**
 * A copy delayed by `base` seconds whose delay swings slowly by `depth` seconds: the moving delay bends the
 * pitch by a few cents and smears the timing, as a second take would.
 */
function double(source: Float32Array, base: number, depth: number, rate: number, phase: number): Float32Array {
  const out = new Float32Array(source.length);
  const omega = (2 * Math.PI * rate) / SAMPLE_RATE;
  for (let i = 0; i < source.length; i++) {
    const position = i - (base + depth * Math.sin(omega * i + phase)) * SAMPLE_RATE;
    if (position < 0) continue;
    const i0 = position | 0;
    const a = source[i0]!;
    out[i] = a + ((source[i0 + 1] ?? 0) - a) * (position - i0);
  }
  return out;
}

/** The frames where the voice sings, joined end to end (for loudness over the sung parts only). */
function sungFrames(channel: Float32Array, spans: readonly (readonly [number, number])[]): Float32Array {
  const total = spans.reduce((sum, [a, b]) => sum + (b - a), 0);
  const out = new Float32Array(total);
  let at = 0;
  for (const [a, b] of spans) {
    out.set(channel.subarray(a, b), at);
    at += b - a;
  }
  return out;
}

/** A smoothed level of the voice, 0–1, for ducking (fast attack, slow release). */
function envelope(voice: Float32Array): Float32Array {
  const env = new Float32Array(voice.length);
  const attack = 1 - Math.exp(-1 / (0.02 * SAMPLE_RATE));
  const release = 1 - Math.exp(-1 / (0.25 * SAMPLE_RATE));
  let level = 0;
  let peak = 1e-9;
  for (let i = 0; i < voice.length; i++) {
    const x = Math.abs(voice[i]!);
    level += (x > level ? attack : release) * (x - level);
    env[i] = level;
    if (level > peak) peak = level;
  }
  for (let i = 0; i < env.length; i++) env[i] = Math.min(1, (env[i]! / peak) * 2);
  return env;
}

/** Sings the score's vocal and mixes it into the buses; returns the stems when asked. Does nothing without a vocal. */
export function mixVocal(score: Score, buses: MixBuses, keepStems: boolean): VocalStems | null {
  const vocal = score.vocal;
  if (!vocal || vocal.notes.length === 0) return null;
  const frames = buses.left.length;
  const options = { gender: vocal.gender, sampleRate: SAMPLE_RATE, frames } as const;
  const lead = sing(vocal.notes, { ...options, random: createRandom(score.spec.seed, 'voice/lead') });
  const stemLead = keepStems ? lead.slice() : lead;

  const processed = lead.slice();
  filterInPlace(processed, biquad('highpass', 100, 0.7));
  const mirror = processed.slice();
  compress(processed, mirror, { thresholdDb: -20, ratio: 3, kneeDb: 6, attack: 0.008, release: 0.15 });
  const left = processed.slice();
  const right = processed;
  const doubleGain = dbToGain(DOUBLE_DB);
  const doubleLeft = double(left, 0.019, 0.0025, 0.31, 0);
  const doubleRight = double(left, 0.024, 0.0022, 0.27, 1.7);
  for (let i = 0; i < frames; i++) {
    left[i]! += doubleLeft[i]! * doubleGain;
    right[i]! += doubleRight[i]! * doubleGain;
  }
  if (vocal.backing.length > 0) {
    const backing = sing(vocal.backing, { ...options, random: createRandom(score.spec.seed, 'voice/backing') });
    filterInPlace(backing, biquad('highpass', 150, 0.7));
    const wide = double(backing, 0.012, 0.002, 0.23, 0.6);
    const gain = dbToGain(BACKING_DB);
    for (let i = 0; i < frames; i++) {
      left[i]! += backing[i]! * gain * 1.3;
      right[i]! += wide[i]! * gain * 1.3;
    }
  }

  const duck = envelope(lead);
  const duckDepth = 1 - dbToGain(DUCK_DB);
  for (let i = 0; i < frames; i++) {
    const g = 1 - duckDepth * duck[i]!;
    buses.left[i]! *= g;
    buses.right[i]! *= g;
  }

  // Level: the voice sits VOICE_OVER_BAND_LU above the (ducked) accompaniment, both measured where the voice sings.
  const spans = vocal.lines.map((line) => [Math.round(line.start * SAMPLE_RATE), Math.min(frames, Math.round(line.end * SAMPLE_RATE))] as const).filter(([a, b]) => b > a);
  const band = integratedLoudness(sungFrames(buses.left, spans), sungFrames(buses.right, spans), SAMPLE_RATE);
  const voice = integratedLoudness(sungFrames(left, spans), sungFrames(right, spans), SAMPLE_RATE);
  const gain = Number.isFinite(band) && Number.isFinite(voice) ? dbToGain(band + VOICE_OVER_BAND_LU - voice) : 1;
  const { effects } = score.spec;
  const reverbSend = REVERB_SEND * effects.reverb;
  const delaySend = DELAY_SEND * effects.delay;
  const stems: VocalStems | null = keepStems
    ? { lead: stemLead, vocal: { left: new Float32Array(frames), right: new Float32Array(frames) }, accompaniment: { left: buses.left.slice(), right: buses.right.slice() } }
    : null;
  for (let i = 0; i < frames; i++) {
    const l = left[i]! * gain, r = right[i]! * gain;
    buses.left[i]! += l;
    buses.right[i]! += r;
    const mono = (l + r) * 0.5;
    buses.reverb[i]! += mono * reverbSend;
    buses.delay[i]! += mono * delaySend;
    if (stems) {
      stems.vocal.left[i] = l;
      stems.vocal.right[i] = r;
    }
  }
  return stems;
}
