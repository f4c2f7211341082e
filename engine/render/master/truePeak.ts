/**
 * True-peak estimation by 4× oversampling (BS.1770-4 Annex 2): each sample interval is interpolated at three
 * fractional positions with a windowed-sinc kernel, and the largest magnitude is the interval's peak.
 */

const HALF_TAPS = 8;
const PHASES = 4;

/** kernels[p][t]: weight of sample (k - HALF_TAPS + 1 + t) for the value at k + p/4. */
const kernels: Float64Array[] = [];
for (let p = 1; p < PHASES; p++) {
  const fraction = p / PHASES;
  const kernel = new Float64Array(2 * HALF_TAPS);
  let sum = 0;
  for (let t = 0; t < kernel.length; t++) {
    const x = t - HALF_TAPS + 1 - fraction;
    const sinc = Math.sin(Math.PI * x) / (Math.PI * x);
    const w = 0.42 + 0.5 * Math.cos((Math.PI * x) / HALF_TAPS) + 0.08 * Math.cos((2 * Math.PI * x) / HALF_TAPS);
    kernel[t] = sinc * w;
    sum += kernel[t]!;
  }
  for (let t = 0; t < kernel.length; t++) kernel[t]! /= sum;
  kernels.push(kernel);
}

/** Largest interpolated magnitude between sample k and k+1 (inclusive of sample k). */
export function intervalPeak(channel: Float32Array, k: number): number {
  let peak = Math.abs(channel[k]!);
  const first = k - HALF_TAPS + 1;
  if (first < 0 || first + 2 * HALF_TAPS > channel.length) return peak;
  for (const kernel of kernels) {
    let value = 0;
    for (let t = 0; t < kernel.length; t++) value += kernel[t]! * channel[first + t]!;
    peak = Math.max(peak, Math.abs(value));
  }
  return peak;
}

/**
 * Per-sample true-peak magnitude, computed exactly only where the sample peak is within 6 dB of `floor`
 * (an interval's true peak cannot exceed its neighbourhood's sample peak by that much in real music), else the
 * sample magnitude. Keeps the cost near a single pass.
 */
export function truePeakEnvelope(left: Float32Array, right: Float32Array, floor: number): Float32Array {
  const out = new Float32Array(left.length);
  const threshold = floor * 0.5;
  for (let k = 0; k < left.length; k++) {
    const l = Math.abs(left[k]!), r = Math.abs(right[k]!);
    const near = Math.max(l, r, Math.abs(left[k + 1] ?? 0), Math.abs(right[k + 1] ?? 0));
    out[k] = near >= threshold ? Math.max(intervalPeak(left, k), intervalPeak(right, k)) : Math.max(l, r);
  }
  return out;
}

/** The true peak of a stereo signal in dBTP. */
export function truePeakDb(left: Float32Array, right: Float32Array): number {
  let samplePeak = 0;
  for (let k = 0; k < left.length; k++) samplePeak = Math.max(samplePeak, Math.abs(left[k]!), Math.abs(right[k]!));
  const envelope = truePeakEnvelope(left, right, samplePeak);
  let peak = 0;
  for (let k = 0; k < envelope.length; k++) peak = Math.max(peak, envelope[k]!);
  return 20 * Math.log10(peak);
}
