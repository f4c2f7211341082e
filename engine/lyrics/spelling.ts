/**
 * Which letters of a word each syllable stands for, so karaoke can show "sum|mer". English spelling is
 * too loose for an exact mapping; this finds the vowel-letter groups, reconciles their number with the
 * syllable count (silent final e, merged or split groups) and hands the consonant letters between two
 * groups to the next syllable as far as its onset goes. The slices always join back into the word.
 */
import { at, last } from '../checked.ts';
import type { PhoneSyllable } from './phones.ts';

/** Two letters that spell one consonant sound, so an onset of one phone takes both ("ph|one" is wrong). */
const DIGRAPHS = new Set(['th', 'sh', 'ch', 'ph', 'wh', 'ck', 'ng', 'gh', 'qu']);

export function sliceLetters(word: string, syllables: readonly PhoneSyllable[]): string[] {
  const n = syllables.length;
  if (n <= 1) return n === 0 ? [] : [word];
  const lower = word.toLowerCase();
  const groups = reconcile(lower, vowelGroups(lower), n);
  if (groups === null) return evenSlices(word, n);
  const cuts: number[] = [];
  for (let k = 1; k < n; k++) {
    const gapStart = at(groups, k - 1)[1];
    const gapEnd = at(groups, k)[0];
    cuts.push(gapEnd - onsetLetters(lower, gapStart, gapEnd, at(syllables, k).onset.length));
  }
  return [0, ...cuts].map((start, k) => word.slice(start, k === n - 1 ? word.length : cuts[k]));
}

const isVowelLetter = (word: string, i: number): boolean => {
  const c = at(word, i);
  if ('aeiou'.includes(c)) return true;
  // "y" is a vowel after a consonant ("happy", "my", "rhythm"), a consonant at the start or after a vowel ("yes", "play").
  if (c !== 'y' || i === 0) return false;
  const before = at(word, i - 1);
  return !'aeiouy'.includes(before) && /[a-z]/.test(before);
};

/** [start, end) of each run of vowel letters. */
function vowelGroups(word: string): [number, number][] {
  const groups: [number, number][] = [];
  for (let i = 0; i < word.length; i++) {
    if (!isVowelLetter(word, i)) continue;
    const last = groups[groups.length - 1];
    if (last !== undefined && last[1] === i) last[1] = i + 1;
    else groups.push([i, i + 1]);
  }
  return groups;
}

/** Makes the number of vowel groups equal n, or returns null when that is hopeless. */
function reconcile(word: string, initial: [number, number][], n: number): [number, number][] | null {
  let groups = initial.map((g) => [...g] as [number, number]);
  // Silent e: "make", "tunes", "loved" (but not "the" or "be", whose only vowel it is).
  if (groups.length > n && groups.length > 1) {
    const final = last(groups);
    const tail = word.slice(final[0]);
    if (final[1] - final[0] === 1 && word[final[0]] === 'e' && /^e(s|d)?$/.test(tail.replace(/'/g, '')))
      groups = groups.slice(0, -1);
  }
  while (groups.length > n) {
    // Merge the two groups with the fewest letters between them ("every": e-v-e -> one syllable "eve").
    let best = 0;
    for (let k = 1; k < groups.length - 1; k++) {
      if (at(groups, k + 1)[0] - at(groups, k)[1] < at(groups, best + 1)[0] - at(groups, best)[1]) best = k;
    }
    groups.splice(best, 2, [at(groups, best)[0], at(groups, best + 1)[1]]);
  }
  while (groups.length < n) {
    // Split the longest group of two or more vowel letters ("idea" -> i-de-a, "create" -> cre-ate).
    let longest = -1;
    for (let k = 0; k < groups.length; k++) {
      const [from, to] = at(groups, k);
      const size = to - from;
      if (size >= 2 && (longest === -1 || size > at(groups, longest)[1] - at(groups, longest)[0])) longest = k;
    }
    if (longest === -1) return null;
    const [start, end] = at(groups, longest);
    const middle = start + Math.floor((end - start) / 2);
    groups.splice(longest, 1, [start, middle], [middle, end]);
  }
  return groups;
}

/** How many of the consonant letters in [gapStart, gapEnd) start the next syllable, given its onset length. */
function onsetLetters(word: string, gapStart: number, gapEnd: number, onsetPhones: number): number {
  let taken = 0;
  let phones = onsetPhones;
  while (phones > 0 && gapEnd - taken > gapStart) {
    // "x" spells K S across the boundary; it reads better with the first syllable ("ex|treme", "ex|it").
    if (word[gapEnd - taken - 1] === 'x') break;
    const pair = word.slice(gapEnd - taken - 2, gapEnd - taken);
    taken += gapEnd - taken - 2 >= gapStart && DIGRAPHS.has(pair) ? 2 : 1;
    phones--;
  }
  return taken;
}

/** Last resort: n pieces of nearly equal length. */
function evenSlices(word: string, n: number): string[] {
  return Array.from({ length: n }, (_, k) =>
    word.slice(Math.round((k * word.length) / n), Math.round(((k + 1) * word.length) / n)),
  );
}
