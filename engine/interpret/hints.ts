/**
 * The nudges of every matched mood, scene, production and instrument word, after intensifiers and
 * negation, with the sums the resolver needs. Kept apart from the resolver so the arithmetic of
 * "very", "not" and friends lives in one place.
 */
import type { HintLexicon, Hints } from '../lexicon/index.ts';
import type { Pace, PaceTarget } from '../lexicon/sentences.ts';
import type { TraceEntry } from '../types.ts';
import { type Content, saidAs } from './match.ts';
import { round2 } from './mood.ts';

export interface WordHints {
  /** What the trace calls the word ("not very happy"). */
  phrase: string;
  hints: Hints;
  /** Which word list it came from (a place or situation: a scene). */
  lexicon?: HintLexicon;
}

type Additive = 'valence' | 'arousal' | 'tempo' | 'reverb' | 'reverbDecay' | 'delay' | 'density' | 'swing';

/** A hint scaled by its intensifier; negation flips VA and numeric nudges and cancels wishes. */
export function scaleHints(hints: Hints, factor: number, negated: boolean): Hints {
  const sign = negated ? -1 : 1;
  const scale = (x: number | undefined) => (x === undefined ? undefined : x * factor * sign);
  return {
    valence: scale(hints.valence),
    arousal: scale(hints.arousal),
    tempo: scale(hints.tempo),
    reverb: scale(hints.reverb),
    reverbDecay: scale(hints.reverbDecay),
    delay: scale(hints.delay),
    density: scale(hints.density),
    swing: scale(hints.swing),
    brightness: hints.brightness === undefined ? undefined : hints.brightness ** (factor * sign),
    mode: negated ? undefined : hints.mode,
    genres: negated ? undefined : hints.genres,
    instruments: negated ? undefined : hints.instruments,
    rain: negated ? undefined : hints.rain,
    setting: hints.setting,
    // "no vinyl" is a wish for no lo-fi treatment, not an absence of opinion.
    lofi: hints.lofi === undefined ? undefined : !negated,
  };
}

/** "valence -0.6, arousal -0.3" and friends, for the trace. */
export function describeHints(h: Hints): string {
  const parts: string[] = [];
  const signed = (x: number) => (x > 0 ? `+${round2(x)}` : `${round2(x)}`);
  if (h.valence) parts.push(`valence ${signed(h.valence)}`);
  if (h.arousal) parts.push(`arousal ${signed(h.arousal)}`);
  if (h.tempo) parts.push(`tempo ${signed(h.tempo)}`);
  if (h.mode) parts.push(`mode hint ${h.mode}`);
  if (h.rain) parts.push('rain');
  if (h.lofi !== undefined) parts.push(`lo-fi ${h.lofi ? 'on' : 'off'}`);
  if (h.reverb) parts.push(`reverb ${signed(h.reverb)}`);
  if (h.reverbDecay) parts.push(`decay ${signed(h.reverbDecay)}s`);
  if (h.delay) parts.push(`delay ${signed(h.delay)}`);
  if (h.density) parts.push(`density ${signed(h.density)}`);
  if (h.swing) parts.push(`swing ${signed(h.swing)}`);
  if (h.brightness) parts.push(`brightness ×${round2(h.brightness)}`);
  return parts.join(', ') || 'no effect';
}

export class HintSet {
  constructor(readonly words: readonly WordHints[]) {}

  sum(field: Additive): number {
    return this.words.reduce((total, w) => total + (w.hints[field] ?? 0), 0);
  }

  /** Product of the brightness factors. */
  brightness(): number {
    return this.words.reduce((product, w) => product * (w.hints.brightness ?? 1), 1);
  }

  /** The last word's mode hint (later words refine earlier ones). */
  mode(): Hints['mode'] | null {
    return this.words.filter((w) => w.hints.mode).at(-1)?.hints.mode ?? null;
  }

  where(test: (h: Hints) => unknown): WordHints[] {
    return this.words.filter((w) => test(w.hints));
  }
}

/** Collects the scaled hints of the matched words in prompt order, tracing each. */
/** The arousal a tempo statement brings: a slow piece is calmer, an Italian mark by where its range sits. */
function paceArousal(c: Content & { kind: 'pace' }, paces: Readonly<Record<Pace, PaceTarget>>): number {
  if (c.pace) return paces[c.pace].arousal * c.factor;
  const middle = c.range ? (c.range[0] + c.range[1]) / 2 : 100;
  return Math.max(-0.5, Math.min(0.5, (middle - 100) / 100));
}

export function collectHints(
  content: readonly Content[],
  trace: TraceEntry[],
  paces: Readonly<Record<Pace, PaceTarget>>,
): HintSet {
  const words: WordHints[] = [];
  for (const c of content) {
    if (c.kind === 'hint') {
      if (c.negated && c.lexicon === 'scene') {
        // "no rain" or "not a battle": the scene is simply absent.
        trace.push({ source: `${c.phrase} (negated)`, effect: 'ignored' });
        continue;
      }
      const after = c.negator?.after === true;
      const phrase = [c.negated && !after ? 'not' : '', c.intensifier ?? '', after ? saidAs(c) : c.phrase]
        .filter(Boolean)
        .join(' ');
      words.push({ phrase, hints: scaleHints(c.hints, c.factor, c.negated), lexicon: c.lexicon });
    } else if (c.kind === 'pace') {
      const arousal = paceArousal(c, paces);
      if (arousal !== 0) words.push({ phrase: c.phrase, hints: { arousal } });
    } else if (c.kind === 'instrument' && !c.negated) {
      // Instrument words may carry a mood too ("rainy piano" brings rain and a little sadness).
      const { valence, arousal, rain } = c.entry;
      if (valence !== undefined || arousal !== undefined || rain !== undefined)
        words.push({ phrase: c.phrase, hints: { valence, arousal, rain } });
    }
  }
  return new HintSet(words);
}
