/**
 * Which preset a prompt is in. Genre words decide; with none, scene/instrument votes ("battle",
 * "neon", "piano") decide; with neither, pop (or ambient for very calm prompts, or by seed for
 * prompts with no recognised word at all). A genre stated outright beats a word that names a setting
 * ("heavy metal played in a jazz bar", "reggae for a video game menu"): the setting chooses only when nothing else does.
 */
import type { Random } from '../random.ts';
import type { Content } from './match.ts';

export interface GenreChoice {
  genre: string;
  blend: { genre: string; weight: number } | null;
  source: string;
  why: string;
  /** Setting words a stated genre outweighed ("jazz bar" under "heavy metal played in a jazz bar"). */
  settings: string[];
  /** The winning word's own tempo range, for a dance ("tarantella"): pulses a minute. */
  dance: { phrase: string; min: number; max: number } | null;
}

/**
 * The second genre blends in when its score is at least this share of the first's (section 2.2).
 * Its weight in the spec is its share of the two scores, second / (first + second): 0.375–0.5.
 */
export const BLEND_THRESHOLD = 0.6;

interface Tally {
  genre: string;
  score: number;
  first: number;
  words: string[];
}

function tally(votes: { genre: string; weight: number; index: number; phrase: string }[]): Tally[] {
  const byGenre = new Map<string, Tally>();
  for (const vote of votes) {
    const t = byGenre.get(vote.genre) ?? { genre: vote.genre, score: 0, first: vote.index, words: [] };
    t.score += vote.weight;
    t.first = Math.min(t.first, vote.index);
    if (!t.words.includes(vote.phrase)) t.words.push(vote.phrase);
    byGenre.set(vote.genre, t);
  }
  // Highest score first; a tie goes to the genre named first.
  return [...byGenre.values()].sort((a, b) => b.score - a.score || a.first - b.first);
}

/** Words that name dance music, unless they follow a genre: then they name that genre's dance ("salsa dance", "swing dance"). */
const DANCE_WORDS: ReadonlySet<string> = new Set(['dance', 'dance music']);

/** Whether `c` is a dance word right after another genre's phrase, naming that genre's dance rather than dance music. */
function namesItsDance(c: Content & { kind: 'genre' }, genres: readonly (Content & { kind: 'genre' })[]): boolean {
  return (
    DANCE_WORDS.has(c.phrase) &&
    genres.some(
      (other) =>
        other !== c && !DANCE_WORDS.has(other.phrase) && other.index + other.phrase.split(' ').length === c.index,
    )
  );
}

export function chooseGenre(
  content: readonly Content[],
  arousalSum: number,
  recognisedAnything: boolean,
  wantsSong: boolean,
  isSung: (genre: string) => boolean,
  random: Random,
): GenreChoice {
  const named = content.filter((c): c is Content & { kind: 'genre' } => c.kind === 'genre' && !c.negated);
  const genres = named.filter((c) => c.entry.setting !== true);
  const settings = named.filter((c) => c.entry.setting === true);
  const genreVotes = genres
    .filter((c) => !namesItsDance(c, named))
    .map((c) => ({ genre: c.entry.genre, weight: c.entry.weight, index: c.index, phrase: c.phrase }));
  const ranked = tally(genreVotes);
  if (ranked.length > 0) {
    const [top, second] = ranked as [Tally, Tally | undefined];
    const blend =
      second && second.score >= BLEND_THRESHOLD * top.score
        ? { genre: second.genre, weight: Math.round((second.score / (top.score + second.score)) * 100) / 100 }
        : null;
    const dancing = genres.find((c) => c.entry.genre === top.genre && c.entry.bpm);
    const dance = dancing?.entry.bpm ? { phrase: dancing.phrase, ...dancing.entry.bpm } : null;
    const outweighed = settings.map((c) => c.phrase);
    return { genre: top.genre, blend, source: top.words.join(', '), why: 'genre word', settings: outweighed, dance };
  }

  // A setting ("a jazz bar", "video game") votes with the scene and instrument words, at its full weight.
  const settingVotes = settings.map((c) => ({
    genre: c.entry.genre,
    weight: c.entry.weight,
    index: c.index,
    phrase: c.phrase,
  }));
  const hintVotes = content.flatMap((c) => {
    if ('negated' in c && c.negated) return [];
    const genres = c.kind === 'hint' ? c.hints.genres : c.kind === 'instrument' ? c.entry.genres : undefined;
    // When a song is asked for, sung styles are the likelier reading of a scene ("a song for my wedding").
    return Object.entries(genres ?? {}).map(([genre, weight]) => ({
      genre,
      weight: wantsSong && !isSung(genre) ? weight / 2 : weight,
      index: c.index,
      phrase: c.phrase,
    }));
  });
  const [top] = tally([...settingVotes, ...hintVotes]);
  if (top !== undefined)
    return {
      genre: top.genre,
      blend: null,
      settings: [],
      dance: null,
      source: top.words.join(', '),
      why: 'suggested by setting, scene and instrument words',
    };

  if (wantsSong)
    return {
      genre: 'pop',
      blend: null,
      settings: [],
      dance: null,
      source: 'default',
      why: 'no genre word; a song was asked for: default pop',
    };
  if (!recognisedAnything) {
    return {
      genre: random.pick(['pop', 'ambient']),
      blend: null,
      settings: [],
      dance: null,
      source: 'default',
      why: 'no recognised words: defaults (genre by seed)',
    };
  }
  if (arousalSum <= -0.5)
    return {
      genre: 'ambient',
      blend: null,
      settings: [],
      dance: null,
      source: 'default',
      why: 'no genre word; very calm mood suggests ambient',
    };
  return { genre: 'pop', blend: null, settings: [], dance: null, source: 'default', why: 'no genre word: default pop' };
}
