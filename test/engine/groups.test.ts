/**
 * The per-group EQ of the dry mix, measured with the tests' own FFT (test/helpers/analysis/bands.ts): in an
 * arrangement with a bass, the harmony submix leaves the low end to it.
 */
import test from 'ava';
import { processGroup } from '../../engine/render/groups.ts';
import { SAMPLE_RATE } from '../../engine/render/constants.ts';
import { powerSpectrum } from '../helpers/analysis/bands.ts';

/** Seeded white noise (a small LCG, not the engine's generator). */
function noise(length: number, seed: number): Float32Array {
  const out = new Float32Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state / 2 ** 31 - 1;
  }
  return out;
}

/** Share of the energy from 20 to 80 Hz in the energy from 20 Hz up. */
function shareBelow80(signal: Float32Array): number {
  const size = 8192;
  const power = powerSpectrum(signal, size);
  let low = 0,
    total = 0;
  for (let k = 0; k < power.length; k++) {
    const hz = (k * SAMPLE_RATE) / size;
    if (hz < 20) continue;
    total += power[k]!;
    if (hz < 80) low += power[k]!;
  }
  return low / total;
}

test('with a bass in the arrangement, the harmony submix keeps under a tenth of its energy below 80 Hz', (t) => {
  const left = noise(4 * SAMPLE_RATE, 1),
    right = noise(4 * SAMPLE_RATE, 2);
  const before = shareBelow80(left);
  processGroup('harmony', { left, right }, true);
  for (const channel of [left, right]) {
    const after = shareBelow80(channel);
    t.true(after < before / 10, `share below 80 Hz ${after.toExponential(2)} (input ${before.toExponential(2)})`);
  }
});
