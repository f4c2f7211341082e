/**
 * A short plate for the lead voice, as producers give a lead its own reverb beside the song's space: a
 * four-line feedback delay network (Householder mixing, one-pole damping in each loop) fed by the voice in mono,
 * returning a dense, bright, stereo tail of about a second that lifts the voice without washing its words.
 * Algorithmic and sample by sample: the voice's span is short, so it costs a few tens of milliseconds.
 */
import { SAMPLE_RATE } from './constants.ts';
import { FLUSH_MASK, flushed } from './filters.ts';

/** Delay lengths (ms) of the four lines: mutually prime in samples at 44.1 kHz, a plate's dense early echoes. */
const LINES_MS = [29.7, 37.1, 41.1, 43.7] as const;
/** Pre-delay (s) before the network, whose shortest line adds ~30 ms: the word is heard before its plate. */
const PRE_DELAY = 0.025;
/** Damping in the loops: the tail loses its highs above this (Hz), as a plate's does more slowly than a room's. */
const DAMPING_HZ = 7000;
/** The send is high-passed here (Hz): a plate on a voice carries no chest boom. */
const SEND_HIGH_PASS = 250;

export interface PlateOptions {
  /** Seconds for the tail to fall 60 dB. */
  decay: number;
  /** Level of the return against the send. */
  gain: number;
}

/**
 * Adds the plate of `send` (mono) to `left` and `right` over [from, to) plus the tail, in place. The send is read,
 * never changed.
 */
export function addPlate(
  send: Float32Array,
  left: Float32Array,
  right: Float32Array,
  from: number,
  to: number,
  { decay, gain }: PlateOptions,
): void {
  const [l0, l1, l2, l3] = LINES_MS.map((ms) => Math.round((ms / 1000) * SAMPLE_RATE)) as [
    number,
    number,
    number,
    number,
  ];
  const d0 = new Float32Array(l0),
    d1 = new Float32Array(l1),
    d2 = new Float32Array(l2),
    d3 = new Float32Array(l3);
  const g = (length: number) => 10 ** ((-3 * length) / (decay * SAMPLE_RATE));
  const g0 = g(l0),
    g1 = g(l1),
    g2 = g(l2),
    g3 = g(l3);
  const damp = Math.exp((-2 * Math.PI * DAMPING_HZ) / SAMPLE_RATE);
  const hp = Math.exp((-2 * Math.PI * SEND_HIGH_PASS) / SAMPLE_RATE);
  const preDelay = Math.round(PRE_DELAY * SAMPLE_RATE);
  const end = Math.min(left.length, to + preDelay + Math.ceil(decay * SAMPLE_RATE));
  let p0 = 0,
    p1 = 0,
    p2 = 0,
    p3 = 0;
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0;
  let low = 0,
    low2 = 0;
  for (let i = from; i < end; i++) {
    const source = i - preDelay;
    const x = source >= from && source < to ? (send[source] ?? 0) : 0;
    // Two one-pole high-passes in series (12 dB an octave).
    low = x + hp * (low - x);
    const high = x - low;
    low2 = high + hp * (low2 - high);
    const input = (high - low2) * 0.5;
    // One-pole low-pass in each loop: every pass round darkens the tail a little.
    s0 = (d0[p0] ?? 0) + damp * (s0 - (d0[p0] ?? 0));
    s1 = (d1[p1] ?? 0) + damp * (s1 - (d1[p1] ?? 0));
    s2 = (d2[p2] ?? 0) + damp * (s2 - (d2[p2] ?? 0));
    s3 = (d3[p3] ?? 0) + damp * (s3 - (d3[p3] ?? 0));
    if ((i & FLUSH_MASK) === FLUSH_MASK) {
      s0 = flushed(s0);
      s1 = flushed(s1);
      s2 = flushed(s2);
      s3 = flushed(s3);
      low = flushed(low);
      low2 = flushed(low2);
    }
    const o0 = s0 * g0,
      o1 = s1 * g1,
      o2 = s2 * g2,
      o3 = s3 * g3;
    // Householder reflection (I − ½·ones): every line feeds every other, energy kept.
    const mean = (o0 + o1 + o2 + o3) * 0.5;
    d0[p0] = o0 - mean + input;
    d1[p1] = o1 - mean + input;
    d2[p2] = o2 - mean + input;
    d3[p3] = o3 - mean + input;
    p0 = p0 + 1 === l0 ? 0 : p0 + 1;
    p1 = p1 + 1 === l1 ? 0 : p1 + 1;
    p2 = p2 + 1 === l2 ? 0 : p2 + 1;
    p3 = p3 + 1 === l3 ? 0 : p3 + 1;
    left[i] = (left[i] ?? 0) + (o0 - o2 + o1 * 0.5) * gain;
    right[i] = (right[i] ?? 0) + (o1 - o3 + o2 * 0.5) * gain;
  }
}
