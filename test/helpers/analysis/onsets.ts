/**
 * Onsets: aubio's general onset detector, and our own percussive-onset counter for the "no drums"
 * check. Pitched instruments have onsets too, so "no drums" cannot be "no onsets"; what drums add
 * (hats, snares, claps, shakers, rides) is sudden broadband energy above 5 kHz.
 */
import { parseNumberLines, run } from './exec.ts';
import { forEachSpectrum } from './stft.ts';
import { monoMix, readWav } from './wav.ts';

export interface OnsetOptions {
  /** aubio onset method; default 'hfc' (aubio's own default). */
  method?: 'default' | 'energy' | 'hfc' | 'complex' | 'phase' | 'specdiff' | 'kl' | 'mkl' | 'specflux';
  /** 0.1 (more) … 1 (fewer); aubio default 0.3. */
  threshold?: number;
  /** Frames quieter than this (dB) are silence; aubio default −90. */
  silenceDb?: number;
}

/** Onset times in seconds from `aubioonset`. */
export async function onsets(path: string, options: OnsetOptions = {}): Promise<number[]> {
  const args = ['-i', path, '-O', options.method ?? 'hfc'];
  if (options.threshold !== undefined) args.push('-t', String(options.threshold));
  if (options.silenceDb !== undefined) args.push('-s', String(options.silenceDb));
  return parseNumberLines((await run('aubioonset', args)).stdout);
}

/** aubio onsets per second of audio. */
export async function onsetDensity(path: string, options: OnsetOptions = {}): Promise<number> {
  const audio = await readWav(path);
  const times = await onsets(path, options);
  return times.length / (audio.frames / audio.sampleRate);
}

const PERC_FRAME = 1024;
const PERC_HOP = 512;
/** The band drums own in a mix: hats, cymbals, shakers, the snare's wires, a clap's noise. */
const PERC_LOW_HZ = 5000;
const PERC_HIGH_HZ = 16000;
/** A percussive hit raises the band by at least this much within RISE_FRAMES hops (~35 ms). */
export const PERC_RISE_DB = 9;
const RISE_FRAMES = 3;
/**
 * …and at its peak the band holds at least this share of the track's mean full-band energy
 * (−30 dB). Relative, so the result does not depend on the track's loudness.
 */
export const PERC_LEVEL_DB = -30;
/**
 * …and the band is noise-like at the hit: its spectral flatness (geometric / arithmetic mean of the
 * bin energies) is at least this. White noise measures ≈ 0.56 (e^−γ for a periodogram), the engine's
 * hats/snares/claps 0.42–0.58; pitched attacks with bright harmonics (a saw pluck's opening filter)
 * measure < 0.02, and a piano's band-passed hammer noise, sloped across the band, 0.14–0.26.
 */
export const PERC_FLATNESS = 0.35;
/** Two hits closer than this are one (flams, a snare's rattle). */
const MIN_GAP_S = 0.05;

export interface PercussiveOptions {
  lowHz?: number;
  riseDb?: number;
  levelDb?: number;
  flatness?: number;
}

export interface PercussiveOnsets {
  /** Times of detected percussive hits, seconds. */
  times: number[];
  /** Hits per second. */
  rate: number;
}

/**
 * Percussive onsets by our own spectral analysis, per 11.6 ms hop of the 5–16 kHz band: a hit is a
 * local maximum of the band's rise over the last three hops that is ≥ 9 dB, loud enough (≥ −30 dB
 * relative to the track's mean full-band energy) and noise-like (flatness ≥ 0.35).
 */
export function percussiveOnsetsOf(
  signal: Float32Array,
  sampleRate: number,
  options: PercussiveOptions = {},
): PercussiveOnsets {
  const lowHz = options.lowHz ?? PERC_LOW_HZ;
  const riseDb = options.riseDb ?? PERC_RISE_DB;
  const levelDb = options.levelDb ?? PERC_LEVEL_DB;
  const minFlatness = options.flatness ?? PERC_FLATNESS;
  const binHz = sampleRate / PERC_FRAME;
  const firstBin = Math.ceil(lowHz / binHz);
  const lastBin = Math.min(PERC_FRAME / 2, Math.floor(PERC_HIGH_HZ / binHz));
  const high: number[] = [];
  const full: number[] = [];
  const flatness: number[] = [];
  forEachSpectrum(signal, { size: PERC_FRAME, hop: PERC_HOP }, (mag) => {
    let band = 0;
    let total = 0;
    let logSum = 0;
    for (let k = 1; k < mag.length; k++) {
      const e = mag[k]! * mag[k]!;
      total += e;
      if (k >= firstBin && k <= lastBin) {
        band += e;
        logSum += Math.log(e + 1e-30);
      }
    }
    const bins = lastBin - firstBin + 1;
    high.push(band);
    full.push(total);
    flatness.push(band > 0 ? Math.exp(logSum / bins) / (band / bins) : 0);
  });
  const seconds = signal.length / sampleRate;
  const meanFull = full.reduce((s, v) => s + v, 0) / full.length;
  if (meanFull === 0) return { times: [], rate: 0 };
  const floor = meanFull * 10 ** (levelDb / 10);
  const db = high.map((e) => 10 * Math.log10(e + meanFull * 1e-9));
  const rise = db.map((v, n) => {
    let min = Infinity;
    for (let j = 1; j <= RISE_FRAMES; j++) min = Math.min(min, db[n - j] ?? db[0]!);
    return v - min;
  });
  const times: number[] = [];
  for (let n = 1; n < rise.length; n++) {
    if (rise[n]! < riseDb) continue;
    if (rise[n]! < (rise[n - 1] ?? 0) || rise[n]! < (rise[n + 1] ?? 0)) continue;
    // The hit's peak may come a hop or two after the steepest rise: look ahead for its level and colour.
    const ahead = [n, n + 1, n + 2].filter((i) => i < high.length);
    if (Math.max(...ahead.map((i) => high[i]!)) < floor) continue;
    if (Math.max(...ahead.map((i) => flatness[i]!)) < minFlatness) continue;
    const t = (n * PERC_HOP) / sampleRate;
    if (times.length && t - times[times.length - 1]! < MIN_GAP_S) continue;
    times.push(t);
  }
  return { times, rate: times.length / seconds };
}

/** Percussive hits per second of a WAV file (see percussiveOnsetsOf). */
export async function percussiveOnsetRate(path: string): Promise<number> {
  return (await percussiveOnsets(path)).rate;
}

export async function percussiveOnsets(path: string, options: PercussiveOptions = {}): Promise<PercussiveOnsets> {
  const audio = await readWav(path);
  return percussiveOnsetsOf(monoMix(audio), audio.sampleRate, options);
}
