/** Where a sound's energy is: shares of spectral energy by band, from averaged Hann-windowed FFT frames. */
import { forEachSpectrum } from './stft.ts';

/** Energy per FFT bin averaged over the signal's frames (bin k at k · sampleRate / size Hz). */
export function powerSpectrum(signal: Float32Array, size = 1024): Float64Array {
  const power = new Float64Array(size / 2 + 1);
  const hop = size / 2;
  const frames = forEachSpectrum(signal, { size, hop }, (mag) => {
    for (let k = 0; k < mag.length; k++) power[k]! += mag[k]! * mag[k]!;
  });
  for (let k = 0; k < power.length; k++) power[k]! /= frames;
  return power;
}

/** Share (0–1) of the energy between lowHz and highHz, out of all energy above 50 Hz. */
export function bandShare(
  signal: Float32Array,
  sampleRate: number,
  lowHz: number,
  highHz: number,
  size = 1024,
): number {
  const power = powerSpectrum(signal, size);
  const binHz = sampleRate / size;
  let band = 0;
  let total = 0;
  for (let k = 0; k < power.length; k++) {
    const f = k * binHz;
    if (f < 50) continue;
    total += power[k]!;
    if (f >= lowHz && f < highHz) band += power[k]!;
  }
  return total === 0 ? 0 : band / total;
}
