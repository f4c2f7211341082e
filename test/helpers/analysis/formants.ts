/**
 * Formant estimation by linear prediction, written for the singer's tests (independent of the synthesizer):
 * low-pass and decimate to ~11 kHz, pre-emphasize, Hamming-window 40 ms frames, LPC by the autocorrelation
 * method (Levinson–Durbin), then take the formants as the roots of each frame's LPC polynomial (Durand–Kerner),
 * keeping resonant ones (bandwidth < 500 Hz). Roots, unlike envelope peaks, keep two close formants apart (F1
 * and F2 of /a/). The result is the median over frames of each formant, so a few odd frames do not decide it.
 */

export interface FormantOptions {
  /** LPC order at the decimated rate; default 12 (2 + kHz, the usual rule). */
  order?: number;
  /** Frame length in seconds; default 0.04. */
  frame?: number;
}

const DECIMATE = 4;

/** A windowed-sinc low-pass FIR (Blackman), `taps` odd, cutoff in Hz. */
function lowPassTaps(cutoff: number, sampleRate: number, taps: number): Float64Array {
  const h = new Float64Array(taps);
  const mid = (taps - 1) / 2;
  const fc = cutoff / sampleRate;
  let sum = 0;
  for (let i = 0; i < taps; i++) {
    const n = i - mid;
    const sinc = n === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * n) / (Math.PI * n);
    const w = 0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (taps - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (taps - 1));
    h[i] = sinc * w;
    sum += h[i]!;
  }
  for (let i = 0; i < taps; i++) h[i]! /= sum;
  return h;
}

function decimate(signal: Float32Array, sampleRate: number): { data: Float64Array; rate: number } {
  const rate = sampleRate / DECIMATE;
  const h = lowPassTaps(rate * 0.45, sampleRate, 101);
  const out = new Float64Array(Math.floor(signal.length / DECIMATE));
  for (let j = 0; j < out.length; j++) {
    let acc = 0;
    const centre = j * DECIMATE;
    for (let t = 0; t < h.length; t++) acc += h[t]! * (signal[centre + t - 50] ?? 0);
    out[j] = acc;
  }
  return { data: out, rate };
}

/** LPC coefficients a[1..order] (x[n] ≈ Σ a_k x[n-k]) by Levinson–Durbin on the autocorrelation. */
export function lpc(frame: Float64Array, order: number): Float64Array | null {
  const r = new Float64Array(order + 1);
  for (let lag = 0; lag <= order; lag++) {
    let acc = 0;
    for (let i = lag; i < frame.length; i++) acc += frame[i]! * frame[i - lag]!;
    r[lag] = acc;
  }
  if (r[0]! <= 0) return null;
  r[0]! *= 1 + 1e-9; // a whisker of white-noise correction keeps the recursion stable
  let a = new Float64Array(order + 1);
  let err = r[0]!;
  for (let i = 1; i <= order; i++) {
    let acc = r[i]!;
    for (let j = 1; j < i; j++) acc -= a[j]! * r[i - j]!;
    const k = acc / err;
    const next = new Float64Array(order + 1);
    next[i] = k;
    for (let j = 1; j < i; j++) next[j] = a[j]! - k * a[i - j]!;
    a = next;
    err *= 1 - k * k;
    if (err <= 0) return null;
  }
  return a;
}

/** Roots of the monic polynomial z^n + c[1] z^(n-1) + … + c[n] by Durand–Kerner iteration, as [re, im] pairs. */
export function polynomialRoots(c: Float64Array): [number, number][] {
  const n = c.length - 1;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // The customary start: powers of a complex number that is neither real nor a root of unity.
    const angle = (2 * Math.PI * i) / n + 0.4;
    re[i] = 0.9 * Math.cos(angle);
    im[i] = 0.9 * Math.sin(angle);
  }
  for (let iter = 0; iter < 500; iter++) {
    let moved = 0;
    for (let i = 0; i < n; i++) {
      // p(z_i) by Horner, then divide by Π (z_i - z_j).
      let pr = 1;
      let pi = 0;
      for (let k = 1; k <= n; k++) {
        const r = pr * re[i]! - pi * im[i]! + c[k]!;
        pi = pr * im[i]! + pi * re[i]!;
        pr = r;
      }
      let dr = 1;
      let di = 0;
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        const xr = re[i]! - re[j]!;
        const xi = im[i]! - im[j]!;
        const r = dr * xr - di * xi;
        di = dr * xi + di * xr;
        dr = r;
      }
      const den = dr * dr + di * di || 1e-300;
      const qr = (pr * dr + pi * di) / den;
      const qi = (pi * dr - pr * di) / den;
      re[i]! -= qr;
      im[i]! -= qi;
      moved = Math.max(moved, Math.hypot(qr, qi));
    }
    if (moved < 1e-12) break;
  }
  return Array.from({ length: n }, (_, i) => [re[i]!, im[i]!] as [number, number]);
}

/** Formant frequencies (ascending) from LPC roots: upper-half-plane roots with bandwidth < maxBandwidth. */
export function lpcFormants(a: Float64Array, rate: number, maxBandwidth = 500): number[] {
  const c = Float64Array.from(a, (v, k) => (k === 0 ? 1 : -v));
  return polynomialRoots(c)
    .filter(([, im]) => im > 0)
    .map(([re, im]) => ({
      f: (Math.atan2(im, re) * rate) / (2 * Math.PI),
      bw: (-Math.log(Math.hypot(re, im)) * rate) / Math.PI,
    }))
    .filter(({ f, bw }) => f > 90 && f < rate / 2 - 50 && bw < maxBandwidth)
    .map(({ f }) => f)
    .sort((x, y) => x - y);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Median F1, F2, F3 (Hz) of a (sustained vowel) signal; NaN where no frame had that many peaks. */
export function formantsOf(
  signal: Float32Array,
  sampleRate: number,
  options: FormantOptions = {},
): [number, number, number] {
  const { data, rate } = decimate(signal, sampleRate);
  const order = options.order ?? 12;
  const size = Math.round((options.frame ?? 0.04) * rate);
  const hop = Math.round(size / 2);
  const frame = new Float64Array(size);
  const tracks: [number[], number[], number[]] = [[], [], []];
  for (let start = 0; start + size <= data.length; start += hop) {
    let energy = 0;
    for (let i = 0; i < size; i++) {
      // Pre-emphasis (first difference) flattens the glottal tilt so LPC spends its poles on the formants.
      const x = data[start + i]! - 0.95 * (data[start + i - 1] ?? 0);
      frame[i] = x * (0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (size - 1)));
      energy += x * x;
    }
    if (energy === 0) continue;
    const a = lpc(frame, order);
    if (!a) continue;
    lpcFormants(a, rate)
      .slice(0, 3)
      .forEach((f, i) => {
        tracks[i]!.push(f);
      });
  }
  return [median(tracks[0]), median(tracks[1]), median(tracks[2])];
}
