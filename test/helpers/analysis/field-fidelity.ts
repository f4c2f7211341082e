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
 * aubiotrack's tempo to a fraction of a bpm: the mean of the beat intervals within 10% of their median. The
 * median alone moves in steps of aubio's 256-sample hop (about 1 bpm at 100 bpm); the mean of many steady
 * intervals averages the steps out, and the outliers (a missed or doubled beat) are left out.
 */
export function steadyTempo(beats: readonly number[]): number | null {
  const intervals = beats.slice(1).map((b, i) => b - beats[i]!).filter((d) => d > 0);
  if (intervals.length < 4) return null;
  const typical = median(intervals);
  const steady = intervals.filter((d) => Math.abs(d - typical) <= 0.1 * typical);
  return 60 / (steady.reduce((s, d) => s + d, 0) / steady.length);
}

/** The error of `estimate` against the nearest of target, 2·target and target/2, in bpm of the target. */
export function tempoError(estimate: number | null, target: number): number | null {
  if (estimate === null) return null;
  return Math.min(...FACTORS.map((f) => Math.abs(estimate - target * f) / f));
}

/** The key finder knows major and minor only: a mode is graded as the one its third makes it sound like. */
const COLOUR: Record<Mode, KeyMode> = { major: 'major', lydian: 'major', mixolydian: 'major', minor: 'minor', dorian: 'minor', phrygian: 'minor', harmonicMinor: 'minor' };

export async function measureFields(renderer: TrackRenderer, entry: FieldCase): Promise<FieldFigures> {
  const file = await renderer.render(entry.name, entry.request);
  const music = entry.request.music ?? {};
  const [bpmTools, beats, heardKey] = await Promise.all([bpmToolsTempo(file.path), aubioBeats(file.path), findKey(file.path)]);
  const est = { bpmTools, aubio: steadyTempo(beats) };
  const errors = music.bpm === undefined ? [] : [tempoError(est.bpmTools, music.bpm), tempoError(est.aubio, music.bpm)].filter((e): e is number => e !== null);
  const asked = music.key === undefined ? null : parseKeyName(music.key);
  const keyScore = asked ? mirexKeyScore(heardKey, { tonic: pitchClassOf(asked.tonic), mode: COLOUR[asked.mode] }) : null;
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
  return `${f.name}: asked ${f.asked.bpm ?? '—'} bpm ${f.asked.key ?? ''} ${f.asked.meter ?? ''}; heard bpm-tools ${num(f.heard.bpmTools)}, aubio ${num(f.heard.aubio)} ` +
    `(error ${num(f.tempoError, 2)}), key ${f.heard.key} (MIREX ${num(f.keyScore, 2)}); metadata ${f.metadata.bpm} bpm ${f.metadata.key} ${f.metadata.meter}`;
}
