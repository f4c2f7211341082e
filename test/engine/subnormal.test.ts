/**
 * Recursive filters fed silence after sound decay towards zero; left alone they pass through the subnormal
 * numbers (thousands of samples of them after each sound), which the CPU handles tens of times slower than normal
 * ones. The mix's filters flush their states to exact zero every FLUSH_MASK + 1 frames (filters.ts), so a rest
 * leaves a few dozen subnormal samples at most and a track's rests cost no more than its notes.
 */
import test from 'ava';
import { biquad, filterInPlace } from '../../engine/render/bus.ts';
import { FLUSH_MASK, flushed } from '../../engine/render/filters.ts';
import { processGroup, type MixGroup } from '../../engine/render/groups.ts';
import { SAMPLE_RATE } from '../../engine/render/constants.ts';

/** The smallest normal float32: below it (and above 0) a Float32Array holds a subnormal. */
const FLOAT32_MIN_NORMAL = 2 ** -126;

/** A second of seeded noise, then `silence` seconds of zeros. */
function burstThenSilence(seed: number, silence: number): Float32Array {
  const out = new Float32Array((1 + silence) * SAMPLE_RATE);
  let state = seed;
  for (let i = 0; i < SAMPLE_RATE; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = (state / 2 ** 31 - 1) * 0.5;
  }
  return out;
}

function subnormals(signal: Float32Array): number {
  let count = 0;
  for (const value of signal) if (value !== 0 && Math.abs(value) < FLOAT32_MIN_NORMAL) count++;
  return count;
}

test('flushed makes values below 1e-30 exactly zero and keeps the rest', (t) => {
  t.is(flushed(1e-31), 0);
  t.is(flushed(-1e-31), 0);
  t.is(flushed(1e-29), 1e-29);
  t.is(flushed(-0.25), -0.25);
});

test('a biquad fed silence after sound ends in zeros, not subnormals', (t) => {
  const signal = burstThenSilence(1, 3);
  filterInPlace(signal, biquad('highpass', 100, 0.7));
  t.true(subnormals(signal) <= FLUSH_MASK + 1);
  t.is(signal[signal.length - 1], 0);
});

for (const group of ['bass', 'harmony', 'lead'] satisfies MixGroup[]) {
  test(`the ${group} group's filters end a rest in zeros, not subnormals`, (t) => {
    const left = burstThenSilence(2, 3),
      right = burstThenSilence(3, 3);
    processGroup(group, { left, right }, true);
    t.true(subnormals(left) + subnormals(right) <= 2 * (FLUSH_MASK + 1));
    t.is(left[left.length - 1], 0);
  });
}
