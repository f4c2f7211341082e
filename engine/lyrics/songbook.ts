/**
 * The songbook lyrics are written from (engine/lyrics/songbook/*.json, reviewable as lyrics): per subject the
 * words that call it up in a prompt, its titles with the hook lines that sing them, and rhymed couplets for each
 * part of a song, in the template language of ./grammar.ts; general.json holds what any song may use.
 * A prompt's subjects are found by their trigger words; the most specific one leads.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The parts of a song a couplet is written for. */
export const PARTS = ['verse', 'later', 'pre', 'chorus', 'bridge', 'short'] as const;
export type SongPart = (typeof PARTS)[number];

/** A title and the lines that sing it; answers rhyme with the title's last word and follow the hook in the chorus. */
export interface TitleEntry {
  title: string;
  hooks: string[];
  answers: string[];
}

/**
 * Couplets are two lines joined by " / " that rhyme (a test checks every variant). verse: the first verse, which
 * sets the scene; later: the verses after it, which take the story on; pre: the lines that lead into a chorus;
 * chorus: the lines a chorus sings after its hook; bridge: a turn of thought; short: lines of four to six
 * syllables for slow songs. A leading "+|" keeps a couplet to happy songs, "-|" to sad ones.
 */
export type Couplets = Partial<Record<SongPart, string[]>>;

export interface Subject extends Couplets {
  name: string;
  /** Words or phrases of a prompt that ask for this subject ("sea", "sailing", "road trip"). */
  triggers: string[];
  /** 3 an occasion or someone named, 2 a place or scene, 1 a feeling; the highest found leads. */
  rank: number;
  titles: TitleEntry[];
  /** #symbol# phrases; "name" is what #name# sings when the prompt names nobody. */
  symbols?: Record<string, string[]>;
}

export interface General extends Couplets {
  /**
   * Hook lines for a title the songbook does not hold: #title# is sung in them, most of them ending on a word
   * the answers rhyme with ("#title# on my mind" / "And I leave the world behind"); echo: the title alone, sung
   * again ("Oh, city lights, city lights"), for a chorus none of a songbook title's own hooks fits.
   */
  frames: { phrase: string[]; name: string[]; answers: string[]; echo: string[] };
  /** Couplets that open a first verse on the place the prompt names (#place#). */
  place: string[];
  /** Couplets that sing what the prompt is about (#topic#) when no subject holds it. */
  topic: Couplets;
  symbols: Record<string, string[]>;
  /** Subjects a prompt without one is sung about, by its mood quadrant. */
  moods: Record<'bright' | 'warm' | 'blue' | 'restless', string[]>;
  /** What a topic no subject holds is (a ride, a food, a person, a place, a game, an animal), by its nouns. */
  kinds: Record<string, Kind>;
}

/**
 * A kind of thing a prompt may be about ("my old bicycle", "pizza", "a lighthouse keeper"): the nouns that name it,
 * hook lines that sing #title# with answers rhyming with them, and couplets with images of their own (wheels and
 * miles, a kitchen and a table), so a song about a topic the songbook has no subject for is not sung in the same
 * general lines as every other.
 */
export interface Kind extends Couplets {
  words: string[];
  hooks: string[];
  answers: string[];
}

export interface Songbook {
  general: General;
  subjects: Subject[];
}

let songbook: Songbook | null = null;

export function loadSongbook(): Songbook {
  if (songbook !== null) return songbook;
  const folder = new URL('./songbook/', import.meta.url);
  const read = <T>(file: string): T => JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as T;
  const subjects = readdirSync(folder)
    .filter((file) => file.endsWith('.json') && file !== 'general.json')
    .sort()
    .map((file) => ({ ...read<Omit<Subject, 'name'>>(file), name: file.replace(/\.json$/, '') }));
  songbook = { general: read<General>('general.json'), subjects };
  return songbook;
}

/** Lower-case words of a prompt, with its phrases findable as " road trip ". */
const spaced = (prompt: string): string =>
  ` ${prompt
    .toLowerCase()
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim()} `;

/**
 * The subjects a prompt asks for, the leading one first: by rank, then by the longest phrase that named it
 * ("road trip" before "road"), then by where in the prompt it is named.
 */
export function findSubjects(prompt: string): Subject[] {
  const text = spaced(prompt);
  const found: { subject: Subject; at: number; words: number }[] = [];
  for (const subject of loadSongbook().subjects) {
    const hits = subject.triggers.filter((t) => text.includes(` ${t} `));
    if (hits.length === 0) continue;
    found.push({
      subject,
      at: Math.min(...hits.map((t) => text.indexOf(` ${t} `))),
      words: Math.max(...hits.map((t) => t.split(' ').length)),
    });
  }
  return found
    .sort((a, b) => b.subject.rank - a.subject.rank || b.words - a.words || a.at - b.at)
    .map((f) => f.subject);
}

export function subjectNamed(name: string): Subject | undefined {
  return loadSongbook().subjects.find((s) => s.name === name);
}

/**
 * The kind of thing a topic is, found by its nouns from the last ("my grandmother's old truck" is a ride), with the
 * noun that named it; null when none of its words names one.
 */
export function kindOf(topic: string | null | undefined): { kind: Kind; word: string } | null {
  if (!topic) return null;
  const words = topic
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^\p{L}]+/u)
    .filter((w) => w !== '')
    .reverse();
  const kinds = Object.values(loadSongbook().general.kinds);
  for (const word of words) {
    const kind = kinds.find((k) => k.words.includes(word));
    if (kind !== undefined) return { kind, word };
  }
  return null;
}
