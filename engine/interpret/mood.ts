/**
 * Valence/arousal -> musical parameters (reference section 2.3). Arousal drives tempo, density,
 * brightness and space; valence drives the mode. Each function is pure so it can be tested alone.
 */
import { at } from '../checked.ts';
import type { Mode, Preset } from '../types.ts';

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
export const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * Tempo inside the genre's range. The preset's default sits at the genre's own arousal; more arousal
 * moves towards max, less towards min, and tempo words ("slow", "fast") shift further.
 */
export function bpmFromArousal(
  preset: Preset,
  arousal: number,
  priorArousal: number,
  tempoShift: number,
  jitter: number,
): number {
  const { min, max, default: def } = preset.bpm;
  const delta = arousal - priorArousal;
  let bpm =
    delta >= 0
      ? def + ((max - def) * delta) / Math.max(0.01, 1 - priorArousal)
      : def + ((def - min) * delta) / Math.max(0.01, 1 + priorArousal);
  bpm += clamp(tempoShift, -1, 1) * (max - min) * 0.5 + jitter;
  return Math.round(clamp(bpm, min, max));
}

const MINOR_FAMILY: readonly Mode[] = ['minor', 'harmonicMinor', 'phrygian'];
const MIDDLE: readonly Mode[] = ['dorian', 'minor'];
const BRIGHT: readonly Mode[] = ['major', 'mixolydian'];

/** Which modes a valence allows: the bands of section 2.3. */
export function modeBand(valence: number): readonly Mode[] {
  if (valence < -0.35) return MINOR_FAMILY;
  if (valence < 0.15) return MIDDLE;
  if (valence <= 0.5) return BRIGHT;
  return ['major'];
}

/**
 * The mode for a valence: a mood word's mode when its band fits ("dark" -> harmonic minor needs a
 * darkish valence, "dreamy" -> lydian a brightish one), else the genre's most typical mode in the band,
 * else the band's plain mode.
 */
export function modeFromValence(
  valence: number,
  genreModes: readonly Mode[],
  hinted: Mode | null,
): { mode: Mode; why: string } {
  if (hinted) {
    const darkHint = hinted === 'harmonicMinor' || hinted === 'phrygian' || hinted === 'minor' || hinted === 'dorian';
    if ((darkHint && valence < 0.15) || (!darkHint && valence >= 0.15)) return { mode: hinted, why: 'mood word' };
  }
  const band = modeBand(valence);
  const preferred = genreModes.find((m) => band.includes(m));
  if (preferred) return { mode: preferred, why: 'valence band, genre preference' };
  return { mode: at(band, 0), why: 'valence band' };
}

/** Base note density: 0.3 + 0.5·(a+1)/2 plus word nudges ("sparse", "busy"). */
export function densityFromArousal(arousal: number, nudge: number): number {
  return round2(clamp(0.3 + (0.5 * (arousal + 1)) / 2 + nudge, 0.1, 1));
}

/** Master low-pass: opens with arousal and valence relative to the genre, times word factors. */
export function brightnessFrom(preset: Preset, valence: number, arousal: number, factor: number): number {
  const exponent = 0.5 * (arousal - preset.arousal) + 0.3 * (valence - preset.valence);
  return Math.round(clamp(preset.effects.brightness * 2 ** exponent * factor, 500, 20000) / 10) * 10;
}

/** Reverb send and decay grow as arousal falls below the genre's own. */
export function reverbFrom(
  preset: Preset,
  arousal: number,
  sendNudge: number,
  decayNudge: number,
): { reverb: number; reverbDecay: number } {
  const calmer = preset.arousal - arousal;
  return {
    reverb: round2(clamp(preset.effects.reverb + 0.15 * calmer + sendNudge, 0, 1)),
    reverbDecay: round2(clamp(preset.effects.reverbDecay * (1 + 0.25 * calmer) + decayNudge, 0.3, 12)),
  };
}
