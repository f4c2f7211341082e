/**
 * The last mastering steps, on the rendered Float32Arrays: DC removal, loudness normalisation to −14 LUFS
 * integrated, a true-peak limiter to stay under −1 dBTP, a re-measure (limiting lowers loudness, so the gain is
 * corrected and the limiter run again), and short fades so the file starts and ends without a click.
 */
import { integratedLoudness } from './loudness.ts';
import { limitTruePeak } from './limiter.ts';

export const TARGET_LUFS = -14;
/** The limiter aims below −1 dBTP so that a different analyser's interpolation still reads ≤ −1. */
const CEILING_DBTP = -1.5;
const FADE_SECONDS = 0.01;
const TOLERANCE_LU = 0.2;
const MAX_PASSES = 3;

export { integratedLoudness } from './loudness.ts';
export { truePeakDb } from './truePeak.ts';

function removeDc(channel: Float32Array): void {
  let sum = 0;
  for (let i = 0; i < channel.length; i++) sum += channel[i]!;
  const mean = sum / Math.max(1, channel.length);
  if (Math.abs(mean) < 1e-7) return;
  for (let i = 0; i < channel.length; i++) channel[i]! -= mean;
}

function scale(left: Float32Array, right: Float32Array, gain: number): void {
  for (let i = 0; i < left.length; i++) {
    left[i]! *= gain;
    right[i]! *= gain;
  }
}

function fadeEnds(channel: Float32Array, frames: number): void {
  const n = Math.min(frames, Math.floor(channel.length / 2));
  for (let i = 0; i < n; i++) {
    const gain = (i / n) ** 2;
    channel[i]! *= gain;
    channel[channel.length - 1 - i]! *= gain;
  }
}

export interface MasterReport {
  loudness: number;
  passes: number;
}

/** Masters a stereo signal in place. Silence stays silence. */
export function masterInPlace(left: Float32Array, right: Float32Array, sampleRate: number): MasterReport {
  removeDc(left);
  removeDc(right);
  const ceiling = 10 ** (CEILING_DBTP / 20);
  let loudness = integratedLoudness(left, right, sampleRate);
  let passes = 0;
  while (Number.isFinite(loudness) && passes < MAX_PASSES) {
    scale(left, right, 10 ** ((TARGET_LUFS - loudness) / 20));
    limitTruePeak(left, right, ceiling, sampleRate);
    passes++;
    loudness = integratedLoudness(left, right, sampleRate);
    if (Math.abs(loudness - TARGET_LUFS) <= TOLERANCE_LU) break;
  }
  const fade = Math.round(FADE_SECONDS * sampleRate);
  fadeEnds(left, fade);
  fadeEnds(right, fade);
  return { loudness, passes };
}
