/**
 * Formant estimation by linear prediction, written for the singer's tests (independent of the synthesizer):
 * low-pass and decimate to ~11 kHz, pre-emphasize, Hamming-window 40 ms frames, LPC by the autocorrelation
 * method (Levinson–Durbin), then pick the peaks of each frame's LPC envelope. The result is the median over
 * frames of each formant, so a few frames caught by a harmonic do not decide it.
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

/** Peaks of the LPC envelope 1/|A(e^jw)| between 90 Hz and maxHz, on a 5 Hz grid, ascending. */
export function envelopePeaks(a: Float64Array, rate: number, maxHz: number): number[] {
  const step = 5;
  const mags: number[] = [];
  for (let f = 0; f <= maxHz + step; f += step) {
    const w = (2 * Math.PI * f) / rate;
    let re = 1;
    let im = 0;
    for (let k = 1; k < a.length; k++) {
      re -= a[k]! * Math.cos(w * k);
      im += a[k]! * Math.sin(w * k);
    }
    mags.push(1 / Math.hypot(re, im));
  }
  const peaks: number[] = [];
  for (let i = 1; i < mags.length - 1; i++) {
    const f = i * step;
    if (f >= 90 && f <= maxHz && mags[i]! > mags[i - 1]! && mags[i]! >= mags[i + 1]!) peaks.push(f);
  }
  return peaks;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Median F1, F2, F3 (Hz) of a (sustained vowel) signal; NaN where no frame had that many peaks. */
export function formantsOf(signal: Float32Array, sampleRate: number, options: FormantOptions = {}): [number, number, number] {
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
    const peaks = envelopePeaks(a, rate, rate * 0.45);
    peaks.slice(0, 3).forEach((f, i) => tracks[i]!.push(f));
  }
  return [median(tracks[0]), median(tracks[1]), median(tracks[2])];
}
