/**
 * The songbook as data: every variant of every couplet rhymes by the dictionary (judged here, not by the
 * writer), every word is in the dictionary, every hook sings its title, and the parts a line may leave out
 * leave a line that still reads (only openers, adjectives and adverbs are optional).
 */
import test from 'ava';
import { dictionary } from 'cmu-pronouncing-dictionary';
import { expand } from '../../engine/lyrics/grammar.ts';
import { loadSongbook, PARTS, type Couplets } from '../../engine/lyrics/songbook.ts';
import { isRhyme } from './lyrics-rhyme.ts';

const book = loadSongbook();
/** What the prompt would fill in: a name, a place, a topic. */
const SYMBOLS = new Map([
  ['name', ['Emma']],
  ['place', ['Lisbon']],
  ['topic', ['the old town']],
  ['title', ['Summer Love']],
]);
const sources: { name: string; couplets: Couplets }[] = [
  { name: 'general', couplets: book.general },
  { name: 'general topic', couplets: book.general.topic },
  { name: 'general place', couplets: { verse: book.general.place } },
  ...Object.entries(book.general.kinds).map(([name, couplets]) => ({ name: `kind ${name}`, couplets })),
  ...book.subjects.map((s) => ({ name: s.name, couplets: s })),
];
const couplets = sources.flatMap(({ name, couplets }) =>
  PARTS.flatMap((part) => (couplets[part] ?? []).map((text) => ({ where: `${name}.${part}`, text }))),
);
const body = (template: string): string => template.replace(/^[+-]\|/, '');
const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);

test('the songbook holds at least 15 subjects, each with titles and couplets for every part of a song', (t) => {
  t.true(book.subjects.length >= 15);
  for (const subject of book.subjects) {
    t.true(subject.titles.length >= 2, subject.name);
    for (const part of ['verse', 'later', 'chorus', 'bridge', 'short'] as const)
      t.true((subject[part] ?? []).length >= 3, `${subject.name}.${part}`);
  }
});

test('every variant of every couplet rhymes: the same rhyme part after different consonants', (t) => {
  t.true(couplets.length > 500);
  for (const { where, text } of couplets) {
    const [first, second, ...more] = body(text).split(' / ');
    t.is(more.length, 0, `${where}: ${text}`);
    for (const a of expand(first ?? '', SYMBOLS))
      for (const b of expand(second ?? '', SYMBOLS)) t.true(isRhyme(a, b), `${where}: "${a}" / "${b}"`);
  }
});

test('every word of the songbook is in the pronouncing dictionary', (t) => {
  const templates = [
    ...couplets.map((c) => body(c.text)),
    ...book.subjects.flatMap((s) => s.titles.flatMap((e) => [e.title, ...e.hooks, ...e.answers].map(body))),
    ...Object.values(book.general.frames).flatMap((list) => list.map(body)),
    ...Object.values(book.general.kinds).flatMap((kind) => [...kind.hooks, ...kind.answers].map(body)),
  ];
  for (const template of templates) {
    for (const variant of expand(template, SYMBOLS)) {
      for (const word of wordsOf(variant))
        if (!['emma', 'lisbon'].includes(word)) t.true(Object.hasOwn(dictionary, word), `${word} in "${variant}"`);
    }
  }
});

test('every hook sings its title, and every answer rhymes with the title or one of its hooks', (t) => {
  for (const subject of book.subjects) {
    for (const entry of subject.titles) {
      for (const title of expand(entry.title, SYMBOLS)) {
        const words = wordsOf(title.replace(/'s\b/g, '')).filter(
          (w) => !['a', 'an', 'the', 'to', 'of', 'and'].includes(w),
        );
        for (const hook of entry.hooks.flatMap((h) => expand(h, SYMBOLS)))
          for (const word of words)
            t.true(wordsOf(hook.replace(/'s\b/g, '')).includes(word), `${subject.name}: "${hook}" lacks "${word}"`);
        // A hook may go on past its title to end on a word that rhymes ("Oh, Emma, you're my best friend").
        const hooks = entry.hooks.flatMap((h) => expand(h, SYMBOLS));
        for (const answer of entry.answers.flatMap((a) => expand(body(a), SYMBOLS)))
          t.true(
            [title, ...hooks].some((end) => isRhyme(end, answer)),
            `${subject.name}: "${answer}" rhymes with neither "${title}" nor a hook`,
          );
      }
    }
  }
});

/** Openers a line may drop, and adjectives or adverbs it may leave out without breaking. */
const OPENERS = new Set(['and', 'oh,', 'now', 'but', 'so', 'well,', 'just', 'then', 'the', 'yeah,']);
const MODIFIERS = new Set(
  `still all little just ever so finally always softly even quite golden silver sleepy quiet wild whole brand old sweet happy sunny open heavy friendly
  evening morning winter summer autumn gently slowly steady secret distant lonely cozy empty shiny silly restless starry snowy wooden favorite familiar giant
  greatest brightest sweetest longest oldest really very warm soft new green greenest city neon midnight jingle gravel apple birthday party single tiny`.split(
    /\s+/,
  ),
);

test("only openers, adjectives and adverbs are optional, never a line's last word, so every variant reads", (t) => {
  const templates = [
    ...couplets.map((c) => ({ where: c.where, text: body(c.text) })),
    ...book.subjects.flatMap((s) =>
      s.titles.flatMap((e) => [...e.hooks, ...e.answers].map((text) => ({ where: s.name, text: body(text) }))),
    ),
    ...Object.values(book.general.frames).flatMap((list) =>
      list.map((text) => ({ where: 'general frames', text: body(text) })),
    ),
    ...Object.entries(book.general.kinds).flatMap(([name, kind]) =>
      [...kind.hooks, ...kind.answers].map((text) => ({ where: `kind ${name}`, text: body(text) })),
    ),
  ];
  for (const { where, text } of templates) {
    for (const line of text.split(' / ')) {
      t.notRegex(line, /\]\s*$/, `${where}: "${line}" may lose its last word`);
      for (const match of line.matchAll(/\[([^\]]*)\]/g)) {
        const inside = (match[1] ?? '').toLowerCase();
        const opening = line.slice(0, match.index).trim() === '';
        t.true(opening ? OPENERS.has(inside) : MODIFIERS.has(inside), `${where}: "${line}" may leave out "${inside}"`);
      }
    }
  }
});

test('every subject is found by its own trigger words, and no trigger calls up two subjects of the same rank', (t) => {
  const owner = new Map<string, string>();
  for (const subject of book.subjects) {
    for (const trigger of subject.triggers) {
      const other = owner.get(`${subject.rank}:${trigger}`);
      t.is(other, undefined, `"${trigger}" calls up ${other} and ${subject.name}`);
      owner.set(`${subject.rank}:${trigger}`, subject.name);
    }
  }
});

test('every kind of topic has hooks that sing #title#, answers that rhyme with every hook, and couplets for every part', (t) => {
  const kinds = Object.entries(book.general.kinds);
  t.true(kinds.length >= 6);
  for (const [name, kind] of kinds) {
    for (const part of ['verse', 'later', 'chorus', 'bridge', 'short'] as const)
      t.true((kind[part] ?? []).length >= 3, `${name}.${part}`);
    for (const hook of kind.hooks) {
      t.true(hook.includes('#title#'), `${name}: "${hook}"`);
      for (const sung of expand(hook, SYMBOLS))
        for (const answer of kind.answers.flatMap((a) => expand(body(a), SYMBOLS)))
          t.true(isRhyme(sung, answer), `${name}: "${sung}" / "${answer}"`);
    }
  }
});
