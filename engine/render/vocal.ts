/**
 * The voice in the mix: the lead line is sung into its own buffer (render/singer/) and the backing harmonies are
 * played by the sound bank's recorded voices (its Voice Oohs for "ooh", Choir Aahs otherwise: real voices, which
 * the formant singer is not). The lead gets a high-pass, EQ, a compressor and two quiet detuned doubles left and
 * right; the backing is spread wide. The voice is set in front of the accompaniment by its genre's balance where
 * it sings, the accompaniment ducks a little under it with its presence band carved for the words, and the voice
 * feeds the song's reverb and delay sends like any part.
 */
import type { Score, SungNote } from '../types.ts';
import { createRandom } from '../random.ts';
import { at } from '../checked.ts';
import { SAMPLE_RATE } from './constants.ts';
import { biquad, compress, filterInPlace } from './bus.ts';
import { FLUSH_MASK, flushed, peaking, SineLfo } from './filters.ts';
import { integratedLoudness } from './master/index.ts';
import type { MixBuses } from './mix.ts';
import { sing } from './singer/index.ts';
import { SAMPLED_INSTRUMENTS, type SampledInstrument } from './sampled/catalogue.ts';
import { playSampled } from './sampled/notes.ts';
import { delaySendOf, type StemSet } from './stems.ts';
import { free } from './free.ts';

/**
 * Loudness of the voice over the accompaniment where it sings (LU), by genre: in front, not detached from the
 * band. Measured on chart records (Gerdes & Siedenburg 2023, JASA Express Letters 3, 043201) the lead sits about
 * 1 dB over its accompaniment on average, highest in country, then rap and pop, level with the band in rock and
 * under it in metal, and solo singers higher than bands: our songs are a solo singer's.
 */
const VOICE_OVER_BAND_LU: Readonly<Record<string, number>> = {
  country: 4,
  rock: 2,
  punk: 1.5,
  metal: 1,
  // Rapped: hip hop's balance is its own (compose/vocal/rap.ts), kept where it was tuned.
  hiphop: 1.5,
  trap: 1.5,
};
const VOICE_OVER_BAND_DEFAULT_LU = 3;
/** The accompaniment's gain under a full voice (ducking). */
const DUCK_DB = -2.5;
/**
 * The accompaniment's presence band (where a voice's words are heard, 2–4.5 kHz) is cut this much more under a
 * full voice, as a producer carves room for the lead.
 */
const PRESENCE_CUT_DB = -4;
const PRESENCE_HZ = 3000;
const PRESENCE_Q = 0.9;
/** Doubles relative to the lead; the backing choir's RMS where it sings against the lead's where the lead sings. */
const DOUBLE_DB = -11;
const BACKING_DB = -9;
/** Reverb and delay sends of the voice, multiplied by the spec's effect amounts (as mix.ts does per role). */
const REVERB_SEND = 0.45;
/** The voice reaches the reverb this much later than it is heard: its words stay clear of their own echo. */
const REVERB_PREDELAY = 0.07;
/** The lead's EQ after its high-pass: less boxiness around 300 Hz, more presence around 4 kHz (peaking filters). */
const LEAD_EQ = [
  { frequency: 300, q: 1, gainDb: -2.5 },
  { frequency: 4000, q: 0.8, gainDb: 2.5 },
] as const;
const DELAY_SEND = 0.35;

/** Copies of the voice and the band taken while mixing, for tests and analysis (not the stems of stems.ts). */
export interface VocalTaps {
  /** The lead voice as sung: dry, mono, before any processing (for pitch and formant analysis). */
  lead: Float32Array;
  /** The backing choir as played: dry, mono, before its high-pass and level (empty without backing). */
  backing: Float32Array;
  /** The whole voice as it enters the master bus (lead chain, doubles, backing; no reverb). */
  vocal: { left: Float32Array; right: Float32Array };
  /** Everything else as it enters the master bus (ducked, no reverb). */
  accompaniment: { left: Float32Array; right: Float32Array };
}

const dbToGain = (db: number): number => 10 ** (db / 20);

/** Where a sung buffer has sound: from a breath before its first note to a release after its last, in frames. */
export interface Span {
  from: number;
  to: number;
}

function spanOf(notes: readonly { time: number; duration: number }[], frames: number): Span {
  const first = Math.min(...notes.map((n) => n.time));
  const last = Math.max(...notes.map((n) => n.time + n.duration));
  return {
    from: Math.max(0, Math.round((first - 0.5) * SAMPLE_RATE)),
    to: Math.min(frames, Math.round((last + 0.4) * SAMPLE_RATE)),
  };
}

/**
 * Adds to `target` a copy of `source` delayed by `base` seconds whose delay swings slowly by `depth` seconds: the
 * moving delay bends the pitch by a few cents and smears the timing, as a second take would.
 */
function addDouble(
  target: Float32Array,
  source: Float32Array,
  span: Span,
  gain: number,
  base: number,
  depth: number,
  rate: number,
  phase: number,
): void {
  const lfo = new SineLfo(rate, SAMPLE_RATE, (2 * Math.PI * rate * span.from) / SAMPLE_RATE + phase);
  const end = Math.min(target.length, span.to + Math.ceil((base + depth) * SAMPLE_RATE));
  for (let i = span.from; i < end; i++) {
    const position = i - (base + depth * lfo.value) * SAMPLE_RATE;
    lfo.advance();
    if (position < 0) continue;
    const i0 = position | 0;
    const a = source[i0] ?? 0;
    target[i] = (target[i] ?? 0) + (a + ((source[i0 + 1] ?? 0) - a) * (position - i0)) * gain;
  }
}

/**
 * Ducks the accompaniment under the voice and carves room for its words: a smoothed level of the voice (fast
 * attack, slow release), scaled so half its peak is full depth, turns the band down by up to `depth` (0–1) and
 * takes up to `carve` (0–1) of its presence band (PRESENCE_HZ, a band-pass subtracted: a peaking cut) out,
 * inside the span. Linear in the channel, so the stems ducked alike still add up to the mix.
 */
export function duckUnder(
  voice: Float32Array,
  span: Span,
  depth: number,
  carve: number,
): (channel: Float32Array) => void {
  const attack = 1 - Math.exp(-1 / (0.02 * SAMPLE_RATE));
  const release = 1 - Math.exp(-1 / (0.25 * SAMPLE_RATE));
  const env = new Float32Array(span.to - span.from);
  let level = 0;
  let peak = 1e-9;
  for (let i = span.from; i < span.to; i++) {
    const x = Math.abs(voice[i] ?? 0);
    level += (x > level ? attack : release) * (x - level);
    env[i - span.from] = level;
    if (level > peak) peak = level;
  }
  const scale = 2 / peak;
  // RBJ band-pass with 0 dB at its centre: x − k·bandpass(x) is a cut of k at the centre, none far from it.
  const w0 = (2 * Math.PI * PRESENCE_HZ) / SAMPLE_RATE;
  const alpha = Math.sin(w0) / (2 * PRESENCE_Q);
  const b0 = alpha / (1 + alpha),
    a1 = (-2 * Math.cos(w0)) / (1 + alpha),
    a2 = (1 - alpha) / (1 + alpha);
  // Channel by channel (not every channel per sample): one tight loop each, the gain worked out as it goes.
  return (channel) => {
    let x1 = 0,
      x2 = 0,
      y1 = 0,
      y2 = 0;
    for (let i = span.from; i < span.to; i++) {
      const x = channel[i] ?? 0;
      const band = b0 * (x - x2) - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = band;
      if ((i & FLUSH_MASK) === FLUSH_MASK) {
        y1 = flushed(y1);
        y2 = flushed(y2);
      }
      const amount = Math.min(1, (env[i - span.from] ?? 0) * scale);
      channel[i] = (x - carve * amount * band) * (1 - depth * amount);
    }
  };
}

/** RMS of `channel` over the frames of `spans` ([from, to) each; a frame in two spans counts twice). */
function rmsOver(channel: Float32Array, spans: readonly (readonly [number, number])[]): number {
  let sum = 0;
  let count = 0;
  for (const [from, to] of spans) {
    for (let i = from; i < to; i++) sum += (channel[i] ?? 0) ** 2;
    count += Math.max(0, to - from);
  }
  return count > 0 ? Math.sqrt(sum / count) : 0;
}

/** The Voice Oohs' lowest recorded note (C4): lower notes are that recording pitched down, nearly a pure tone. */
const OOHS_LOWEST = 60;
/** Level of the octave above that doubles an "ooh" below OOHS_LOWEST (a mixed choir singing it in octaves). */
const OOHS_OCTAVE_GAIN = 0.5;

/** One recorded voice of a backing note: which preset sings it, at what pitch, how loud against the note. */
interface ChoirVoice {
  note: SungNote;
  instrument: SampledInstrument;
  level: number;
}

/**
 * The bank's recordings that sing a backing note: "ooh" (UW, UH) by its Voice Oohs, every other vowel by its
 * Choir Aahs (real voices; the singer's formants are not put on them). The oohs were recorded by high voices: a
 * note below them, pitched down, keeps only its fundamental and is lost under the band, so it is doubled an
 * octave up, as a mixed choir sings it.
 */
function choirVoices(note: SungNote): ChoirVoice[] {
  const vowel = note.syllable.nucleus;
  if (vowel !== 'UW' && vowel !== 'UH') return [{ note, instrument: SAMPLED_INSTRUMENTS.choir, level: 1 }];
  const instrument = SAMPLED_INSTRUMENTS.voiceOohs;
  const own = { note, instrument, level: 1 };
  if (note.midi >= OOHS_LOWEST) return [own];
  return [own, { note: { ...note, midi: note.midi + 12 }, instrument, level: OOHS_OCTAVE_GAIN }];
}

/**
 * The backing notes played by the bank's choir into a mono buffer of `frames` frames: each voice's recorded
 * sample resampled to its pitch, held, and released with a quadratic fade.
 */
async function playChoir(notes: readonly SungNote[], frames: number): Promise<Float32Array> {
  const out = new Float32Array(frames);
  const voices = notes.flatMap(choirVoices);
  for (const instrument of new Set(voices.map((voice) => voice.instrument))) {
    const own = voices.filter((voice) => voice.instrument === instrument);
    const played = await playSampled(
      instrument,
      own.map((voice) => voice.note),
    );
    own.forEach(({ note, level: voiceLevel }, n) => {
      const { sample, ratio, holdFrames, releaseFrames, gain } = at(played, n);
      const start = Math.round(note.time * SAMPLE_RATE);
      const end = Math.min(holdFrames + releaseFrames, frames - start, Math.floor((sample.length - 2) / ratio));
      const level = gain * (0.5 + note.velocity) * voiceLevel;
      for (let j = 0; j < end; j++) {
        const position = j * ratio;
        const i0 = position | 0;
        const a = sample[i0] ?? 0;
        const fade = j < holdFrames ? 1 : (1 - (j - holdFrames) / releaseFrames) ** 2;
        out[start + j] = (out[start + j] ?? 0) + (a + ((sample[i0 + 1] ?? 0) - a) * (position - i0)) * level * fade;
      }
    });
  }
  return out;
}

/**
 * Sings the score's vocal and mixes it into the buses (and, with `stems`, ducks every stem and makes the voice's
 * own); returns the taps when asked. Does nothing without a vocal.
 */
export async function mixVocal(
  score: Score,
  buses: MixBuses,
  keepTaps: boolean,
  stems: StemSet | null = null,
): Promise<VocalTaps | null> {
  const vocal = score.vocal;
  if (!vocal || vocal.notes.length === 0) return null;
  const frames = buses.left.length;
  const options = { gender: vocal.gender, sampleRate: SAMPLE_RATE, frames } as const;
  const lead = sing(vocal.notes, { ...options, random: createRandom(score.spec.seed, 'voice/lead') });
  const tapLead = keepTaps ? lead.slice() : null;
  const leadSpan = spanOf(vocal.notes, frames);
  // The band ducks under the voice as sung (before its chain), so it is ducked first and the lead then becomes the
  // dry voice in place.
  const duck = duckUnder(lead, leadSpan, 1 - dbToGain(DUCK_DB), 1 - dbToGain(PRESENCE_CUT_DB));
  duck(buses.left);
  duck(buses.right);
  // A finished stem (on disk) is ducked when read back.
  stems?.eachChannel(duck);

  // Outside its span the voice is silent, so the filter and compressor only need to run inside it.
  const dry = lead.subarray(leadSpan.from, leadSpan.to);
  filterInPlace(dry, biquad('highpass', 100, 0.7));
  for (const { frequency, q, gainDb } of LEAD_EQ) {
    const [b0 = 1, b1 = 0, b2 = 0, a1 = 0, a2 = 0] = peaking(frequency, q, gainDb, SAMPLE_RATE);
    filterInPlace(dry, { b0, b1, b2, a1, a2 });
  }
  compress(dry, dry, { thresholdDb: -20, ratio: 3, kneeDb: 6, attack: 0.008, release: 0.15 });
  const left = lead.slice();
  const right = lead.slice();
  const doubleGain = dbToGain(DOUBLE_DB);
  addDouble(left, lead, leadSpan, doubleGain, 0.019, 0.0025, 0.31, 0);
  addDouble(right, lead, leadSpan, doubleGain, 0.024, 0.0022, 0.27, 1.7);
  // Full-length working copies: freed as soon as they are read, not at the next garbage collection (free.ts).
  free(lead);
  const backingSpan = vocal.backing.length > 0 ? spanOf(vocal.backing, frames) : null;
  let tapBacking = new Float32Array(0);
  if (backingSpan) {
    const backing = await playChoir(vocal.backing, frames);
    if (keepTaps) tapBacking = backing.slice();
    filterInPlace(backing.subarray(backingSpan.from, backingSpan.to), biquad('highpass', 150, 0.7));
    // Levelled against the lead where the choir sings (the choir's calibration is not the singer's).
    const chords = vocal.backing.map(
      (n) =>
        [Math.round(n.time * SAMPLE_RATE), Math.min(frames, Math.round((n.time + n.duration) * SAMPLE_RATE))] as const,
    );
    const choirLevel = rmsOver(backing, chords);
    const leadLevel = rmsOver(lead, chords);
    const gain = choirLevel > 0 ? (dbToGain(BACKING_DB) * leadLevel) / choirLevel : 0;
    for (let i = backingSpan.from; i < backingSpan.to; i++) left[i] = (left[i] ?? 0) + (backing[i] ?? 0) * gain;
    addDouble(right, backing, backingSpan, gain, 0.012, 0.002, 0.23, 0.6);
    free(backing);
  }

  // Level: the voice sits its genre's VOICE_OVER_BAND_LU above the (ducked) accompaniment, both measured where the
  // voice sings.
  const spans = vocal.lines
    .map(
      (line) => [Math.round(line.start * SAMPLE_RATE), Math.min(frames, Math.round(line.end * SAMPLE_RATE))] as const,
    )
    .filter(([a, b]) => b > a);
  const band = integratedLoudness(buses.left, buses.right, SAMPLE_RATE, spans);
  const voice = integratedLoudness(left, right, SAMPLE_RATE, spans);
  const over = VOICE_OVER_BAND_LU[score.spec.genre] ?? VOICE_OVER_BAND_DEFAULT_LU;
  const gain = Number.isFinite(band) && Number.isFinite(voice) ? dbToGain(band + over - voice) : 1;
  const { effects } = score.spec;
  const reverbSend = REVERB_SEND * effects.reverb;
  const delaySend = DELAY_SEND * effects.delay;
  const taps: VocalTaps | null = keepTaps
    ? {
        lead: tapLead ?? lead,
        backing: tapBacking,
        vocal: { left, right },
        accompaniment: { left: buses.left.slice(), right: buses.right.slice() },
      }
    : null;
  const stem = stems?.of('vocal') ?? null;
  const stemDelay = stem && delaySend !== 0 ? delaySendOf(stem) : null;
  // Only where the voice (with its doubles' delay) has sound: outside it the buffers are silent.
  const from = Math.min(leadSpan.from, backingSpan?.from ?? Infinity);
  const to = Math.min(frames, Math.max(leadSpan.to, backingSpan?.to ?? 0) + Math.ceil(0.03 * SAMPLE_RATE));
  const { left: busLeft, right: busRight, reverb, delay } = buses;
  const preDelay = Math.round(REVERB_PREDELAY * SAMPLE_RATE);
  for (let i = from; i < to; i++) {
    const l = (left[i] ?? 0) * gain,
      r = (right[i] ?? 0) * gain;
    if (taps) {
      left[i] = l;
      right[i] = r;
    }
    busLeft[i] = (busLeft[i] ?? 0) + l;
    busRight[i] = (busRight[i] ?? 0) + r;
    const mono = (l + r) * 0.5;
    const late = i + preDelay < frames ? i + preDelay : -1;
    if (late >= 0) reverb[late] = (reverb[late] ?? 0) + mono * reverbSend;
    delay[i] = (delay[i] ?? 0) + mono * delaySend;
    if (stem) {
      stem.left[i] = l;
      stem.right[i] = r;
      if (late >= 0) stem.reverb[late] = mono * reverbSend;
      if (stemDelay) stemDelay[i] = mono * delaySend;
    }
  }
  if (!taps) free(left, right);
  return taps;
}
