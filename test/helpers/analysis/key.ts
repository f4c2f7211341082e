/**
 * Key estimation: a chroma vector from spectral peaks, correlated with the Krumhansl–Kessler key
 * profiles over all 24 major/minor keys (the classic Krumhansl–Schmuckler method), plus the MIREX
 * weighted key score used to grade it.
 */
import { forEachSpectrum } from './stft.ts';
import { monoMix, readWav } from './wav.ts';

export type KeyMode = 'major' | 'minor';

export interface KeyEstimate {
  /** Pitch class of the tonic, 0 = C … 11 = B. */
  tonic: number;
  mode: KeyMode;
  /** Pearson correlation of the chroma with the winning profile (−1 … 1). */
  score: number;
  /** The runner-up, to judge how clear the decision was. */
  second: { tonic: number; mode: KeyMode; score: number };
  /** Normalised chroma (sums to 1), C first. */
  chroma: number[];
}

// Krumhansl & Kessler (1982) probe-tone ratings, tonic first.
const KK_MAJOR = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const KK_MINOR = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

const FRAME = 8192;
const HOP = 4096;
const LOW_HZ = 55;
const HIGH_HZ = 2000;
/** Peaks more than 60 dB under the frame's loudest peak are noise floor and window leakage. */
const PEAK_FLOOR = 1e-3;

export const PITCH_NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'] as const;

/** "C", "c#", "Db", "Eb", "F#" … → 0–11. Throws on anything else. */
export function pitchClassOf(name: string): number {
  const m = /^([A-Ga-g])([#b♯♭]?)$/.exec(name.trim());
  if (!m) throw new Error(`not a pitch name: ${name}`);
  const base = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 }[m[1]!.toUpperCase() as 'C'];
  const shift = m[2] === '#' || m[2] === '♯' ? 1 : m[2] === 'b' || m[2] === '♭' ? -1 : 0;
  return (base + shift + 12) % 12;
}

export function keyName(k: { tonic: number; mode: KeyMode }): string {
  return `${PITCH_NAMES[k.tonic]} ${k.mode}`;
}

/**
 * Chroma from spectral peaks: each local maximum of the magnitude spectrum between 55 Hz and 2 kHz,
 * its frequency refined by parabolic interpolation (an 8192 frame has 5.4 Hz bins, coarser than a
 * semitone below ~90 Hz), adds its magnitude to the nearest pitch class. Peaks rather than all bins,
 * so a loud bass note's window skirt does not leak into the neighbouring semitones.
 */
export function chromaOf(signal: Float32Array, sampleRate: number): number[] {
  const chroma = new Array<number>(12).fill(0);
  const binHz = sampleRate / FRAME;
  const lo = Math.max(2, Math.floor(LOW_HZ / binHz));
  const hi = Math.min(FRAME / 2 - 1, Math.ceil(HIGH_HZ / binHz));
  forEachSpectrum(signal, { size: FRAME, hop: HOP }, (mag) => {
    let max = 0;
    for (let k = lo; k <= hi; k++) if (mag[k]! > max) max = mag[k]!;
    if (max === 0) return;
    for (let k = lo; k <= hi; k++) {
      const m = mag[k]!;
      if (m < max * PEAK_FLOOR || m <= mag[k - 1]! || m < mag[k + 1]!) continue;
      const a = Math.log(mag[k - 1]! + 1e-12);
      const b = Math.log(m + 1e-12);
      const c = Math.log(mag[k + 1]! + 1e-12);
      const denom = a - 2 * b + c;
      const delta = denom === 0 ? 0 : (0.5 * (a - c)) / denom;
      const hz = (k + delta) * binHz;
      const midi = 69 + 12 * Math.log2(hz / 440);
      chroma[((Math.round(midi) % 12) + 12) % 12]! += m;
    }
  });
  const total = chroma.reduce((s, v) => s + v, 0);
  return total > 0 ? chroma.map((v) => v / total) : chroma;
}

function pearson(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

/** Scores all 24 keys against a chroma vector, best first. */
export function rankKeys(chroma: number[]): { tonic: number; mode: KeyMode; score: number }[] {
  const ranked: { tonic: number; mode: KeyMode; score: number }[] = [];
  for (let tonic = 0; tonic < 12; tonic++) {
    // Rotate the chroma so index 0 is the candidate tonic, then compare with the tonic-first profile.
    const rotated = chroma.map((_, i) => chroma[(i + tonic) % 12]!);
    ranked.push({ tonic, mode: 'major', score: pearson(rotated, KK_MAJOR) });
    ranked.push({ tonic, mode: 'minor', score: pearson(rotated, KK_MINOR) });
  }
  return ranked.sort((a, b) => b.score - a.score);
}

/** Estimated key of a WAV file (mono mix). */
export async function key(path: string): Promise<KeyEstimate> {
  const audio = await readWav(path);
  const chroma = chromaOf(monoMix(audio), audio.sampleRate);
  const [best, second] = rankKeys(chroma);
  return { ...best!, second: second!, chroma };
}

/**
 * MIREX weighted key score (as in mir_eval.key): 1 same key; 0.5 a perfect fifth away in either
 * direction with the same mode; 0.3 relative major/minor; 0.2 parallel major/minor; else 0.
 */
export function mirexKeyScore(
  detected: { tonic: number; mode: KeyMode },
  expected: { tonic: number; mode: KeyMode },
): number {
  const interval = (detected.tonic - expected.tonic + 12) % 12;
  if (detected.mode === expected.mode) {
    if (interval === 0) return 1;
    if (interval === 7 || interval === 5) return 0.5;
    return 0;
  }
  // Relative: A minor for C major (detected tonic 9 above), C major for A minor (3 above).
  if (expected.mode === 'major' && interval === 9) return 0.3;
  if (expected.mode === 'minor' && interval === 3) return 0.3;
  if (interval === 0) return 0.2;
  return 0;
}
