/**
 * Seamless loops: a track whose end flows into its start. The score is mixed past the loop's end until the last
 * notes' releases, the delay's echoes and the reverb have died away; that tail is then carried round and added
 * onto the start (foldTail), as it would sound when the loop plays again.
 *
 * The bus and master steps that follow remember the past (filters, compressor, limiter) or look ahead (limiter),
 * so they run on the loop with its own end before it and its own start after it (withWrap) and keep the middle:
 * at the seam each step then sees what it would see in a loop playing round and round.
 */
import type { Score } from '../types.ts';
import { SAMPLE_RATE } from './constants.ts';
import { delayTailSeconds } from './bus.ts';

/** The longest release of any instrument, with margin (sampled pianos and pads ring about this long). */
const RELEASE_SECONDS = 2;
/** Mixed past the end at most this long; whatever rings longer is lost (at −40 dB or below by then). */
const MAX_TAIL_SECONDS = 12;
/** Context on each side of the loop for the bus and master steps: several times their longest memory (the high-pass's). */
const WRAP_SECONDS = 1.5;

/** Frames mixed past a loop's end so everything sounding at the seam has died away. */
export function tailFrames(score: Score): number {
  const seconds = Math.max(score.spec.effects.reverbDecay, delayTailSeconds(score)) + RELEASE_SECONDS;
  return Math.round(Math.min(MAX_TAIL_SECONDS, seconds) * SAMPLE_RATE);
}

/** The first `period` frames with everything after them added on from the start, as often as it goes round. */
export function foldTail(channel: Float32Array, period: number): Float32Array {
  const out = channel.slice(0, period);
  for (let i = period; i < channel.length; i++) out[i % period] = (out[i % period] ?? 0) + (channel[i] ?? 0);
  return out;
}

/** The loop with its last `wrap` frames before it and its first after it (repeating when the loop is shorter). */
export function withWrap(loop: Float32Array, wrap: number): Float32Array {
  const period = loop.length;
  const out = new Float32Array(period + 2 * wrap);
  for (let i = 0; i < out.length; i++) out[i] = loop[(((i - wrap) % period) + period) % period] ?? 0;
  return out;
}

/** The middle of a withWrap signal: the loop again. */
export function withoutWrap(wrapped: Float32Array, wrap: number): Float32Array {
  return wrapped.slice(wrap, wrapped.length - wrap);
}

export function wrapFrames(): number {
  return Math.round(WRAP_SECONDS * SAMPLE_RATE);
}
