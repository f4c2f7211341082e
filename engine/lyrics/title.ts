/**
 * The title a written song is sung under, and the hook lines that carry it. A song about a subject the
 * songbook holds takes one of that subject's titles (seeded), with hook lines written for it; a title made
 * elsewhere ("Emma's Birthday", "Summer Love", "For Sam") is matched against the songbook's titles, or sung in
 * general hook frames ("Oh, summer love, summer love").
 */
import type { Random } from '../random.ts';
import type { Subjects } from '../types.ts';
import { expand, type Symbols } from './grammar.ts';
import { rhymeOf } from './measure.ts';
import { kindOf, loadSongbook, type Subject, type TitleEntry } from './songbook.ts';

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
    // "about my dog Biscuit" is titled "Biscuit"; "about summer nights" by the subject's title it names; "about
    // a road trip along the coast" by a title of its subject, whose hook is written to be sung ("Windows down"),
    // not the prompt's words pasted into a line; "summer love" and a topic no subject holds ("my old bicycle") as said.
    const words = contentWords(topic);
    if (name !== null && subjects?.names.some((n) => words.includes(n.toLowerCase()))) return name;
    if (lead === null) return null;
    const spaced = ` ${words.join(' ')} `;
    const named = titlesFor(lead, symbols).find((t) => contentWords(t.title).join(' ') === words.join(' '));
    if (named !== undefined) return named.title;
    // A short topic is a title as it is ("Summer Love"), unless it opens on a verb ("Missing Grandmother").
    const short = words.length <= 2 && !/ing$/.test(words[0] ?? '');
    const single = lead.triggers.includes(words.join(' '));
    if (!single && (short || !lead.triggers.some((trigger) => spaced.includes(` ${trigger} `)))) return null;
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
  /**
   * For long phrases, where a hook alone is too short to sing: a hook joined to an answer ("Roll the windows down,
   * driving out of town"), and as lines after it, the hook joined to another answer or two answers joined.
   */
  longHooks: string[];
  longAnswers: string[];
  symbols: Symbols;
}

/** "Roll the windows down" + "[Oh,] we're driving out of town" -> "Roll the windows down, [oh,] we're driving out of town"; a mood mark stays in front. */
function joined(first: string, second: string): string {
  const mark = /^[+-]\|/.exec(first)?.[0] ?? /^[+-]\|/.exec(second)?.[0] ?? '';
  const body = (t: string) => t.replace(/^[+-]\|/, '');
  const tail = body(second);
  const at = tail.search(/[A-Za-z]/);
  // "I" and "I'm" keep their capital.
  const keeps = /^I(?:['’][a-z]+)?\b/.test(tail.slice(at));
  const lowered = at < 0 || keeps ? tail : tail.slice(0, at) + tail.charAt(at).toLowerCase() + tail.slice(at + 1);
  return `${mark}${body(first).replace(/[,.!?]+$/, '')}, ${lowered}`;
}

/** The last word of a template (never optional in the songbook), or null when a #symbol# ends it. */
function lastWord(template: string): string | null {
  const word = template.trim().split(/\s+/).pop() ?? '';
  return word.includes('#') ? null : word.toLowerCase().replace(/[^a-z']/g, '');
}

/** Two templates end on words that rhyme ("down", "crown"), not on the same word. */
function endsRhyme(a: string, b: string): boolean {
  const [x, y] = [lastWord(a), lastWord(b)];
  if (x === null || y === null || x === y) return false;
  const [p, q] = [rhymeOf(x), rhymeOf(y)];
  return p.rhyme === q.rhyme && p.onset !== q.onset;
}

/** The long hook lines and answers of a title's hooks and answers (mixed moods are left out). */
function withLong(hook: Omit<Hook, 'longHooks' | 'longAnswers'>): Hook {
  const mixed = (a: string, b: string) =>
    (a.startsWith('+|') && b.startsWith('-|')) || (a.startsWith('-|') && b.startsWith('+|'));
  // Only lines that rhyme join: "Pizza on my mind, I leave the whole world behind", never two thoughts that do not.
  const pairs = (xs: readonly string[], ys: readonly string[]) =>
    xs.flatMap((x) => ys.filter((y) => y !== x && !mixed(x, y) && endsRhyme(x, y)).map((y) => joined(x, y)));
  return {
    ...hook,
    longHooks: pairs(hook.hooks, hook.answers),
    longAnswers: [...pairs(hook.hooks, hook.answers), ...pairs(hook.answers, hook.answers)],
  };
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
      return withLong({
        hooks: found.entry.hooks,
        spare: loadSongbook().general.frames.echo,
        answers: found.entry.answers,
        symbols: spare,
      });
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
      ? topic
      : sentenceCase(title, about);
  // A topic of a known kind has hooks of its own ("My old truck, take me down the line"), sung without an indefinite
  // article ("Lighthouse keeper, you showed me the way"); the general frames stay as spares.
  const kind = named ? null : kindOf(topic);
  if (kind !== null)
    return withLong({
      hooks: kind.kind.hooks,
      spare: frames.phrase,
      answers: kind.kind.answers,
      symbols: new Map([...symbols, ['title', [phrase.replace(/^(?:a|an)\s+/i, '')]]]),
    });
  return withLong({
    hooks: named ? frames.name : frames.phrase,
    spare: [],
    answers: frames.answers,
    symbols: new Map([...symbols, ['title', [phrase]]]),
  });
}

/** "Summer Love" -> "summer love", keeping names and places capitalised ("Lisbon Nights" -> "Lisbon nights"). */
function sentenceCase(title: string, about: Subjects | undefined): string {
  const proper = new Set([...(about?.names ?? []), ...(about?.places ?? []).flatMap((p) => p.split(' '))]);
  return title
    .split(' ')
    .map((w) => (proper.has(w) || proper.has(w.replace(/['’]s$/, '')) || w === 'I' ? w : w.toLowerCase()))
    .join(' ');
}
