/** Small filters for sample-level work in plain TypeScript (textures, reverb send decimation). */

/** Below this a filter's state is inaudible by 600 dB: it is made exactly 0 (see flushed). */
const TINY = 1e-30;

/**
 * `value`, or 0 when it is smaller than TINY. A recursive filter fed silence decays towards zero through the
 * subnormal numbers (below 1e-38 in a Float32Array, 1e-308 in a double), which the CPU handles tens of times
 * slower than normal ones: a group's filters ran four to eight times slower on a track with rests than on one without.
 * Flushing the filter's state ends the decay before it gets there. At 1e-30 the difference is far below a
 * 24-bit sample's step, so the rendered files do not change.
 */
export function flushed(value: number): number {
  return value < TINY && value > -TINY ? 0 : value;
}

/**
 * Filters flush their states once every FLUSH_MASK + 1 frames (when `(i & FLUSH_MASK) === FLUSH_MASK`): per
 * frame the comparisons cost a fifth of a stereo cascade's time, and between two flushes a decay leaves at most a
 * few dozen subnormal samples.
 */
export const FLUSH_MASK = 255;

/** Topology-preserving-transform state-variable filter (low-pass and band-pass outputs); cutoff may move. */
export class StateVariableFilter {
  private ic1 = 0;
  private ic2 = 0;
  private a1 = 0;
  private a2 = 0;
  private a3 = 0;

  constructor(
    private readonly sampleRate: number,
    frequency: number,
    private q: number,
  ) {
    this.setFrequency(frequency);
  }

  setFrequency(frequency: number): void {
    const g = Math.tan((Math.PI * Math.min(frequency, this.sampleRate * 0.45)) / this.sampleRate);
    const k = 1 / this.q;
    this.a1 = 1 / (1 + g * (g + k));
    this.a2 = g * this.a1;
    this.a3 = g * this.a2;
  }

  /** Processes one sample; returns [low-pass, band-pass] through the out array to avoid allocation. */
  process(input: number, out: { low: number; band: number }): void {
    const v3 = input - this.ic2;
    const v1 = this.a1 * this.ic1 + this.a2 * v3;
    const v2 = this.ic2 + this.a2 * this.ic1 + this.a3 * v3;
    this.ic1 = 2 * v1 - this.ic1;
    this.ic2 = 2 * v2 - this.ic2;
    out.low = v2;
    out.band = v1;
  }
}

/** In-place one-pole high-pass (removes rumble from noise beds). */
export function highPassInPlace(data: Float32Array, frequency: number, sampleRate: number): void {
  const a = Math.exp((-2 * Math.PI * frequency) / sampleRate);
  let lastIn = 0;
  let lastOut = 0;
  for (let i = 0; i < data.length; i++) {
    const x = data[i] ?? 0;
    lastOut = a * (lastOut + x - lastIn);
    lastIn = x;
    data[i] = lastOut;
  }
}

/** In-place one-pole low-pass. */
export function lowPassInPlace(data: Float32Array, frequency: number, sampleRate: number): void {
  const a = Math.exp((-2 * Math.PI * frequency) / sampleRate);
  let state = 0;
  for (let i = 0; i < data.length; i++) {
    state = (data[i] ?? 0) + a * (state - (data[i] ?? 0));
    data[i] = state;
  }
}

export function rmsOf(data: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += (data[i] ?? 0) * (data[i] ?? 0);
  return data.length > 0 ? Math.sqrt(sum / data.length) : 0;
}

/**
 * A sine LFO by rotation: two multiply-adds a frame instead of Math.sin, renormalised every 4096 frames so the
 * rounding errors of the rotation never grow. `value` is the sine now; `advance()` moves one frame on.
 */
export class SineLfo {
  value: number;
  private cos: number;
  private readonly cosStep: number;
  private readonly sinStep: number;
  private frame = 0;

  constructor(frequency: number, sampleRate: number, phase = 0) {
    const omega = (2 * Math.PI * frequency) / sampleRate;
    this.cosStep = Math.cos(omega);
    this.sinStep = Math.sin(omega);
    this.value = Math.sin(phase);
    this.cos = Math.cos(phase);
  }

  advance(): void {
    const sin = this.value * this.cosStep + this.cos * this.sinStep;
    this.cos = this.cos * this.cosStep - this.value * this.sinStep;
    this.value = sin;
    if ((this.frame++ & 4095) === 0) {
      const norm = 1 / Math.hypot(this.value, this.cos);
      this.value *= norm;
      this.cos *= norm;
    }
  }
}

/** [b0, b1, b2, a1, a2] of an RBJ peaking equalizer (the singer's-formant lift, the mix groups' EQ). */
export function peaking(frequency: number, q: number, gainDb: number, sampleRate: number): Float64Array {
  const amp = 10 ** (gainDb / 40);
  const w = (2 * Math.PI * frequency) / sampleRate;
  const alpha = Math.sin(w) / (2 * q);
  const a0 = 1 + alpha / amp;
  return Float64Array.of(
    (1 + alpha * amp) / a0,
    (-2 * Math.cos(w)) / a0,
    (1 - alpha * amp) / a0,
    (-2 * Math.cos(w)) / a0,
    (1 - alpha / amp) / a0,
  );
}
