/**
 * Filter coefficients for the synthesizer, written into a shared Float64Array so the per-sample loop can keep
 * every coefficient and state in local variables (no objects, no calls, no allocation per sample).
 *
 * Klatt (1980) resonator: y[n] = A x[n] + B y[n-1] + C y[n-2]; antiresonator (a zero): its inverse,
 * y[n] = A' x[n] + B' x[n-1] + C' x[n-2]. Noise bands and the singer's-formant lift are RBJ-cookbook biquads.
 */

/** Writes [A, B, C] of a Klatt resonator with unity gain at 0 Hz (the cascade branch) at `out[at]`. */
export function resonator(
  frequency: number,
  bandwidth: number,
  sampleRate: number,
  out: Float64Array,
  at: number,
): void {
  const r = Math.exp((-Math.PI * bandwidth) / sampleRate);
  const c = -r * r;
  const b = 2 * r * Math.cos((2 * Math.PI * Math.min(frequency, sampleRate * 0.45)) / sampleRate);
  out[at] = 1 - b - c;
  out[at + 1] = b;
  out[at + 2] = c;
}

/** Writes [A', B', C'] of Klatt's antiresonator (unity gain at 0 Hz): with the same F and BW it cancels a resonator. */
export function antiResonator(
  frequency: number,
  bandwidth: number,
  sampleRate: number,
  out: Float64Array,
  at: number,
): void {
  resonator(frequency, bandwidth, sampleRate, out, at);
  const a = out[at] ?? 0;
  out[at] = 1 / a;
  out[at + 1] = -(out[at + 1] ?? 0) / a;
  out[at + 2] = -(out[at + 2] ?? 0) / a;
}

/**
 * Writes [b0, a1, a2] of a band-pass with 0 dB peak (b1 = 0, b2 = -b0): it falls 6 dB/octave on both sides,
 * so fricative noise has no energy left at 0 Hz or at Nyquist.
 */
export function bandPass(
  frequency: number,
  bandwidth: number,
  sampleRate: number,
  out: Float64Array,
  at: number,
): void {
  const w = (2 * Math.PI * Math.min(frequency, sampleRate * 0.45)) / sampleRate;
  const alpha = (Math.sin(w) * Math.min(bandwidth, frequency * 2)) / (2 * frequency);
  const a0 = 1 + alpha;
  out[at] = alpha / a0;
  out[at + 1] = (-2 * Math.cos(w)) / a0;
  out[at + 2] = (1 - alpha) / a0;
}
