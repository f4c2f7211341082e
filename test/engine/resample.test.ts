/** 44.1 -> 48 kHz resampling, against the analytic signal: the same tone at the new rate, the same length in time. */
import test from 'ava';
import { resampleStereo } from '../../engine/encode/resample.ts';

const tone = (frequency: number, rate: number, frames: number, amplitude = 0.5) =>
  Float32Array.from({ length: frames }, (_, i) => amplitude * Math.sin((2 * Math.PI * frequency * i) / rate));

test('a 1 kHz and a 10 kHz tone come out as the same tones at 48 kHz, errors 80 dB down, each channel its own', (t) => {
  const [left, right] = resampleStereo(tone(1000, 44100, 44100), tone(10000, 44100, 44100), 44100, 48000);
  t.is(left.length, 48000);
  for (const [out, frequency] of [
    [left, 1000],
    [right, 10000],
  ] as const) {
    const expected = tone(frequency, 48000, 48000);
    let error = 0;
    // Away from the ends, where the filter sees silence beyond the signal.
    for (let i = 100; i < 47900; i++) error = Math.max(error, Math.abs(out[i]! - expected[i]!));
    t.true(20 * Math.log10(error / 0.5) < -80, `${frequency} Hz: ${(20 * Math.log10(error / 0.5)).toFixed(1)} dB`);
  }
});

test('the length in time is kept (rounded to a frame), and equal rates return the input itself', (t) => {
  const input = new Float32Array(44100 * 3 + 7).fill(0.25);
  const [out] = resampleStereo(input, input.slice(), 44100, 48000);
  t.is(out.length, Math.round(((44100 * 3 + 7) * 48000) / 44100));
  t.true(Math.abs(out[out.length / 2]! - 0.25) < 1e-5, 'a constant stays that constant');
  const same = resampleStereo(input, input, 48000, 48000);
  t.is(same[0], input);
});
