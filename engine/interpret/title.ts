/**
 * A short evocative title from the prompt's strongest words: scene and instrument words first, then
 * mood words, plus a seeded noun when the words alone are thin ("rainy piano" -> "Rainy Piano Nights").
 * "a song about summer love" titles itself "Summer Love". Never empty, at most 60 characters.
 */
import type { Random } from '../random.ts';
import type { Subjects } from '../types.ts';
import { titleCase } from './tokenize.ts';

export interface TitleWord {
  phrase: string;
  kind: 'scene' | 'instrument' | 'mood';
  index: number;
}

const CALM_NOUNS = [
  'Nights',
  'Dreams',
  'Echoes',
  'Reverie',
  'Skies',
  'Memories',
  'Afternoon',
  'Letters',
  'Lanterns',
  'Tides',
  'Window',
  'Hours',
];
const BRIGHT_NOUNS = [
  'Run',
  'Rising',
  'Fire',
  'Drive',
  'Anthem',
  'Lights',
  'Pulse',
  'Horizon',
  'Heat',
  'Sky',
  'Parade',
  'Motion',
];
const ADJECTIVES = [
  'Quiet',
  'Golden',
  'Silver',
  'Distant',
  'Velvet',
  'Paper',
  'Hidden',
  'Electric',
  'Midnight',
  'Amber',
  'Glass',
  'Wandering',
];
const STOP = new Set([
  'a',
  'an',
  'the',
  'my',
  'our',
  'your',
  'of',
  'to',
  'and',
  'some',
  'this',
  'that',
  'being',
  'how',
]);
const PRIORITY: Record<TitleWord['kind'], number> = { scene: 0, instrument: 1, mood: 2 };
const MAX_LENGTH = 60;

/** How an occasion reads in a title: "Emma's Birthday", "Happy Birthday" with no name. */
const OCCASION_TITLES: Record<string, string> = {
  birthday: 'Birthday',
  wedding: 'Wedding Day',
  anniversary: 'Anniversary',
  christmas: 'Christmas',
  'new year': 'New Year',
  graduation: 'Graduation Day',
  valentine: 'Valentine',
  retirement: 'Retirement',
  funeral: 'Farewell',
};

export function makeTitle(
  words: readonly TitleWord[],
  about: string | null,
  arousal: number,
  random: Random,
  subjects?: Subjects,
): string {
  // Drawn up front so the stream is the same whatever branch is taken.
  const noun = random.pick(arousal > 0.2 ? BRIGHT_NOUNS : CALM_NOUNS);
  const adjective = random.pick(ADJECTIVES);
  if (about) {
    const topic = about
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => !STOP.has(w))
      .slice(0, 5)
      .join(' ');
    if (topic) return clip(titleCase(topic));
  }
  const name =
    subjects && subjects.names.length >= 2 ? `${subjects.names[0]} and ${subjects.names[1]}` : subjects?.names[0];
  const occasion = subjects?.occasion ? OCCASION_TITLES[subjects.occasion] : undefined;
  if (name && occasion) return clip(`${name}'s ${occasion}`);
  if (name) return clip(`For ${name}`);
  if (subjects?.places[0]) return clip(`${subjects.places[0]} ${noun}`);
  const unique = (list: TitleWord[]) => list.filter((w, i, all) => all.findIndex((o) => o.phrase === w.phrase) === i);
  const things = unique(
    words.filter((w) => w.kind !== 'mood').sort((a, b) => PRIORITY[a.kind] - PRIORITY[b.kind] || a.index - b.index),
  );
  const mood = unique(words.filter((w) => w.kind === 'mood').sort((a, b) => a.index - b.index))[0];
  // One strong phrase of two words or more ("rainy piano") carries a title alone; else a mood adjective
  // leads up to two scene/instrument words ("Sad Piano Rain"), in prompt order.
  const first = things[0];
  const chosen = first?.phrase.includes(' ')
    ? [first.phrase]
    : [
        ...(mood ? [mood.phrase] : []),
        ...things
          .slice(0, 2)
          .sort((a, b) => a.index - b.index)
          .map((w) => w.phrase),
      ];
  if (chosen.length === 0) return `${adjective} ${noun}`;
  const text = chosen.join(' ');
  const wordCount = text.split(' ').length;
  const lower = text.toLowerCase();
  const withNoun = wordCount < 3 && !lower.includes(noun.toLowerCase()) ? `${text} ${noun}` : text;
  return clip(titleCase(withNoun));
}

function clip(title: string): string {
  if (title.length <= MAX_LENGTH) return title;
  const cut = title.slice(0, MAX_LENGTH);
  return cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : MAX_LENGTH).trim();
}
