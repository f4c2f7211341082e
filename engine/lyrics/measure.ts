/**
 * What the writer needs to know about a candidate line before it is sung: its syllables and their stresses
 * (from the pronouncing dictionary), how well the stresses alternate, the rhyme of its last word, and whose
 * voice it is in ("I" or "we").
 */
import type { LyricWord } from '../types.ts';
import { lookupPhones } from './dictionary.ts';
import { parsePhones, rhymePart } from './phones.ts';
import { pronounceWord } from './pronounce.ts';

export type Person = 'I' | 'we' | 'none';

export interface Measured {
  text: string;
  /** The words as written ("I'm", "Biscuit,"). */
  words: string[];
  syllables: number;
  /** 1 stressed, 0 not, per syllable. */
  stresses: number[];
  /** The last word, lower-case, and its rhyme part ("EY" for "away"). */
  end: string;
  rhyme: string;
  /** The consonants before the rhyming vowel: "night" N, "tonight" N, "all" none. */
  onset: string;
  person: Person;
}

const FIRST_PERSON = new Set(['i', 'me', 'my', "i'm", 'mine', "i'll", "i've", "i'd", 'myself']);
const PLURAL_PERSON = new Set(['we', 'us', 'our', "let's", "we're", "we'll", "we've", "we'd", 'ours', 'ourselves']);

/** Words repeat across thousands of candidate lines: pronounce each once. */
const pronunciations = new Map<string, LyricWord>();
export function pronounced(word: string): LyricWord {
  let entry = pronunciations.get(word);
  if (entry === undefined) {
    entry = pronounceWord(word);
    pronunciations.set(word, entry);
  }
  return entry;
}

/** A line's words: what `parseLine` will pronounce, with the same rule for what counts as a word. */
export const wordsOf = (text: string): string[] => text.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token));

export function measure(text: string): Measured {
  const words = wordsOf(text);
  const stresses = words.flatMap((w) => pronounced(w).syllables.map((s) => (s.stress > 0 ? 1 : 0)));
  const end = (words[words.length - 1] ?? '').toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  const lower = words.map((w) => w.toLowerCase().replace(/[^\p{L}']/gu, ''));
  const person: Person = lower.some((w) => FIRST_PERSON.has(w))
    ? 'I'
    : lower.some((w) => PLURAL_PERSON.has(w))
      ? 'we'
      : 'none';
  return { text, words, syllables: stresses.length, stresses, end, ...rhymeOf(end), person };
}

/** The CMU rhyme part of a word and the consonants before it; for a word the dictionary lacks (a name), from its spelled syllables. */
export function rhymeOf(word: string): { rhyme: string; onset: string } {
  const listed = lookupPhones(word.toLowerCase());
  if (listed !== undefined) {
    const phones = parsePhones(listed);
    const rhyme = rhymePart(phones);
    const start = phones.length - rhyme.split(' ').length;
    let from = start;
    while (from > 0 && phones[from - 1]?.stress === null) from--;
    return {
      rhyme,
      onset: phones
        .slice(from, start)
        .map((p) => p.phone)
        .join(' '),
    };
  }
  const syllables = pronounced(word).syllables;
  const from = Math.max(
    0,
    syllables.findLastIndex((s) => s.stress > 0),
  );
  const rhyme = syllables
    .slice(from)
    .flatMap((s, k) => [...(k === 0 ? [] : s.onset), s.nucleus, ...s.coda])
    .join(' ');
  return { rhyme, onset: syllables[from]?.onset.join(' ') ?? '' };
}

/**
 * A true rhyme: the same rhyme part after different consonants ("fall"/"all", "sea"/"free"). The same
 * consonants make an echo, not a rhyme ("night"/"tonight", "way"/"away"), and so does the same word.
 */
export function rhymes(a: Measured, b: Measured): boolean {
  return a.rhyme === b.rhyme && a.onset !== b.onset && a.end !== b.end;
}

/**
 * Clashes (two stressed syllables side by side) and lapses (three unstressed in a row) each cost a point:
 * a line whose stresses alternate lets the melody put every stressed syllable on a strong beat.
 */
export function stressCost(stresses: readonly number[]): number {
  let cost = 0;
  for (let i = 1; i < stresses.length; i++) {
    if (stresses[i] === 1 && stresses[i - 1] === 1) cost++;
    if (i >= 2 && stresses[i] === 0 && stresses[i - 1] === 0 && stresses[i - 2] === 0) cost++;
  }
  return cost;
}
