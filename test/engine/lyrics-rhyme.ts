/**
 * Rhymes as a test judges them, from the CMU dictionary itself (not the writer's code): the last vowel with
 * stress 1 or 2 to the end of the word, and the consonants before it. Two lines rhyme when their last words'
 * rhyme parts match after different consonants ("fall"/"all" rhyme, "night"/"tonight" and "sea"/"see" do not).
 */
import { dictionary } from 'cmu-pronouncing-dictionary';
import type { LyricLine } from '../../engine/types.ts';

export function rhymeOf(word: string): { rhyme: string; onset: string } | null {
  const entry = dictionary[word.toLowerCase().replace(/[^a-z']/g, '')];
  if (entry === undefined) return null;
  const phones = entry.split(' ');
  let start = phones.length - 1;
  while (start > 0 && !/[12]$/.test(phones[start]!)) start--;
  let from = start;
  while (from > 0 && !/\d$/.test(phones[from - 1]!)) from--;
  return { rhyme: phones.slice(start).join(' ').replace(/\d/g, ''), onset: phones.slice(from, start).join(' ') };
}

const lastWord = (line: LyricLine | string): string => {
  const text = typeof line === 'string' ? line : line.text;
  return (
    text
      .toLowerCase()
      .replace(/[^a-z' ]/g, ' ')
      .trim()
      .split(/\s+/)
      .pop() ?? ''
  );
};

export const endRhyme = (line: LyricLine | string): string => rhymeOf(lastWord(line))?.rhyme ?? '?';

/** Whether two lines (or texts) end in a true rhyme by the dictionary. */
export function isRhyme(a: LyricLine | string, b: LyricLine | string): boolean {
  const [x, y] = [rhymeOf(lastWord(a)), rhymeOf(lastWord(b))];
  return x !== null && y !== null && x.rhyme === y.rhyme && x.onset !== y.onset;
}
