/**
 * Tempo words and sentences: "slow", "very fast", "the tempo is slow", "mid-tempo", "Tempo: medium", "andante".
 * They beat every mood and scene word. Slow and fast mean what a listener calls slow (about 70 beats a minute) or
 * fast (about 140), as far as the style's own range allows, and at least its low or high end; medium is the middle
 * of the style, drawn a little towards a walking 100; an Italian mark is the middle of its range. A tempo sentence
 * beats a lone pace word elsewhere in the prompt ("an upbeat song; the tempo is medium").
 */
import type { Pace, PaceTarget } from '../lexicon/sentences.ts';
import { unitBpm } from '../compose/meter.ts';
import type { Preset } from '../types.ts';
import type { Content } from './match.ts';
import { clamp } from './mood.ts';

export interface PaceWord {
  phrase: string;
  /** -1 slow, 0 medium, 1 fast; null for a mark with its own range. */
  direction: -1 | 0 | 1 | null;
  factor: number;
  range: [number, number] | null;
}

const DIRECTION: Record<Pace, -1 | 0 | 1> = { slow: -1, medium: 0, fast: 1 };
/** How far medium is drawn from the style's middle towards the listener's medium. */
const MEDIUM_PULL = 0.3;

/** Tempo sentences when the prompt has any, else the pace words among its moods. */
export function paceWordsOf(content: readonly Content[]): PaceWord[] {
  const stated = content.flatMap((c) =>
    c.kind === 'pace'
      ? [{ phrase: c.phrase, direction: c.pace ? DIRECTION[c.pace] : null, factor: c.factor, range: c.range }]
      : [],
  );
  if (stated.length > 0) return stated;
  return content.flatMap((c) =>
    c.kind === 'hint' && !c.negated && c.lexicon === 'mood' && Math.abs(c.hints.tempo ?? 0) >= 0.5 && !c.hints.valence
      ? [
          {
            phrase: c.intensifier ? `${c.intensifier} ${c.phrase}` : c.phrase,
            direction: Math.sign(c.hints.tempo ?? 0) as -1 | 1,
            factor: c.factor,
            range: null,
          },
        ]
      : [],
  );
}

export type PaceResult = { bpm: number; why: string } | { conflict: true };

/**
 * The bpm (in the preset meter's beat units) the pace words ask for, inside `range` (the style's, or a dance's own);
 * null when there are none, a conflict when they disagree.
 */
export function paceBpm(
  words: readonly PaceWord[],
  preset: Preset,
  range: { min: number; max: number; default: number },
  targets: Readonly<Record<Pace, PaceTarget>>,
  jitter: number,
): PaceResult | null {
  if (words.length === 0) return null;
  const { min, max } = range;
  const units = (pulse: number) => unitBpm(pulse, preset.meter);
  const inRange = (bpm: number) => Math.round(clamp(bpm + jitter, min, max));
  const mark = words.find((w) => w.range !== null)?.range;
  if (mark) return { bpm: inRange(units((mark[0] + mark[1]) / 2)), why: `the middle of ${mark[0]}–${mark[1]}` };
  const direction = words[0]?.direction ?? 0;
  if (!words.every((w) => w.direction === direction)) return { conflict: true };
  const strength = Math.max(...words.map((w) => w.factor));
  if (direction === 0) {
    const middle = ((min + max) / 2 + range.default) / 2;
    return { bpm: inRange(middle + (units(targets.medium.target) - middle) * MEDIUM_PULL), why: 'medium' };
  }
  // "slightly slow" only leans to the end of the range; "slow" is what a listener calls slow, where the style allows,
  // and else near its end, "very slow" nearer still.
  const pace = targets[direction < 0 ? 'slow' : 'fast'];
  const target = strength < 1 ? null : units(strength > 1 ? pace.strong : pace.target);
  const near = clamp(0.1 - 0.2 * (strength - 1), 0, 0.2);
  if (direction < 0) {
    const lowEnd = min + (max - min) * clamp(0.2 - 0.4 * (strength - 1), 0, 0.4);
    const slow = target === null ? lowEnd : Math.min(lowEnd, target);
    return { bpm: inRange(slow < min ? min + (max - min) * near : slow), why: 'slow' };
  }
  const highEnd = min + (max - min) * clamp(0.8 + 0.4 * (strength - 1), 0.6, 1);
  const fast = target === null ? highEnd : Math.max(highEnd, target);
  return { bpm: inRange(fast > max ? max - (max - min) * near : fast), why: 'fast' };
}
