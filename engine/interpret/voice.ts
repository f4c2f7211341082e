/**
 * How the prompt describes the voice, beyond asking for one: its quality ("a raspy male voice", "a singer that has
 * a gentle voice"), children singing ("children sing", "a children's choir", but not "a song for kids"), a choir
 * as the singer ("the choir sings", "monks chanting", a cappella voices), and rap, speech or humming in place of
 * singing. A quality word counts only where it describes a voice, so "soft drums and a male voice" is no soft voice.
 */
import type { VoiceWords } from '../lexicon/sentences.ts';
import type { Delivery, VoiceQuality } from '../types.ts';
import type { Content } from './match.ts';
import { BOUNDARY } from './tokenize.ts';

export interface VoiceReading {
  quality: { value: VoiceQuality; phrase: string } | null;
  /** The words that say children sing ("children singing"). */
  child: string | null;
  /** The words that say a choir sings ("the choir sings", "monks chanting"). */
  choir: string | null;
  delivery: { value: Delivery; phrase: string } | null;
}

/** Words that may stand between a quality and the voice after it ("raspy *male* voice"). */
const BEFORE_BRIDGE = new Set(['and', 'male', 'female', 'deep', 'high', 'low', 'lead']);
/** Words that may stand between a voice and the quality after it ("a singer *that has a* raspy tone"). */
const AFTER_BRIDGE = new Set([
  'is',
  'that',
  'has',
  'have',
  'with',
  'a',
  'an',
  'sounds',
  'sounding',
  'which',
  'who',
  'whose',
  'very',
  'quite',
  'slightly',
  'and',
  'rather',
  'really',
  'her',
  'his',
  'their',
  'its',
  'was',
  'remains',
  'somewhat',
  'pretty',
  'male',
  'female',
]);
/** Words that sing (for a choir or children as the subject). */
const SINGING = new Set([
  'sing',
  'sings',
  'singing',
  'sang',
  'sung',
  'chant',
  'chants',
  'chanting',
  'chanted',
  'hum',
  'hums',
  'humming',
]);
const GAP_BEFORE = 3;
const GAP_AFTER = 5;

/** Token spans of the words that ask for a voice (not negated). */
function voiceSpans(content: readonly Content[]): [number, number][] {
  return content
    .filter((c) => c.kind === 'vocal' && !c.negated)
    .map((c) => [c.index, c.index + c.phrase.split(' ').length] as [number, number]);
}

/** Whether tokens [from, to) hold only bridge words, inside one clause. */
const bridged = (tokens: readonly string[], from: number, to: number, bridge: ReadonlySet<string>): boolean =>
  tokens.slice(from, to).every((t) => t !== BOUNDARY && bridge.has(t));

/** Phrases of a table at each token: [index, phrase, words]. */
function phrasesIn(tokens: readonly string[], has: (p: string) => boolean, max: number): [number, string, number][] {
  const found: [number, string, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    for (let n = Math.min(max, tokens.length - i); n >= 1; n--) {
      const slice = tokens.slice(i, i + n);
      if (slice.includes(BOUNDARY) || !has(slice.join(' '))) continue;
      found.push([i, slice.join(' '), n]);
      i += n - 1;
      break;
    }
  }
  return found;
}

export function readVoice(
  tokens: readonly string[],
  content: readonly Content[],
  words: VoiceWords,
  voicesOnly: boolean,
): VoiceReading {
  const spans = voiceSpans(content);
  const nearVoice = (at: number, length: number): boolean =>
    spans.some(
      ([start, end]) =>
        (start >= at + length &&
          start - (at + length) <= GAP_BEFORE &&
          bridged(tokens, at + length, start, BEFORE_BRIDGE)) ||
        (at >= end && at - end <= GAP_AFTER && bridged(tokens, end, at, AFTER_BRIDGE)),
    );
  const qualityAt = phrasesIn(tokens, (p) => words.qualities.has(p), words.maxWords).find(([at, , n]) =>
    nearVoice(at, n),
  );
  const qualityValue = qualityAt ? words.qualities.get(qualityAt[1]) : undefined;

  // A choir or children sing when a singing word is close by in the clause, or when the voices are all there is.
  // Within the clause, from three words before the phrase to three after it ("the choir sings", "monks chanting").
  const singsNear = (at: number, length: number): boolean => {
    for (let k = at - 1; k >= Math.max(0, at - 3) && tokens[k] !== BOUNDARY; k--)
      if (SINGING.has(tokens[k] ?? '')) return true;
    for (let k = at; k < Math.min(tokens.length, at + length + 3) && tokens[k] !== BOUNDARY; k++) {
      if (SINGING.has(tokens[k] ?? '')) return true;
    }
    return false;
  };
  const choirs = phrasesIn(tokens, (p) => words.choirs.has(p), words.maxWords);
  const choirAt = choirs.find(([at, , n]) => voicesOnly || singsNear(at, n));
  const children = phrasesIn(tokens, (p) => words.children.has(p), words.maxWords).filter(
    ([at]) => !words.audience.has(tokens[at - 1] ?? ''),
  );
  const childAt = children.find(
    ([at, , n]) => singsNear(at, n) || nearVoice(at, n) || choirs.some(([c]) => Math.abs(c - at) <= 2),
  );
  const delivered = content.find((c) => c.kind === 'vocal' && !c.negated && c.delivery !== undefined);
  return {
    quality: qualityAt && qualityValue ? { value: qualityValue, phrase: qualityAt[1] } : null,
    child: childAt ? childAt[1] : null,
    choir: choirAt ? choirAt[1] : null,
    delivery:
      delivered?.kind === 'vocal' && delivered.delivery
        ? { value: delivered.delivery, phrase: delivered.phrase }
        : null,
  };
}
