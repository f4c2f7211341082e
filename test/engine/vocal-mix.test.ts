/**
 * How the voice is placed against the band, on synthetic signals (cheap: no song rendered): the band's presence
 * carved under the voice (duckUnder) and the lead's own plate (addPlate), measured by the tests' own FFT and
 * energy decay, not by the engine's filters.
 */
import test from 'ava';
import { duckUnder } from '../../engine/render/vocal.ts';
import { addPlate } from '../../engine/render/plate.ts';
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

test("the lead's plate: a dense stereo tail falling 60 dB in about its decay, bright but without low end (Schroeder decay and FFT of its impulse response)", (t) => {
  const frames = SAMPLE_RATE * 3;
  const send = new Float32Array(frames);
  send[100] = 1;
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  addPlate(send, left, right, 0, 200, { decay: 1.2, gain: 1 });
  t.deepEqual(
    [...send.subarray(0, 200)].filter((x) => x !== 0),
    [1],
    'the send is only read',
  );
  // Schroeder backward integration: the time from −5 to −35 dB, doubled, is the T60.
  const energy = new Float64Array(frames + 1);
  for (let i = frames - 1; i >= 0; i--) energy[i] = (energy[i + 1] ?? 0) + (left[i] ?? 0) ** 2 + (right[i] ?? 0) ** 2;
  const db = (i: number) => 10 * Math.log10((energy[i] ?? 0) / (energy[0] ?? 1));
  let at5 = 0;
  while (db(at5) > -5) at5++;
  let at35 = at5;
  while (db(at35) > -35) at35++;
  const t60 = ((at35 - at5) / SAMPLE_RATE) * 2;
  const first = left.findIndex((x) => x !== 0) / SAMPLE_RATE;
  let dot = 0;
  let ll = 0;
  let rr = 0;
  for (let i = 0; i < frames; i++) {
    dot += (left[i] ?? 0) * (right[i] ?? 0);
    ll += (left[i] ?? 0) ** 2;
    rr += (right[i] ?? 0) ** 2;
  }
  const correlation = dot / Math.sqrt(ll * rr);
  const power = powerSpectrum(left.subarray(0, SAMPLE_RATE), SIZE);
  const lowDb = bandDb(power, 40, 120);
  const midDb = bandDb(power, 1000, 3000);
  t.log(
    `T60 ${t60.toFixed(2)} s, first echo ${(first * 1000).toFixed(0)} ms after the send, L/R correlation ${correlation.toFixed(2)}, 40–120 Hz ${(lowDb - midDb).toFixed(1)} dB under 1–3 kHz`,
  );
  t.true(t60 > 0.9 && t60 < 1.5);
  t.true(first > 0.02 && first < 0.1, 'a pre-delay: the word before its plate');
  t.true(Math.abs(correlation) < 0.3, 'wide');
  t.true(lowDb - midDb < -10, 'no chest boom');
});
