/**
 * Tempo by two independent estimators, compared octave-tolerantly (Acc2, Gouyon 2004 /
 * Schreiber & Müller): a BPM estimate counts when it is within tolerance of the target or of its
 * ×2, ×½, ×3 or ×⅓ — beat trackers routinely lock onto the half or double pulse.
 */
import { parseNumberLines, pipe, run } from './exec.ts';

export interface TempoEstimates {
  /** bpm-tools `bpm` (searches 84–146 BPM by default, so slow/fast tempi come back folded). */
  bpmTools: number | null;
  /** 60 / median inter-beat interval of `aubiotrack`'s beats (more robust than `aubio tempo`). */
  aubio: number | null;
  /** The beats aubiotrack found, seconds. */
  beats: number[];
}

export async function bpmToolsTempo(path: string): Promise<number | null> {
  const out = await pipe(
    { cmd: 'sox', args: [path, '-t', 'raw', '-r', '44100', '-e', 'float', '-b', '32', '-c', '1', '-'] },
    { cmd: 'bpm', args: [] },
  );
  const value = Number(out.trim());
  return Number.isFinite(value) && value > 0 ? value : null;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function aubioBeats(path: string): Promise<number[]> {
  const { stdout } = await run('aubiotrack', ['-i', path]);
  return parseNumberLines(stdout);
}

export function tempoFromBeats(beats: number[]): number | null {
  if (beats.length < 3) return null;
  const intervals = beats
    .slice(1)
    .map((b, i) => b - beats[i]!)
    .filter((d) => d > 0);
  return intervals.length ? 60 / median(intervals) : null;
}

export async function tempo(path: string): Promise<TempoEstimates> {
  const [bpmTools, beats] = await Promise.all([bpmToolsTempo(path), aubioBeats(path)]);
  return { bpmTools, aubio: tempoFromBeats(beats), beats };
}

export const TEMPO_FACTORS = [1, 2, 0.5, 3, 1 / 3] as const;

/** True if `estimate` is within `tolerance` (relative) of target × one of 1, 2, ½, 3, ⅓. */
export function tempoMatchesOne(estimate: number | null, target: number, tolerance = 0.03): boolean {
  if (estimate === null) return false;
  return TEMPO_FACTORS.some((f) => Math.abs(estimate - target * f) <= tolerance * target * f);
}

/** True if at least one estimator matches the target (Acc2 with the given tolerance). */
export function tempoMatches(
  estimates: Pick<TempoEstimates, 'bpmTools' | 'aubio'>,
  target: number,
  tolerance = 0.03,
): boolean {
  return tempoMatchesOne(estimates.bpmTools, target, tolerance) || tempoMatchesOne(estimates.aubio, target, tolerance);
}
