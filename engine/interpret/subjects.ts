/**
 * Who and what a song is for: names ("for my daughter Emma", "Emma's birthday", "about my dog Biscuit", "for
 * Anna and Tom"), the occasion ("birthday", "wedding"), places ("about Lisbon", "in Paris") and what the song is
 * about ("about my old bicycle"), read from the English text of the prompt so that a translated prompt ("para mi
 * hija Emma") gives the same subjects. The lyrics writer sings them and the title names them.
 */
import { at } from '../checked.ts';
import type { Subjects } from '../types.ts';

/** Occasion words and the occasion they name. */
const OCCASIONS: Record<string, string> = {
  birthday: 'birthday',
  birthdays: 'birthday',
  bday: 'birthday',
  wedding: 'wedding',
  weddings: 'wedding',
  marriage: 'wedding',
  anniversary: 'anniversary',
  christmas: 'christmas',
  xmas: 'christmas',
  'new year': 'new year',
  'new years': 'new year',
  graduation: 'graduation',
  valentine: 'valentine',
  valentines: 'valentine',
  retirement: 'retirement',
  funeral: 'funeral',
  memorial: 'funeral',
};

export const RELATIONS = [
  'daughter',
  'son',
  'wife',
  'husband',
  'mother',
  'mom',
  'mum',
  'mama',
  'father',
  'dad',
  'papa',
  'sister',
  'brother',
  'friend',
  'best friend',
  'girlfriend',
  'boyfriend',
  'grandmother',
  'grandma',
  'granny',
  'grandfather',
  'grandpa',
  'baby',
  'babies',
  'kid',
  'kids',
  'children',
  'child',
  'love',
  'partner',
  'teacher',
  'boss',
  'team',
  'niece',
  'nephew',
  'aunt',
  'uncle',
  'cousin',
  'dog',
  'cat',
  'fiance',
  'fiancee',
];

/** Capitalised words that are not names or places. */
const NOT_NAMES = new Set([
  'i',
  'a',
  'an',
  'the',
  'my',
  'our',
  'your',
  'his',
  'her',
  'their',
  'and',
  'or',
  'with',
  'for',
  'to',
  'of',
  'in',
  'on',
  'at',
  'about',
  'from',
  'that',
  'this',
  'me',
  'us',
  'you',
  'him',
  'them',
  'it',
  'all',
  'everyone',
  'everybody',
  'someone',
  'something',
  'music',
  'song',
  'songs',
  'lyrics',
  'vocals',
  'one',
  'two',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'god',
  'jesus',
  'lord',
  'dj',
  'bpm',
  'happy',
  'merry',
  'dear',
  'sweet',
  'little',
  'beautiful',
  'best',
  'new',
  'old',
  'big',
  'who',
  'and',
  'but',
  'named',
  'called',
  'is',
  'be',
  'day',
  'night',
  'year',
]);

const NAME = "[\\p{Lu}][\\p{L}'’-]*";
const RELATION = `(?:${[...RELATIONS].sort((a, b) => b.length - a.length).join('|')})`;
/** "for my (little) daughter (named) Emma", "to my dear friend Sam", "for Emma". */
const FOR_NAME = new RegExp(
  `\\b(?:for|to)\\s+(?:(?:my|our)\\s+)?(?:(?:little|dear|sweet|best|beloved|lovely|baby|newborn)\\s+)?(?:(${RELATION})\\s*,?\\s+)?(?:named\\s+|called\\s+)?(${NAME}|[\\p{Ll}][\\p{L}'’-]*)`,
  'giu',
);
const NAMED = new RegExp(`\\b(?:named|called)\\s+(${NAME})`, 'gu');
/** "my dog Biscuit", "our cat, Luna": a relation followed by its name, wherever it stands. */
const RELATION_NAME = new RegExp(
  `\\b(?:my|our)\\s+(?:(?:little|dear|sweet|best|old|beloved|lovely|baby|newborn)\\s+)?(${RELATION})\\s*,?\\s+(${NAME})`,
  'gu',
);
/** "for Anna and Tom": the second of two names. */
const AND_NAME = new RegExp(`^\\s+(?:and|&)\\s+(${NAME})`, 'u');
const POSSESSIVE = new RegExp(`\\b(${NAME})['’]s\\s+(\\p{L}+(?:\\s+\\p{L}+)?)`, 'gu');
const PLACE = new RegExp(`\\b(?:in|about|from|of|to|at|on)\\s+(${NAME}(?:\\s+${NAME})?)`, 'gu');

/** `about` is what the prompt says the song is about (explicit.ts reads it), kept as the topic. */
export function extractSubjects(
  text: string,
  isKnownWord: (word: string) => boolean,
  about: string | null = null,
): Subjects {
  const names: string[] = [];
  let relation: string | null = null;
  const addName = (raw: string, relaxed: boolean): void => {
    const name = raw.replace(/['’]s$/, '');
    const lower = name.toLowerCase();
    if (NOT_NAMES.has(lower) || OCCASIONS[lower] || isKnownWord(lower) || name.length < 2) return;
    // A lower-case word is a name only right after a relation ("for my daughter emma").
    if (name[0] === at(name, 0).toLowerCase() && !relaxed) return;
    const proper = name.charAt(0).toUpperCase() + name.slice(1);
    if (!names.includes(proper)) names.push(proper);
  };
  for (const m of text.matchAll(FOR_NAME)) {
    if (m[1]) relation ??= `my ${m[1].toLowerCase()}`;
    const named = at(m, 2);
    addName(named, m[1] !== undefined);
    // "for my daughter" with no name: the relation alone.
    if (!m[1] && RELATIONS.includes(named.toLowerCase())) relation ??= `my ${named.toLowerCase()}`;
    const second = AND_NAME.exec(text.slice(m.index + m[0].length))?.[1];
    if (second !== undefined && names.length > 0) addName(second, false);
  }
  for (const [, who, name] of text.matchAll(RELATION_NAME)) {
    if (who === undefined || name === undefined) continue;
    relation ??= `my ${who.toLowerCase()}`;
    addName(name, false);
  }
  for (const m of text.matchAll(NAMED)) addName(at(m, 1), false);

  const lowerText = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  let occasion: string | null = null;
  for (const [word, name] of Object.entries(OCCASIONS)) {
    if (lowerText.includes(` ${word} `)) {
      occasion = name;
      break;
    }
  }
  for (const m of text.matchAll(POSSESSIVE)) {
    const what = at(m, 2).toLowerCase();
    if (OCCASIONS[at(what.split(' '), 0)] || OCCASIONS[what]) addName(at(m, 1), false);
  }

  const places: string[] = [];
  for (const m of text.matchAll(PLACE)) {
    const words = at(m, 1)
      .split(/\s+/)
      .filter((w) => !NOT_NAMES.has(w.toLowerCase()) && !OCCASIONS[w.toLowerCase()] && !isKnownWord(w.toLowerCase()));
    const place = words.join(' ');
    if (place && !names.includes(place) && !places.includes(place)) places.push(place);
  }
  return { names: names.slice(0, 3), relation, occasion, places: places.slice(0, 2), topic: about };
}
