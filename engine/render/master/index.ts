/**
 * The last mastering steps, on the rendered Float32Arrays: DC removal, loudness normalisation to −14 LUFS
 * integrated, a true-peak limiter to stay under −1 dBTP, a re-measure (limiting lowers loudness, so the gain is
 * corrected and the limiter run again), and short fades so the file starts and ends without a click.
 */
import { integratedLoudness } from './loudness.ts';
import { limitTruePeak } from './limiter.ts';
import { free } from '../free.ts';

export const TARGET_LUFS = -14;
/** The limiter aims below −1 dBTP so that a different analyser's interpolation still reads ≤ −1. */
const CEILING_DBTP = -1.5;
const FADE_SECONDS = 0.01;
const TOLERANCE_LU = 0.5;
const MAX_PASSES = 4;

export { integratedLoudness } from './loudness.ts';
export { truePeakDb } from './true-peak.ts';

/** Subtracts the channel's mean; returns whether it did (a mean this small is left alone). */
function removeDc(channel: Float32Array): boolean {
  const mean = meanOf(channel);
  if (Math.abs(mean) < 1e-7) return false;
  for (let i = 0; i < channel.length; i++) channel[i] = (channel[i] ?? 0) - mean;
  return true;
}

function meanOf(channel: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < channel.length; i++) sum += channel[i] ?? 0;
  return sum / Math.max(1, channel.length);
}

function fadeEnds(channel: Float32Array, frames: number): void {
  const n = Math.min(frames, Math.floor(channel.length / 2));
  for (let i = 0; i < n; i++) {
    const gain = (i / n) ** 2;
    channel[i] = (channel[i] ?? 0) * gain;
    channel[channel.length - 1 - i] = (channel[channel.length - 1 - i] ?? 0) * gain;
  }
}

export interface MasterReport {
  loudness: number;
  passes: number;
}

/**
 * What mastering did to a mix, so stems can be mastered as a set with it (masterStemInPlace): which channels had
 * their DC removed, and the gain applied to each frame (loudness gain times the limiter's gain).
 */
export interface MasterRecord {
  dcRemoved: [boolean, boolean];
  /** Null when the mix was silent (nothing was done to it). */
  gains: Float32Array | null;
  fadeFrames: number;
}

/**
 * Masters a stereo signal in place. Silence stays silence.
 *
 * Limiting lowers loudness, and by more the harder it works, so the gain is found by a secant search on the
 * loudness the limited signal actually reaches (each try limits a fresh copy of the unlimited signal).
 */
export function masterInPlace(
  left: Float32Array,
  right: Float32Array,
  sampleRate: number,
  record?: MasterRecord,
): MasterReport {
  const dcRemoved: [boolean, boolean] = [removeDc(left), removeDc(right)];
  const ceiling = 10 ** (CEILING_DBTP / 20);
  const initial = integratedLoudness(left, right, sampleRate);
  const fade = Math.round(FADE_SECONDS * sampleRate);
  if (record) Object.assign(record, { dcRemoved, gains: null, fadeFrames: fade });
  if (!Number.isFinite(initial)) return { loudness: initial, passes: 0 };

  const tryGain = (gainDb: number) => {
    const l = left.slice();
    const r = right.slice();
    const gains = record ? new Float32Array(l.length) : null;
    limitTruePeak(l, r, ceiling, sampleRate, 10 ** (gainDb / 20), gains);
    return { l, r, loudness: integratedLoudness(l, r, sampleRate), gainDb, gains };
  };
  // Limiting will cost some loudness when the gained signal's peaks exceed the ceiling; start a little higher
  // (a tenth of the overshoot, at most 1 dB) so one pass usually lands inside the tolerance.
  let samplePeak = 0;
  for (let i = 0; i < left.length; i++)
    samplePeak = Math.max(samplePeak, Math.abs(left[i] ?? 0), Math.abs(right[i] ?? 0));
  const overshootDb = 20 * Math.log10((samplePeak * 10 ** ((TARGET_LUFS - initial) / 20)) / ceiling);
  let best = tryGain(TARGET_LUFS - initial + Math.min(1, Math.max(0, overshootDb * 0.1)));
  // Only the best try keeps its audio; earlier tries keep just their gain and loudness for the secant.
  let previous = { gainDb: best.gainDb, loudness: best.loudness };
  let passes = 1;
  // The first step assumes the limiter will cost as much again as it did the first time.
  let next = previous.gainDb + (TARGET_LUFS - previous.loudness);
  while (Math.abs(best.loudness - TARGET_LUFS) > TOLERANCE_LU && passes < MAX_PASSES) {
    const current = tryGain(next);
    passes++;
    const slope = (current.loudness - previous.loudness) / (current.gainDb - previous.gainDb);
    next = current.gainDb + (TARGET_LUFS - current.loudness) / (Number.isFinite(slope) && slope > 0.05 ? slope : 1);
    previous = { gainDb: current.gainDb, loudness: current.loudness };
    // The other try's copies go now rather than at the next garbage collection (three full-length arrays each).
    const better = Math.abs(current.loudness - TARGET_LUFS) < Math.abs(best.loudness - TARGET_LUFS);
    const dropped = better ? best : current;
    free(dropped.l, dropped.r, dropped.gains);
    if (better) best = current;
  }
  left.set(best.l);
  right.set(best.r);
  free(best.l, best.r);
  fadeEnds(left, fade);
  fadeEnds(right, fade);
  if (record) record.gains = best.gains;
  return { loudness: best.loudness, passes };
}

/**
 * Masters one stem of a mix mastered with `record`: its own DC removed where the mix's was (the stems' means add
 * up to the mix's), the mix's per-frame gains, the same fades. The stems of a mix then add up to the mastered
 * mix: the limiter is not run on each stem, it follows the mix's gain curve.
 */
export function masterStemInPlace(left: Float32Array, right: Float32Array, record: MasterRecord): void {
  const { dcRemoved, gains, fadeFrames } = record;
  for (const [index, channel] of [left, right].entries()) {
    if (!dcRemoved[index]) continue;
    const mean = meanOf(channel);
    for (let i = 0; i < channel.length; i++) channel[i] = (channel[i] ?? 0) - mean;
  }
  if (!gains) return;
  for (let i = 0; i < left.length; i++) {
    const g = gains[i] ?? 0;
    left[i] = (left[i] ?? 0) * g;
    right[i] = (right[i] ?? 0) * g;
  }
  fadeEnds(left, fadeFrames);
  fadeEnds(right, fadeFrames);
}
