/**
 * The reverb's impulse for an acoustic style, measured with the tests' own FFT (test/helpers/analysis/bands.ts):
 * like a real hall, its highs die away faster than its lows.
 */
import test from 'ava';
import { REVERB_RATE, reverbSpaceOf, spaceImpulse } from '../../engine/render/reverb.ts';
import { createRandom } from '../../engine/random.ts';
import { powerSpectrum } from '../helpers/analysis/bands.ts';

const SIZE = 1024;

/** Energy (dB) between lowHz and highHz over `seconds` of the impulse from `from` seconds. */
function bandDb(impulse: Float32Array, from: number, seconds: number, lowHz: number, highHz: number): number {
  const slice = impulse.subarray(Math.round(from * REVERB_RATE), Math.round((from + seconds) * REVERB_RATE));
  const power = powerSpectrum(slice, SIZE);
  let sum = 0;
  for (let k = 0; k < power.length; k++) {
    const hz = (k * REVERB_RATE) / SIZE;
    if (hz >= lowHz && hz < highHz) sum += power[k]!;
  }
  return 10 * Math.log10(sum);
}

test("an orchestral hall's impulse loses its highs (2–5 kHz) at least 10 dB sooner than its lows (150–600 Hz)", (t) => {
  const decay = 3.5;
  const space = reverbSpaceOf({
    genre: 'orchestral',
    effects: { reverb: 0.5, reverbDecay: decay, delay: 0, lofi: false, rain: false, brightness: 14000 },
  });
  for (const impulse of spaceImpulse(space, createRandom(1, 'reverb'), REVERB_RATE)) {
    const drop = (lowHz: number, highHz: number) =>
      bandDb(impulse, 0.05, 0.4, lowHz, highHz) - bandDb(impulse, 0.6 * decay, 0.4, lowHz, highHz);
    const lows = drop(150, 600);
    const highs = drop(2000, 5000);
    t.true(highs - lows >= 10, `highs fell ${highs.toFixed(1)} dB, lows ${lows.toFixed(1)} dB`);
  }
});
