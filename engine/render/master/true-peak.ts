/**
 * True-peak estimation by 4× oversampling (BS.1770-4 Annex 2): each sample interval is interpolated at three
 * fractional positions with a windowed-sinc kernel, and the largest magnitude is the interval's peak.
 */

const HALF_TAPS = 8;
const PHASES = 4;
/**
 * Intervals whose two samples are both below this fraction of the level of interest are not interpolated:
 * in band-limited music an inter-sample peak rarely exceeds its neighbouring samples by more than ~3 dB, and
 * skipping the quieter majority keeps the cost near one pass.
 */
const INTERPOLATE_ABOVE = 0.7;

/** kernels[p][t]: weight of sample (k - HALF_TAPS + 1 + t) for the value at k + (p+1)/4. */
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
    sum += kernel[t] ?? 0;
  }
  for (let t = 0; t < kernel.length; t++) kernel[t] = (kernel[t] ?? 0) / sum;
  kernels.push(kernel);
}

/**
 * The kernels interleaved by tap, taps[3t + p] = kernels[p][t], so one pass over the 16 samples reads each once and
 * feeds the three phases (each phase still sums its taps in order, t = 0 to 15: the same value to the last bit).
 */
const taps = new Float64Array(kernels.length * 2 * HALF_TAPS);
for (let t = 0; t < 2 * HALF_TAPS; t++)
  for (const [p, kernel] of kernels.entries()) taps[kernels.length * t + p] = kernel[t] ?? 0;

/** Largest magnitude between sample k and k+1 (including sample k), from the 4× interpolation. */
export function intervalPeak(channel: Float32Array, k: number): number {
  const peak = Math.abs(channel[k] ?? 0);
  const first = k - HALF_TAPS + 1;
  if (first < 0 || first + 2 * HALF_TAPS > channel.length) return Math.max(peak, Math.abs(channel[k + 1] ?? 0));
  let a = 0,
    b = 0,
    c = 0;
  for (let t = 0; t < 2 * HALF_TAPS; t++) {
    const x = channel[first + t] ?? 0;
    a += (taps[3 * t] ?? 0) * x;
    b += (taps[3 * t + 1] ?? 0) * x;
    c += (taps[3 * t + 2] ?? 0) * x;
  }
  return Math.max(peak, Math.abs(a), Math.abs(b), Math.abs(c));
}

/**
 * The larger channel's peak between frames k and k + 1: interpolated where either sample reaches `threshold`,
 * otherwise the larger sample magnitude.
 */
function stereoIntervalPeak(left: Float32Array, right: Float32Array, k: number, threshold: number): number {
  const k1 = k + 1 < left.length ? k + 1 : k;
  const l = Math.max(Math.abs(left[k] ?? 0), Math.abs(left[k1] ?? 0));
  const r = Math.max(Math.abs(right[k] ?? 0), Math.abs(right[k1] ?? 0));
  const peakL = l >= threshold ? intervalPeak(left, k) : l;
  const peakR = r >= threshold ? intervalPeak(right, k) : r;
  return Math.max(peakL, peakR);
}

/**
 * Per-interval true-peak magnitude of a stereo signal scaled by `gain`, exact wherever it could come near
 * `level` (sample peaks above INTERPOLATE_ABOVE × level), otherwise the larger sample magnitude. No render path holds
 * it any more (the limiter takes truePeakNeed, the meter truePeakDb): it is the reference both are checked against, so
 * it stays in its plain form.
 */
export function truePeakEnvelope(left: Float32Array, right: Float32Array, level: number, gain = 1): Float32Array {
  const out = new Float32Array(left.length);
  const threshold = (level * INTERPOLATE_ABOVE) / gain;
  for (let k = 0; k < left.length; k++) out[k] = stereoIntervalPeak(left, right, k, threshold) * gain;
  return out;
}

/**
 * The true peak of a stereo signal in dBTP: the largest value truePeakEnvelope would hold, without holding it.
 * Only the intervals next to a sample at or above INTERPOLATE_ABOVE × the sample peak are measured: any other
 * interval's value is its larger sample, under that, while the interval starting at the sample peak holds at least
 * the sample peak. The same figure to the last bit, for a pass that mostly only compares.
 */
export function truePeakDb(left: Float32Array, right: Float32Array): number {
  const n = left.length;
  let samplePeak = 0;
  for (let k = 0; k < n; k++) samplePeak = Math.max(samplePeak, Math.abs(left[k] ?? 0), Math.abs(right[k] ?? 0));
  const threshold = samplePeak * INTERPOLATE_ABOVE;
  let peak = 0;
  // The last interval measured: a loud sample bounds the interval before it and its own.
  let measured = -1;
  for (let k = 0; k < n; k++) {
    if (Math.abs(left[k] ?? 0) < threshold && Math.abs(right[k] ?? 0) < threshold) continue;
    // Rounded to a float32 as the envelope stores it, so the figure is the same to the last bit.
    for (let m = Math.max(measured + 1, k - 1); m <= k; m++)
      peak = Math.max(peak, Math.fround(stereoIntervalPeak(left, right, m, threshold)));
    measured = k;
  }
  return 20 * Math.log10(peak);
}

/**
 * The gain each interval needs for its true peak, scaled by `gain`, to stay at or under `ceiling`: ceiling / peak
 * where truePeakEnvelope(left, right, ceiling, gain) exceeds the ceiling, 1 elsewhere. An interval whose samples are
 * all under INTERPOLATE_ABOVE × ceiling / gain needs 1 without being measured (its envelope value is its larger
 * sample scaled, under 0.7 × the ceiling), so the pass mostly compares: finding the larger of two samples is a branch
 * the CPU mispredicts about every other frame on music. The same values as mapping the envelope, to the bit.
 */
export function truePeakNeed(left: Float32Array, right: Float32Array, ceiling: number, gain = 1): Float32Array {
  const n = left.length;
  const need = new Float32Array(n);
  const threshold = (ceiling * INTERPOLATE_ABOVE) / gain;
  // Whether frame k has a sample at or above the threshold; interval k is measured when frame k or k + 1 has.
  let loud = n > 0 && (Math.abs(left[0] ?? 0) >= threshold || Math.abs(right[0] ?? 0) >= threshold);
  for (let k = 0; k < n; k++) {
    const next = k + 1 < n && (Math.abs(left[k + 1] ?? 0) >= threshold || Math.abs(right[k + 1] ?? 0) >= threshold);
    if (loud || next) {
      // Rounded to a float32 as the envelope stores it.
      const peak = Math.fround(stereoIntervalPeak(left, right, k, threshold) * gain);
      need[k] = peak > ceiling ? ceiling / peak : 1;
    } else need[k] = 1;
    loud = next;
  }
  return need;
}
