/**
 * How the band makes room for the voice, on synthetic signals (cheap: no song rendered): the duck and the
 * presence band carved under the voice (duckUnder), measured by the tests' own FFT, not by the engine's filters.
 */
import test from 'ava';
import { duckUnder } from '../../engine/render/vocal.ts';
import { powerSpectrum } from '../helpers/analysis/bands.ts';
import { createRandom } from '../../engine/random.ts';

const SAMPLE_RATE = 44100;
const SIZE = 4096;

function noise(frames: number, seed: string): Float32Array {
  const random = createRandom(1, seed);
  return Float32Array.from({ length: frames }, () => random.next() * 2 - 1);
}

/** Mean power (dB) of the spectrum between two frequencies. */
function bandDb(power: Float64Array, low: number, high: number): number {
  const binHz = SAMPLE_RATE / SIZE;
  let sum = 0;
  let count = 0;
  for (let k = Math.ceil(low / binHz); k * binHz < high; k++, count++) sum += power[k] ?? 0;
  return 10 * Math.log10(sum / count);
}

test('under a voice, the band ducks a little and its presence band (2–4.5 kHz) is carved ~4 dB more; without a voice nothing changes (FFT of white noise)', (t) => {
  const frames = SAMPLE_RATE * 2;
  // A steady voice over the second second only.
  const voice = new Float32Array(frames);
  for (let i = SAMPLE_RATE; i < frames; i++) voice[i] = 0.5 * Math.sin((2 * Math.PI * 220 * i) / SAMPLE_RATE);
  const band = noise(frames, 'band');
  const original = band.slice();
  duckUnder(voice, { from: 0, to: frames }, 1 - 10 ** (-2.5 / 20), 1 - 10 ** (-4 / 20))(band);
  const cut = (from: number, to: number, low: number, high: number) =>
    bandDb(powerSpectrum(band.subarray(from, to), SIZE), low, high) -
    bandDb(powerSpectrum(original.subarray(from, to), SIZE), low, high);
  // Where the voice is silent the band is untouched.
  t.deepEqual(band.subarray(0, SAMPLE_RATE * 0.9), original.subarray(0, SAMPLE_RATE * 0.9));
  const sung = [SAMPLE_RATE * 1.3, frames] as const;
  const low = cut(...sung, 300, 800);
  const presence = cut(...sung, 2500, 3500);
  const air = cut(...sung, 12000, 16000);
  t.log(
    `cut under the voice: 300–800 Hz ${low.toFixed(1)} dB, 2.5–3.5 kHz ${presence.toFixed(1)} dB, 12–16 kHz ${air.toFixed(1)} dB`,
  );
  t.true(low < -1.5 && low > -3.5, 'the band as a whole ducks about 2.5 dB');
  t.true(presence - low < -3 && presence - low > -5.5, 'the presence band about 4 dB more');
  t.true(Math.abs(air - low) < 1, 'far from the presence band only the duck');
});
