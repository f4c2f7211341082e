/**
 * Short-time magnitude spectra with fft.js (MIT): the one spectral front end shared by the key,
 * centroid and percussive-onset analysers.
 */
import FFT from 'fft.js';

export interface StftOptions {
  /** Frame length in samples, a power of two. */
  size: number;
  hop: number;
}

function hann(size: number): Float32Array {
  const w = new Float32Array(size);
  for (let i = 0; i < size; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1));
  return w;
}

/**
 * Calls `visit(magnitudes, frameIndex)` for each Hann-windowed frame; `magnitudes` has size/2+1 bins,
 * bin k at k * sampleRate / size Hz. The array is reused between calls: copy it if you keep it.
 * Frames that would run past the end are zero-padded, so a short signal still yields one frame.
 */
export function forEachSpectrum(
  signal: Float32Array,
  { size, hop }: StftOptions,
  visit: (magnitudes: Float64Array, frameIndex: number) => void,
): number {
  const fft = new FFT(size);
  const window = hann(size);
  const input = new Float64Array(size);
  const out = fft.createComplexArray() as number[];
  const magnitudes = new Float64Array(size / 2 + 1);
  const frameCount = Math.max(1, Math.ceil((signal.length - size) / hop) + 1);
  for (let f = 0; f < frameCount; f++) {
    const start = f * hop;
    for (let i = 0; i < size; i++) input[i] = (signal[start + i] ?? 0) * window[i]!;
    fft.realTransform(out, input);
    for (let k = 0; k <= size / 2; k++) magnitudes[k] = Math.hypot(out[2 * k]!, out[2 * k + 1]!);
    visit(magnitudes, f);
  }
  return frameCount;
}
