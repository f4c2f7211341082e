/**
 * The title a written song is sung under, and the hook lines that carry it. A song about a subject the
 * songbook holds takes one of that subject's titles (seeded), with hook lines written for it; a title made
 * elsewhere ("Emma's Birthday", "Summer Love", "For Sam") is matched against the songbook's titles, or sung in
 * general hook frames ("Oh, summer love, summer love").
 */
import type { Random } from '../random.ts';
import type { Subjects } from '../types.ts';
import { expand, type Symbols } from './grammar.ts';
import { loadSongbook, type Subject, type TitleEntry } from './songbook.ts';

/** Little words a title or a topic may have that carry none of its meaning. */
const LITTLE = new Set('a an the my our your his her their for of to and in on at with'.split(' '));

export const contentWords = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^\p{L}\p{N}']+/u)
    .filter((w) => w !== '' && !LITTLE.has(w));

/** "Anna and Tom", "Emma": the names #name# sings. */
export const nameOf = (subjects: Subjects | undefined): string | null =>
  subjects === undefined || subjects.names.length === 0 ? null : subjects.names.slice(0, 2).join(' and ');

/** The subject's titles that can be sung for this prompt (a title with #name# needs a name). */
function titlesFor(subject: Subject, symbols: Symbols): { entry: TitleEntry; title: string }[] {
  return subject.titles.flatMap((entry) => expand(entry.title, symbols).map((title) => ({ entry, title })));
}

/**
 * The title of a song whose lyrics are written from its prompt, when the lead subject or a named pet or person
 * should name it; null leaves the title to the prompt's words ("Summer Love", "Emma's Birthday", "Lisbon").
 */
export function songTitle(
  lead: Subject | null,
  subjects: Subjects | undefined,
  symbols: Symbols,
  random: Random,
): string | null {
  const topic = subjects?.topic ?? null;
  const name = nameOf(subjects);
  if (name !== null && subjects?.occasion) return null;
  if (topic !== null) {
    // "about my dog Biscuit" is titled "Biscuit"; "about the sea" by the sea's own titles; anything else as said.
    const words = contentWords(topic);
    if (name !== null && subjects?.names.some((n) => words.includes(n.toLowerCase()))) return name;
    const single = lead !== null && words.length >= 1 && lead.triggers.includes(words.join(' '));
    if (!single) return null;
  } else if (name !== null || (subjects?.places.length ?? 0) > 0) {
    return null;
  }
  if (lead === null) return null;
  const titles = titlesFor(lead, symbols);
  return titles.length === 0 ? null : random.pick(titles).title;
}

export interface Hook {
  /** Hook line templates, each carrying the title. */
  hooks: string[];
  /** General frames around the title, for a chorus none of the hooks fits. */
  spare: string[];
  /** Lines that may follow the hook, rhyming with it. */
  answers: string[];
  symbols: Symbols;
}

/** The hook lines for a title: the songbook's own when it holds the title, else general frames around it. */
export function hookFor(
  title: string,
  subjects: readonly Subject[],
  symbols: Symbols,
  about: Subjects | undefined,
): Hook {
  const wanted = title.toLowerCase();
  for (const subject of subjects) {
    const found = titlesFor(subject, symbols).find((t) => t.title.toLowerCase() === wanted);
    if (found !== undefined) {
      // The title as a hook sings it inside a line keeps its own capitals ("I'll be home for Christmas").
      const inLine = found.entry.hooks
        .flatMap((h) => expand(h, symbols))
        .map((h) => h.slice(h.toLowerCase().indexOf(wanted, 1)))
        .find((h) => h.toLowerCase().startsWith(wanted));
      const spare = new Map([
        ...symbols,
        ['title', [inLine?.slice(0, wanted.length) ?? sentenceCase(found.title, about)]],
      ]);
      return {
        hooks: found.entry.hooks,
        spare: loadSongbook().general.frames.phrase,
        answers: found.entry.answers,
        symbols: spare,
      };
    }
  }
  const { frames } = loadSongbook().general;
  const names = about?.names ?? [];
  const words = contentWords(title);
  // "For Sam" or "Biscuit": a name is sung as a name; "Missing Grandmother" as the prompt said it ("missing my grandmother").
  const named = words.length > 0 && words.every((w) => names.some((n) => n.toLowerCase() === w));
  const topic = about?.topic ?? null;
  const phrase = named
    ? names.filter((n) => words.includes(n.toLowerCase())).join(' and ')
    : topic !== null && words.every((w) => contentWords(topic).includes(w))
      ? topic.replace(/^(?:a|an|the)\s+/i, '')
      : sentenceCase(title, about);
  return {
    hooks: named ? frames.name : frames.phrase,
    spare: [],
    answers: [],
    symbols: new Map([...symbols, ['title', [phrase]]]),
  };
}

/** "Summer Love" -> "summer love", keeping names and places capitalised ("Lisbon Nights" -> "Lisbon nights"). */
function sentenceCase(title: string, about: Subjects | undefined): string {
  const proper = new Set([...(about?.names ?? []), ...(about?.places ?? []).flatMap((p) => p.split(' '))]);
  return title
    .split(' ')
    .map((w) => (proper.has(w) || proper.has(w.replace(/['’]s$/, '')) || w === 'I' ? w : w.toLowerCase()))
    .join(' ');
}
