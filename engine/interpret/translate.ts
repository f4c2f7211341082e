/**
 * Prompts in other languages: the prompt's language is detected (Japanese by its script, the others by which
 * language's words it uses) and its recognised phrases are rewritten to the English lexicon's phrases before the
 * English interpreter runs ("musique douce pour dormir" -> "music soft to sleep to"). Words no table knows stay
 * as written, so names, numbers and keys survive ("para mi hija Emma" -> "for my daughter Emma").
 * Accents and case never matter: phrases and prompts meet folded ("canción" = "cancion" = "CANCION").
 */
import { at, last } from '../checked.ts';
import type { LanguageTable } from '../lexicon/index.ts';

export interface Translation {
  /** ISO 639-1 code ("en", "es", ...). */
  language: string;
  /** The language's English name ("Spanish"). */
  name: string;
  /** The text the English interpreter reads. */
  text: string;
  /** Each rewritten phrase, as written and in English, in prompt order. */
  replaced: { source: string; english: string }[];
  /** The script of a prompt written in a language the engine does not read ("Cyrillic"), else null. */
  unsupported: string | null;
}

/** Latin-script words an English prompt uses; a foreign word spelled the same never counts as evidence for its language. */
const ENGLISH_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'with',
  'for',
  'of',
  'to',
  'in',
  'on',
  'at',
  'by',
  'from',
  'about',
  'my',
  'our',
  'your',
  'me',
  'i',
  'we',
  'you',
  'it',
  'is',
  'be',
  'no',
  'not',
  'so',
  'do',
  'come',
  'die',
  'fest',
  'man',
  'son',
  'pie',
  'red',
  'solo',
  'alto',
  'tempo',
  'piano',
  'bass',
  'base',
  'sole',
  'song',
  'music',
  'beat',
  'party',
  'sport',
  'training',
  'workout',
  'meditation',
  'cello',
  'viola',
  'tuba',
  'oboe',
  'banjo',
  'ukulele',
  'synth',
  'synthesizer',
  'funeral',
  'orchestra',
  'orchestral',
  'intense',
  'horn',
  'winter',
  'studio',
  'lento',
  'allegro',
  'cafe',
  'coda',
  'forte',
]);

/** Scripts the engine cannot read: a prompt in one of them gets a warning rather than a confident default. */
const UNSUPPORTED_SCRIPTS: [string, RegExp][] = [
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Hangul (Korean)', /\p{Script=Hangul}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
];
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;
/**
 * Common simplified Chinese characters Japanese never writes (it has 楽, 愛, 歓, 聴, 動, 電… or kana instead): Han
 * text without kana that has one is Chinese ("快乐的生日歌" knows 歌 from the Japanese table but is not Japanese).
 * 的 is not among them: Japanese writes it too (幻想的).
 */
const SIMPLIFIED_CHINESE = /[们这么吗呢乐爱欢听动钢轻伤调节让应电话时间为说]/u;
const HIRAGANA = /\p{Script=Hiragana}/u;

/** Lower case, accents off, ß as ss: how phrases and prompt words are compared. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/ß/g, 'ss');
}

/** A table phrase's key: folded words joined by single spaces ("Canción de cuna" -> "cancion de cuna"). */
export function phraseKey(phrase: string): string {
  return (fold(phrase).match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

interface Word {
  folded: string;
  start: number;
  end: number;
}

const ENGLISH: Omit<Translation, 'text'> = { language: 'en', name: 'English', replaced: [], unsupported: null };

/**
 * `englishWords` lists the prompt's words the English lexicon recognises. A language is chosen when its own words
 * outnumber the English words it does not also claim ("lo-fi" stays English although "lo" is an Italian article;
 * "lamento lento per violoncello solo" is Italian although "solo" and "violoncello" are English too).
 */
export function translatePrompt(
  prompt: string,
  tables: readonly LanguageTable[],
  englishWords: (text: string) => readonly string[],
): Translation {
  const japanese = tables.find((t) => t.substring);
  // Kana is Japanese; Han alone could be Chinese, so it counts only where the Japanese table knows its words and
  // no simplified Chinese character says otherwise.
  if (japanese && (KANA.test(prompt) || (HAN.test(prompt) && !SIMPLIFIED_CHINESE.test(prompt)))) {
    const read = translateJapanese(prompt, japanese);
    if (KANA.test(prompt) || read.replaced.length > 0)
      return { ...read, language: japanese.code, name: japanese.name, unsupported: null };
  }
  for (const [script, pattern] of UNSUPPORTED_SCRIPTS) {
    if (pattern.test(prompt)) return { ...ENGLISH, text: prompt, unsupported: script };
  }
  if (HAN.test(prompt)) return { ...ENGLISH, text: prompt, unsupported: 'Han (Chinese)' };

  const words: Word[] = [...prompt.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({
    folded: fold(m[0]),
    start: m.index,
    end: m.index + m[0].length,
  }));
  const english = [
    ...englishWords(prompt).map(fold),
    ...words.filter((w) => ENGLISH_WORDS.has(w.folded)).map((w) => w.folded),
  ];
  const englishSet = new Set(english);
  let best: { table: LanguageTable; score: number } | null = null;
  for (const table of tables) {
    if (table.substring) continue;
    const { evidence } = scan(prompt, words, table, englishSet);
    // A word English knows too ("sombre", "etude") is weak evidence, and weak evidence alone is not enough.
    if (evidence.strong === 0) continue;
    const score = evidence.strong + evidence.weak / 2 - english.filter((w) => !table.phrases.has(w)).length;
    if (score > (best?.score ?? 0)) best = { table, score };
  }
  if (!best) return { ...ENGLISH, text: prompt };
  const { text, replaced } = scan(prompt, words, best.table, englishSet);
  return { language: best.table.code, name: best.table.name, text, replaced, unsupported: null };
}

/** Words joined only by spaces, hyphens or apostrophes belong to one phrase; punctuation ends it. */
const joined = (prompt: string, a: Word, b: Word): boolean => /^[\s'’-]*$/.test(prompt.slice(a.end, b.start));

/**
 * A greedy longest-phrase rewrite of the prompt with one table. `evidence` counts the rewritten words: strong
 * when English does not know them, weak when it does ("sombre"); English function words count for nothing.
 */
function scan(
  prompt: string,
  words: readonly Word[],
  table: LanguageTable,
  english: ReadonlySet<string>,
): { text: string; replaced: Translation['replaced']; evidence: { strong: number; weak: number } } {
  let text = '';
  let cursor = 0;
  const evidence = { strong: 0, weak: 0 };
  let afterPut = false;
  const replaced: Translation['replaced'] = [];
  // An elision next to a rewritten phrase ("d'anniversaire", "l'accordéon") becomes a space: "of birthday", not "of'birthday".
  const gap = (end: number, beforePut: boolean): string => {
    let between = prompt.slice(cursor, end);
    if (afterPut) between = between.replace(/^['’]/, ' ');
    if (beforePut) between = between.replace(/['’]$/, ' ');
    return between;
  };
  const put = (span: readonly Word[], meaning: string): void => {
    const start = at(span, 0).start;
    const end = last(span).end;
    text += `${gap(start, true)}${meaning}`;
    cursor = end;
    afterPut = true;
    for (const w of span) {
      if (english.has(w.folded)) evidence.weak += 1;
      else if (!ENGLISH_WORDS.has(w.folded)) evidence.strong += 1;
    }
    replaced.push({ source: prompt.slice(start, end), english: meaning });
  };
  for (let i = 0; i < words.length; ) {
    const found = longest(prompt, words, i, table);
    if (found !== null) {
      const span = words.slice(i, i + found.n);
      // A phrase spelled as in English stays as written and proves nothing.
      if (found.english !== found.key) put(span, found.english);
      else afterPut = false;
      i += found.n;
      continue;
    }
    const word = at(words, i);
    const stem = inflected(word.folded, table) ?? (table.compounds ? splitCompound(word.folded, table) : null);
    if (stem !== null) put([word], stem);
    else afterPut = false;
    i += 1;
  }
  text += gap(prompt.length, false);
  return { text, replaced, evidence };
}

/** The longest phrase of the table starting at word i. */
function longest(
  prompt: string,
  words: readonly Word[],
  i: number,
  table: LanguageTable,
): { n: number; key: string; english: string } | null {
  for (let n = Math.min(table.maxWords, words.length - i); n >= 1; n--) {
    if (n > 1 && !joined(prompt, at(words, i + n - 2), at(words, i + n - 1))) continue;
    const key = words
      .slice(i, i + n)
      .map((w) => w.folded)
      .join(' ');
    const english = table.phrases.get(key);
    if (english !== undefined) return { n, key, english };
  }
  return null;
}

/** A known word with an inflectional ending ("fröhliches" -> "fröhlich", "Streichern" -> "Streicher"). */
function inflected(word: string, table: LanguageTable): string | null {
  for (const ending of table.endings) {
    if (word.length - ending.length < 3 || !word.endsWith(ending)) continue;
    const english = table.phrases.get(word.slice(0, -ending.length));
    if (english !== undefined) return english;
  }
  return null;
}

/** German compounds of two known words, with or without a linking s/n/e: "Klaviermusik", "Geburtstagslied". */
function splitCompound(word: string, table: LanguageTable): string | null {
  for (let k = word.length - 3; k >= 3; k--) {
    const head = table.phrases.get(word.slice(0, k));
    if (head === undefined) continue;
    for (const tail of [word.slice(k), ...(/^[sne]/.test(word.slice(k)) ? [word.slice(k + 1)] : [])]) {
      const english = tail.length >= 3 ? (table.phrases.get(tail) ?? inflected(tail, table)) : undefined;
      if (english != null) return `${head} ${english}`;
    }
  }
  return null;
}

/**
 * Japanese has no spaces: phrases match as substrings, longest first at each position. Unmatched hiragana
 * (particles: の, で, に) is dropped; other unmatched text (names in katakana, Latin words, numbers) stays.
 */
function translateJapanese(prompt: string, table: LanguageTable): Pick<Translation, 'text' | 'replaced'> {
  const source = prompt.normalize('NFKC');
  const replaced: Translation['replaced'] = [];
  let text = '';
  for (let i = 0; i < source.length; ) {
    let hit: string | null = null;
    for (let n = Math.min(table.maxLength, source.length - i); n >= 1 && hit === null; n--) {
      const english = table.phrases.get(source.slice(i, i + n).toLowerCase());
      if (english !== undefined) {
        hit = english;
        replaced.push({ source: source.slice(i, i + n), english });
        i += n;
      }
    }
    if (hit !== null) {
      text += ` ${hit} `;
      continue;
    }
    const char = at(source, i);
    text +=
      HIRAGANA.test(char) || char === '、' || char === '。' ? (char === '、' || char === '。' ? ', ' : ' ') : char;
    i += 1;
  }
  return { text: text.replace(/\s+/g, ' ').trim(), replaced };
}
