/**
 * The effects returns and master bus, sample by sample in plain TypeScript: reverb return (upsampled from the
 * quarter-rate convolution), tempo-synced feedback delay, lo-fi wow, high-pass (DC and rumble), glue
 * compression and the brightness low-pass.
 *
 * These once ran as a node-web-audio-api graph; for a 180 s track that render cost ~2 s of CPU (mostly the
 * per-block overhead of a handful of nodes over 8 million frames), against ~0.3 s for these loops.
 */
import type { Score } from '../types.ts';
import { SAMPLE_RATE } from './constants.ts';
import { FLUSH_MASK, flushed, SineLfo } from './filters.ts';

/** The lo-fi treatment's low-pass (above it the "tape" has nothing). */
const LOFI_CUTOFF = 7000;
const DELAY_FEEDBACK = 0.38;
const DELAY_DAMPING_HZ = 3000;
const DELAY_RETURN = 0.7;
const REVERB_RETURN_CUTOFF = 4500;

interface BiquadCoefficients {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/** RBJ cookbook low/high-pass coefficients. */
export function biquad(type: 'lowpass' | 'highpass', frequency: number, q: number): BiquadCoefficients {
  const w0 = (2 * Math.PI * frequency) / SAMPLE_RATE;
  const alpha = Math.sin(w0) / (2 * q);
  const cos = Math.cos(w0);
  const a0 = 1 + alpha;
  const b1 = type === 'lowpass' ? 1 - cos : -(1 + cos);
  const b0 = type === 'lowpass' ? b1 / 2 : -b1 / 2;
  return { b0: b0 / a0, b1: b1 / a0, b2: b0 / a0, a1: (-2 * cos) / a0, a2: (1 - alpha) / a0 };
}

export function filterInPlace(data: Float32Array, c: BiquadCoefficients): void {
  // Coefficients in locals: read from the object inside the loop they cost a third of the time.
  const { b0, b1, b2, a1, a2 } = c;
  let x1 = 0,
    x2 = 0,
    y1 = 0,
    y2 = 0;
  for (let i = 0; i < data.length; i++) {
    const x = data[i] ?? 0;
    const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    data[i] = y;
    if ((i & FLUSH_MASK) === FLUSH_MASK) {
      y1 = flushed(y1);
      y2 = flushed(y2);
    }
  }
}

/**
 * One biquad on both channels in one loop, each sample first multiplied by `gain` (and rounded to a float, as
 * storing it would): one pass instead of four, and the two filters' chains overlap. Each channel gets exactly the
 * arithmetic of a gain pass then filterInPlace. With `into`, the output is added to `into` (rounded as storing it
 * and reading it back would) and the signal left silent: a submix filtered, summed and emptied in one pass.
 */
export function biquadStereo(
  left: Float32Array,
  right: Float32Array,
  c: BiquadCoefficients,
  gain: number,
  into: { left: Float32Array; right: Float32Array } | null,
): void {
  const { b0, b1, b2, a1, a2 } = c;
  let lx1 = 0,
    lx2 = 0,
    ly1 = 0,
    ly2 = 0,
    rx1 = 0,
    rx2 = 0,
    ry1 = 0,
    ry2 = 0;
  for (let i = 0; i < left.length; i++) {
    const lx = Math.fround((left[i] ?? 0) * gain),
      rx = Math.fround((right[i] ?? 0) * gain);
    const ly = b0 * lx + b1 * lx1 + b2 * lx2 - a1 * ly1 - a2 * ly2;
    const ry = b0 * rx + b1 * rx1 + b2 * rx2 - a1 * ry1 - a2 * ry2;
    lx2 = lx1;
    lx1 = lx;
    ly2 = ly1;
    ly1 = ly;
    rx2 = rx1;
    rx1 = rx;
    ry2 = ry1;
    ry1 = ry;
    if (into) {
      into.left[i] = (into.left[i] ?? 0) + Math.fround(ly);
      into.right[i] = (into.right[i] ?? 0) + Math.fround(ry);
      left[i] = 0;
      right[i] = 0;
    } else {
      left[i] = ly;
      right[i] = ry;
    }
    if ((i & FLUSH_MASK) === FLUSH_MASK) {
      ly1 = flushed(ly1);
      ly2 = flushed(ly2);
      ry1 = flushed(ry1);
      ry2 = flushed(ry2);
    }
  }
}

/**
 * Adds the quarter-rate reverb return, linearly upsampled and low-passed (removing the upsampling images). Both
 * channels in one loop: the read position is worked out once, and the two filters are independent chains the CPU
 * overlaps; each channel's arithmetic is what it was alone.
 */
function addReverb(left: Float32Array, right: Float32Array, wet: [Float32Array, Float32Array], rate: number): void {
  const step = rate / SAMPLE_RATE;
  // Coefficients in locals: read from the object inside the loop they cost a third of the time.
  const { b0, b1, b2, a1, a2 } = biquad('lowpass', REVERB_RETURN_CUTOFF, 0.7);
  const [wetLeft, wetRight] = wet;
  let lx1 = 0,
    lx2 = 0,
    ly1 = 0,
    ly2 = 0,
    rx1 = 0,
    rx2 = 0,
    ry1 = 0,
    ry2 = 0;
  for (let i = 0; i < left.length; i++) {
    const position = i * step;
    const i0 = position | 0;
    const fraction = position - i0;
    const la = wetLeft[i0] ?? 0,
      ra = wetRight[i0] ?? 0;
    const lx = la + ((wetLeft[i0 + 1] ?? 0) - la) * fraction;
    const rx = ra + ((wetRight[i0 + 1] ?? 0) - ra) * fraction;
    const ly = b0 * lx + b1 * lx1 + b2 * lx2 - a1 * ly1 - a2 * ly2;
    const ry = b0 * rx + b1 * rx1 + b2 * rx2 - a1 * ry1 - a2 * ry2;
    lx2 = lx1;
    lx1 = lx;
    ly2 = ly1;
    ly1 = ly;
    rx2 = rx1;
    rx1 = rx;
    ry2 = ry1;
    ry1 = ry;
    left[i] = (left[i] ?? 0) + ly;
    right[i] = (right[i] ?? 0) + ry;
  }
}

/** A feedback delay (echoes darken as they repeat) fed by the mono send, added to both channels. */
function addDelay(left: Float32Array, right: Float32Array, send: Float32Array, seconds: number): void {
  const delay = Math.max(1, Math.round(seconds * SAMPLE_RATE));
  const damping = 1 - Math.exp((-2 * Math.PI * DELAY_DAMPING_HZ) / SAMPLE_RATE);
  let state = 0;
  // The send array becomes the delay line in place: w[i] = send[i] + feedback × damped(w[i - delay]).
  for (let i = 0; i < send.length; i++) {
    const tap = i >= delay ? (send[i - delay] ?? 0) : 0;
    state += damping * (tap - state);
    send[i] = (send[i] ?? 0) + DELAY_FEEDBACK * state;
    left[i] = (left[i] ?? 0) + state * DELAY_RETURN;
    right[i] = (right[i] ?? 0) + state * DELAY_RETURN;
  }
}

const WOW_HZ = 0.55;

/**
 * Wow: a slowly modulated delay bends the pitch by about ±0.25%, like a warped record. Given a `period` in
 * frames (a seamless loop's length), the rate is rounded to whole cycles per period so the bend is the same on
 * both sides of the seam.
 */
function wowInPlace(data: Float32Array, period: number | null): void {
  const size = 2048;
  const ring = new Float32Array(size);
  const base = 0.006 * SAMPLE_RATE;
  const depth = 0.0007 * SAMPLE_RATE;
  const cycles = period === null ? 0 : Math.max(1, Math.round((WOW_HZ * period) / SAMPLE_RATE));
  const lfo = new SineLfo(period === null ? WOW_HZ : (cycles * SAMPLE_RATE) / period, SAMPLE_RATE);
  for (let i = 0; i < data.length; i++) {
    ring[i & (size - 1)] = data[i] ?? 0;
    const position = i - (base + depth * lfo.value);
    lfo.advance();
    if (position < 0) {
      data[i] = 0;
      continue;
    }
    const i0 = Math.floor(position);
    const a = ring[i0 & (size - 1)] ?? 0;
    data[i] = a + ((ring[(i0 + 1) & (size - 1)] ?? 0) - a) * (position - i0);
  }
}

export interface CompressorOptions {
  thresholdDb: number;
  ratio: number;
  kneeDb: number;
  attack: number;
  release: number;
}

/**
 * A stereo-linked peak compressor with a soft knee. The detector works on 16-frame blocks (the block's peak,
 * gain smoothed in dB with time constants scaled to blocks) and the gain is interpolated linearly inside each
 * block: attack is 5 ms (220 frames), so blocks this short change nothing audible while the logarithms and
 * powers per frame, which dominated the bus's cost, drop sixteen-fold.
 *
 * `gains`, when given, receives the gain applied to each frame, so other signals (stems) can be given exactly the
 * same treatment with applyGains. The same array as `left` and `right` compresses a mono signal.
 */
export function compress(
  left: Float32Array,
  right: Float32Array,
  options: CompressorOptions,
  gains: Float32Array | null = null,
): void {
  const block = 16;
  const attack = Math.exp(-block / (options.attack * SAMPLE_RATE));
  const release = Math.exp(-block / (options.release * SAMPLE_RATE));
  const slope = 1 / options.ratio - 1;
  const { thresholdDb, kneeDb } = options;
  const kneeStart = 10 ** ((thresholdDb - kneeDb / 2) / 20);
  let reduction = 0;
  let gain = 1;
  const stereo = right !== left;
  for (let start = 0; start < left.length; start += block) {
    const end = Math.min(left.length, start + block);
    let peak = 0;
    for (let i = start; i < end; i++) {
      const l = Math.abs(left[i] ?? 0),
        r = Math.abs(right[i] ?? 0);
      if (l > peak) peak = l;
      if (r > peak) peak = r;
    }
    let target = 0;
    if (peak > kneeStart) {
      const over = 20 * Math.log10(peak) - thresholdDb;
      target = 2 * over > kneeDb ? slope * over : (slope * (over + kneeDb / 2) ** 2) / (2 * kneeDb);
    }
    const coefficient = target < reduction ? attack : release;
    reduction = coefficient * reduction + (1 - coefficient) * target;
    const nextGain = reduction > -1e-4 ? 1 : 10 ** (reduction / 20);
    if (gain === 1 && nextGain === 1) {
      gains?.fill(1, start, end);
      continue;
    }
    const step = (nextGain - gain) / (end - start);
    for (let i = start; i < end; i++) {
      gain += step;
      left[i] = (left[i] ?? 0) * gain;
      if (stereo) right[i] = (right[i] ?? 0) * gain;
      if (gains) gains[i] = gain;
    }
    gain = nextGain;
  }
}

/** Multiplies both channels by a per-frame gain curve (one a compressor or limiter recorded). */
export function applyGains(left: Float32Array, right: Float32Array, gains: Float32Array): void {
  for (let i = 0; i < left.length; i++) {
    const g = gains[i] ?? 0;
    left[i] = (left[i] ?? 0) * g;
    right[i] = (right[i] ?? 0) * g;
  }
}

/** A stereo signal with its mono effect sends. */
export interface SendBuses {
  left: Float32Array;
  right: Float32Array;
  /** The delay send; null when nothing was sent to it. */
  delay: Float32Array | null;
}

/** Adds the reverb return (`reverb` at `reverbRate`, or null) and the delay's echoes of the delay send to the buses. */
export function addReturns(
  score: Score,
  buses: SendBuses,
  reverb: [Float32Array, Float32Array] | null,
  reverbRate: number,
): void {
  const { left, right, delay } = buses;
  const { effects } = score.spec;
  if (reverb) addReverb(left, right, reverb, reverbRate);
  if (effects.delay > 0 && delay) addDelay(left, right, delay, delaySeconds(60 / score.bpm));
}

/** A dotted eighth, the classic tempo-synced echo; an eighth when the tempo is very slow. */
function delaySeconds(beat: number): number {
  return Math.min(1.9, beat * 0.75 > 0.6 ? beat * 0.375 : beat * 0.75);
}

/** How long the delay's echoes last after the send stops: until they are 40 dB down. */
export function delayTailSeconds(score: Score): number {
  if (score.spec.effects.delay <= 0) return 0;
  return (delaySeconds(60 / score.bpm) * Math.log(0.01)) / Math.log(DELAY_FEEDBACK);
}

/**
 * The bus's dynamics: the mix runs the glue compressor (recording its gains when asked); a stem is given the
 * gains the mix's compressor recorded, so the stems stay a sum of the mix.
 */
export type BusDynamics = { kind: 'compress'; gains: Float32Array | null } | { kind: 'follow'; gains: Float32Array };

export interface BusChainOptions {
  /** Gain before the compressor, so it sees the same level whatever the arrangement. */
  inputGain: number;
  dynamics: BusDynamics;
  /** A seamless loop's length in frames (the wow repeats with it), or null. */
  period: number | null;
}

/** The master bus after the returns, in place: input gain, lo-fi wow, high-pass, glue compression, brightness low-pass. */
export function busChain(score: Score, left: Float32Array, right: Float32Array, options: BusChainOptions): void {
  const { effects } = score.spec;
  const highPass = biquad('highpass', 25, 0.7);
  if (effects.lofi) {
    for (const channel of [left, right]) {
      for (let i = 0; i < channel.length; i++) channel[i] = (channel[i] ?? 0) * options.inputGain;
      wowInPlace(channel, options.period);
      filterInPlace(channel, highPass);
    }
  } else biquadStereo(left, right, highPass, options.inputGain, null);
  // The bus arrives at about −18 LUFS; peaks well above that are tamed here so the final limiter, which must
  // add several dB to reach −14 LUFS, has less to do.
  const { dynamics } = options;
  if (dynamics.kind === 'compress')
    compress(left, right, { thresholdDb: -12, ratio: 2.5, kneeDb: 6, attack: 0.005, release: 0.12 }, dynamics.gains);
  else applyGains(left, right, dynamics.gains);
  const cutoff = Math.min(effects.brightness, effects.lofi ? LOFI_CUTOFF : Infinity);
  if (cutoff < 19000) {
    biquadStereo(left, right, biquad('lowpass', Math.max(200, cutoff), 0.6), 1, null);
  }
}
