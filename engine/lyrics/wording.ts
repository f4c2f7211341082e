/**
 * Word-level judgement for written lyrics: which nouns a slot may take ("every sand" is wrong, "every wave"
 * right), which words suit the song's mood, which lines contradict themselves ("gentle and cold"), and which
 * person a template speaks in, so a section stays with "I" or with "we".
 */
import { at } from '../checked.ts';
import type { Banks } from './bank.ts';
import { FUNCTION_WORDS } from './pronounce.ts';

/** What a noun slot needs from its noun: "a"/"every" before it need something you can count. */
export type NounNeed = 'count' | 'any';

export type Person = 'I' | 'we' | 'none';

/** The words before a slot that make it countable; adjective slots between them do not matter. */
const COUNTING = new Set(['a', 'an', 'every', 'each', 'one']);
const FIRST_PERSON = new Set(['i', 'me', 'my', "i'm", 'mine']);
const PLURAL_PERSON = new Set(['we', 'us', 'our', "let's", "we're"]);
/** Line openers that carry no meaning; a section uses few of them. */
export const FILLER_OPENINGS: ReadonlySet<string> = new Set(['oh', 'so', 'now', 'and']);

export interface Wording {
  /** Whether `word` may be sung in a song of this mood. */
  suits(word: string): boolean;
  isMass(word: string): boolean;
  /** Nouns sung without an article ("take me home"). */
  isBare(word: string): boolean;
  isWeakEnd(word: string): boolean;
  /** Whether a person can be or feel this ("free", "blue"; not "wide", "dusty"). */
  canFeel(word: string): boolean;
  /** True when two words of the line pull against each other (warm and cold, lonely and happy). */
  contradicts(words: readonly string[]): boolean;
  /** True when one word of the line repeats another's stem ("the sunny sun", "heartbeat ... heart"). */
  echoes(words: readonly string[]): boolean;
}

export function createWording(banks: Banks, valence: number, arousal: number): Wording {
  const { mood, grammar } = banks;
  const bright = new Set(mood.bright);
  const dark = new Set(mood.dark);
  const calm = new Set(mood.calm);
  const lively = new Set(mood.lively);
  const mass = new Set(grammar.mass);
  const bare = new Set(grammar.bare);
  const weak = new Set(grammar.weakEnds);
  const unfelt = new Set(grammar.notFeelings);
  const opposite = new Map<string, Set<string>>();
  for (const [a, b] of mood.opposites) {
    opposite.set(a, (opposite.get(a) ?? new Set()).add(b));
    opposite.set(b, (opposite.get(b) ?? new Set()).add(a));
  }
  // A clearly sad song never sings bright words and the other way round; in between, both, but never in one line.
  const suits = (word: string): boolean =>
    !(valence < -0.25 && bright.has(word)) &&
    !(valence > 0.25 && dark.has(word)) &&
    !(arousal > 0.5 && calm.has(word)) &&
    !(arousal < -0.5 && lively.has(word));
  const contradicts = (words: readonly string[]): boolean => {
    const plain = words.map(plainWord);
    if (plain.some((w) => bright.has(w)) && plain.some((w) => dark.has(w))) return true;
    return plain.some((w) => plain.some((v) => opposite.get(w)?.has(v) === true));
  };
  return {
    suits,
    isMass: (word) => mass.has(word),
    isBare: (word) => bare.has(word),
    isWeakEnd: (word) => weak.has(word),
    canFeel: (word) => !unfelt.has(word),
    contradicts,
    echoes,
  };
}

function echoes(words: readonly string[]): boolean {
  const content = words.map(plainWord).filter((w) => w.length >= 3 && !FUNCTION_WORDS.has(w));
  for (let i = 0; i < content.length; i++) {
    for (let j = i + 1; j < content.length; j++) {
      const [a, b] = [at(content, i), at(content, j)];
      if (
        a !== b &&
        (a.startsWith(b) || b.startsWith(a) || (a.length >= 4 && b.length >= 4 && a.slice(0, 4) === b.slice(0, 4)))
      )
        return true;
    }
  }
  return false;
}

const plainWord = (word: string): string => word.toLowerCase().replace(/[^a-z']/g, '');

/** For each {N} or {P} slot of a template and for its end word E, whether it needs a countable noun. */
export function nounNeeds(template: string): { slots: NounNeed[]; end: NounNeed } {
  const tokens = template.toLowerCase().split(' ');
  const slots: NounNeed[] = [];
  let end: NounNeed = 'any';
  tokens.forEach((token, i) => {
    const noun = token === '{n}' || token === '{p}';
    if (!noun && !token.startsWith('e')) return;
    if (token.startsWith('e') && token.replace(/[^a-z]/g, '') !== 'e') return;
    let k = i - 1;
    while (k >= 0 && tokens[k] === '{a}') k--;
    const need: NounNeed = k >= 0 && COUNTING.has(at(tokens, k)) ? 'count' : 'any';
    if (noun) slots.push(need);
    else end = need;
  });
  return { slots, end };
}

/** Which person a template or opener speaks in: "I", "we", or nobody in particular (imperatives, "the road is long"). */
export function personOf(template: string): Person {
  const tokens = template
    .toLowerCase()
    .replace(/[?,.!]/g, '')
    .split(' ');
  if (tokens.some((t) => FIRST_PERSON.has(t))) return 'I';
  if (tokens.some((t) => PLURAL_PERSON.has(t))) return 'we';
  return 'none';
}

/** Templates whose adjectives say how someone is or feels: "we are {A} and E", "my heart is E", "I feel so E". */
export function isFeeling(template: string): boolean {
  const tokens = template.toLowerCase().replace(/[?,]/g, '').split(' ');
  return tokens.includes('feel') || tokens.includes('heart') || /^(?:we|you|i) (?:are|am)\b/.test(tokens.join(' '));
}

export const opensWithFiller = (line: string): boolean =>
  FILLER_OPENINGS.has(
    at(line.split(' '), 0)
      .toLowerCase()
      .replace(/[^a-z]/g, ''),
  );
