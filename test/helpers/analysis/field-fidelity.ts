/**
 * Whether the musical fields of a request are heard: the tempo by bpm-tools and aubio (within 1 bpm of the
 * asked tempo, or of its double or half, where beat trackers often lock), the key by the chroma key finder
 * graded with the MIREX score. Shared by test/engine/fidelity-fields.test.ts and bench/fidelity.ts.
 */
import { parseKeyName, type GenerationRequest, type Mode } from '../../../engine/index.ts';
import { key as findKey, keyName, mirexKeyScore, pitchClassOf, type KeyMode } from './key.ts';
import { aubioBeats, bpmToolsTempo, median } from './tempo.ts';
import type { TrackRenderer } from './renders.ts';

export interface FieldCase {
  name: string;
  request: GenerationRequest;
}

export interface FieldFigures {
  name: string;
  asked: { bpm: number | null; key: string | null; meter: string | null };
  heard: { bpmTools: number | null; aubio: number | null; key: string };
  /** The smaller error of the two estimators against the asked tempo, its double or its half (bpm). */
  tempoError: number | null;
  /** MIREX weighted score of the heard key against the asked one (modes graded as their major or minor colour). */
  keyScore: number | null;
  metadata: { bpm: number; key: string; meter: string; warnings: string[] };
}

const FACTORS = [1, 2, 0.5] as const;

/**
 * aubiotrack's tempo to a fraction of a bpm: the mean beat interval over its longest run of steady beats (each
 * interval within 20% of the median), i.e. the run's span over its beat count. The median alone moves in steps
 * of aubio's 256-sample hop (about 1 bpm at 100 bpm); a run's span averages the steps out, and keeps the phase
 * corrections aubio makes when its period is a hop short (at 168 bpm it beats every 0.350 s and lengthens every
 * fourth interval to 0.37–0.39 s: leaving those out read 171). A missed or doubled beat (50% or 100% off) ends a
 * run, as does the tracker settling at the start of a track.
 */
export function steadyTempo(beats: readonly number[]): number | null {
  const intervals = beats.slice(1).map((b, i) => b - beats[i]!);
  if (intervals.filter((d) => d > 0).length < 4) return null;
  const typical = median(intervals.filter((d) => d > 0));
  let best = { from: 0, count: 0 };
  let from = 0;
  intervals.forEach((d, i) => {
    if (Math.abs(d - typical) > 0.2 * typical) {
      from = i + 1;
      return;
    }
    if (i + 1 - from > best.count) best = { from, count: i + 1 - from };
  });
  if (best.count < 4) return null;
  return 60 / ((beats[best.from + best.count]! - beats[best.from]!) / best.count);
}

/** The error of `estimate` against the nearest of target, 2·target and target/2, in bpm of the target. */
export function tempoError(estimate: number | null, target: number): number | null {
  if (estimate === null) return null;
  return Math.min(...FACTORS.map((f) => Math.abs(estimate - target * f) / f));
}

/** The key finder knows major and minor only: a mode is graded as the one its third makes it sound like. */
const COLOUR: Record<Mode, KeyMode> = {
  major: 'major',
  lydian: 'major',
  mixolydian: 'major',
  minor: 'minor',
  dorian: 'minor',
  phrygian: 'minor',
  harmonicMinor: 'minor',
};

export async function measureFields(renderer: TrackRenderer, entry: FieldCase): Promise<FieldFigures> {
  const file = await renderer.render(entry.name, entry.request);
  const music = entry.request.music ?? {};
  const [bpmTools, beats, heardKey] = await Promise.all([
    bpmToolsTempo(file.path),
    aubioBeats(file.path),
    findKey(file.path),
  ]);
  const est = { bpmTools, aubio: steadyTempo(beats) };
  const errors =
    music.bpm === undefined
      ? []
      : [tempoError(est.bpmTools, music.bpm), tempoError(est.aubio, music.bpm)].filter((e): e is number => e !== null);
  const asked = music.key === undefined ? null : parseKeyName(music.key);
  const keyScore = asked
    ? mirexKeyScore(heardKey, { tonic: pitchClassOf(asked.tonic), mode: COLOUR[asked.mode] })
    : null;
  const { metadata } = file.track;
  return {
    name: entry.name,
    asked: { bpm: music.bpm ?? null, key: music.key ?? null, meter: music.timeSignature ?? null },
    heard: { bpmTools: est.bpmTools, aubio: est.aubio, key: keyName(heardKey) },
    tempoError: errors.length > 0 ? Math.min(...errors) : null,
    keyScore,
    metadata: { bpm: metadata.bpm, key: metadata.key, meter: metadata.meter, warnings: metadata.warnings },
  };
}

export function describeFigures(f: FieldFigures): string {
  const num = (n: number | null, digits = 1) => (n === null ? '—' : n.toFixed(digits));
  return (
    `${f.name}: asked ${f.asked.bpm ?? '—'} bpm ${f.asked.key ?? ''} ${f.asked.meter ?? ''}; heard bpm-tools ${num(f.heard.bpmTools)}, aubio ${num(f.heard.aubio)} ` +
    `(error ${num(f.tempoError, 2)}), key ${f.heard.key} (MIREX ${num(f.keyScore, 2)}); metadata ${f.metadata.bpm} bpm ${f.metadata.key} ${f.metadata.meter}`
  );
}
