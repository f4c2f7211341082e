/**
 * How a loop's seam sounds, measured on the decoded WAV played twice end to end (never with the engine's own
 * numbers): the level step across the seam and the spectral flux there, each set beside the same figure at the
 * track's own bar lines, where the music itself moves on.
 */
import { forEachSpectrum } from './stft.ts';
import { median } from './tempo.ts';

/** Level frames: ~46 ms, short enough to see a click or a gap, long enough to average a waveform. */
const LEVEL_FRAME = 2048;
const FLUX = { size: 2048, hop: 256 } as const;
/** A seam or bar line's flux peak is looked for this close to it (humanized notes land a little off the grid). */
const FLUX_REACH_SECONDS = 0.06;
const FLOOR_DB = -120;
/**
 * Flux on log(1 + COMPRESSION × magnitude), the usual onset-detection compression: bins near the 16-bit noise
 * floor (or a sparse vinyl crackle's gaps) barely count, so their random ups and downs cannot outweigh a real
 * onset across the spectrum.
 */
const COMPRESSION = 100;

export interface SeamFigures {
  /** |level after − level before| at the seam, dB. */
  seamStep: number;
  /** The median |step| between consecutive level frames over the whole loop, dB. */
  medianStep: number;
  /** The same step at each bar line inside the loop. */
  barSteps: number[];
  /** The largest log-spectral flux near the seam, and near each bar line inside the loop. */
  seamFlux: number;
  barFlux: number[];
}

function levelDb(signal: Float32Array, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += signal[i]! * signal[i]!;
  return Math.max(FLOOR_DB, 10 * Math.log10(sum / (to - from) + 1e-30));
}

/** The level step across `at`: the frame that ends there against the one that starts there. */
function stepAt(signal: Float32Array, at: number): number {
  return Math.abs(levelDb(signal, at, at + LEVEL_FRAME) - levelDb(signal, at - LEVEL_FRAME, at));
}

/** Positive log-magnitude spectral flux per hop; index f is centred at f * hop + size / 2. */
function fluxOf(signal: Float32Array): Float64Array {
  const flux: number[] = [];
  let previous: Float64Array | null = null;
  forEachSpectrum(signal, FLUX, (magnitudes) => {
    const current = magnitudes.map((m) => Math.log1p(COMPRESSION * m));
    let sum = 0;
    if (previous) for (let k = 0; k < current.length; k++) sum += Math.max(0, current[k]! - previous[k]!);
    flux.push(sum);
    previous = current;
  });
  return Float64Array.from(flux);
}

function peakNear(flux: Float64Array, at: number, reach: number): number {
  let peak = 0;
  for (let f = 0; f < flux.length; f++) {
    const centre = f * FLUX.hop + FLUX.size / 2;
    if (Math.abs(centre - at) <= reach) peak = Math.max(peak, flux[f]!);
  }
  return peak;
}

/**
 * How abrupt the music is at each of `points` (frame indices) of `mono`: the level step across each point (dB)
 * and the largest spectral flux near it. For a splice's seams, set beside the same figures at the track's bar lines.
 */
export function abruptness(
  mono: Float32Array,
  sampleRate: number,
  points: readonly number[],
): { step: number; flux: number }[] {
  const flux = fluxOf(mono);
  const reach = FLUX_REACH_SECONDS * sampleRate;
  return points.map((at) => ({ step: stepAt(mono, at), flux: peakNear(flux, at, reach) }));
}

/** Seam figures of a loop `mono` (one channel or a mix of both) with `bars` bars. */
export function seamFigures(mono: Float32Array, sampleRate: number, bars: number): SeamFigures {
  const n = mono.length;
  const twice = new Float32Array(2 * n);
  twice.set(mono, 0);
  twice.set(mono, n);
  const steps: number[] = [];
  for (let at = LEVEL_FRAME; at + LEVEL_FRAME <= n; at += LEVEL_FRAME)
    steps.push(Math.abs(levelDb(mono, at, at + LEVEL_FRAME) - levelDb(mono, at - LEVEL_FRAME, at)));
  const barLines = Array.from({ length: bars - 1 }, (_, k) => Math.round(((k + 1) * n) / bars));
  const flux = fluxOf(twice);
  const reach = FLUX_REACH_SECONDS * sampleRate;
  // Bar lines are measured in the second copy, so each has the loop's own music on both sides as the seam does.
  return {
    seamStep: stepAt(twice, n),
    medianStep: median(steps),
    barSteps: barLines.map((at) => stepAt(twice, n + at)),
    seamFlux: peakNear(flux, n, reach),
    barFlux: barLines.map((at) => peakNear(flux, n + at, reach)),
  };
}
