/**
 * A written word -> its syllables. The CMU dictionary first; unknown words are taken apart (digits,
 * hyphens, compounds of two known words, a known word plus a common suffix) and only then spelled by
 * letter-to-sound rules. A word is never dropped: anything with a letter or a digit gets syllables.
 */
import { at, last } from '../checked.ts';
import type { LyricWord, Phone, Syllable } from '../types.ts';
import { lookupPhones } from './dictionary.ts';
import { lettersToPhones } from './letter-to-sound.ts';
import { spellNumber } from './numbers.ts';
import { isVowel, parsePhones, syllabifyPhones, type StressedPhone } from './phones.ts';
import { sliceLetters } from './spelling.ts';

/** One-syllable words that carry no stress in a sung line, so they can sit on weak beats. */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'and',
  'or',
  'but',
  'in',
  'on',
  'at',
  'by',
  'for',
  'from',
  'with',
  'as',
  'if',
  'so',
  'than',
  'that',
  'my',
  'your',
  'his',
  'her',
  'its',
  'our',
  'their',
  'i',
  'you',
  'he',
  'she',
  'it',
  'we',
  'they',
  'me',
  'him',
  'us',
  'them',
  'is',
  'am',
  'are',
  'was',
  'were',
  'be',
  'been',
  'can',
  'will',
  'would',
  'could',
  'should',
  'do',
  'does',
  'did',
  'has',
  'have',
  'had',
  'not',
  'no',
  'nor',
  'up',
  'out',
  'when',
  'where',
  'what',
  'who',
  'this',
  'these',
  'those',
  'there',
  "i'm",
  "it's",
  "i'll",
  "we're",
  "you're",
  'just',
  'like',
  'through',
  'till',
  "'til",
  'oh',
]);

/** Suffixes tried on an unknown word whose stem is known ("tunesmiths", "zooming"). */
const SUFFIXES: readonly { letters: string; phones: string; stemE?: boolean }[] = [
  { letters: "'s", phones: 'Z' },
  { letters: 's', phones: 'Z' },
  { letters: 'ing', phones: 'IH0 NG', stemE: true },
  { letters: 'ed', phones: 'D', stemE: true },
  { letters: 'ly', phones: 'L IY0' },
  { letters: 'er', phones: 'ER0', stemE: true },
];

interface Part {
  text: string;
  phones: StressedPhone[];
  guessed: boolean;
}

export function pronounceWord(word: string): LyricWord {
  const cleaned = word
    .normalize('NFKC')
    .replace(/[’‘`]/g, "'")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  const plain = cleaned.normalize('NFD').replace(/\p{M}/gu, ''); // "café" -> "cafe"
  if (!/[a-z0-9]/i.test(plain)) throw new RangeError(`Nothing to pronounce in "${word}"`);

  // Hyphenated words go part by part even when listed ("rock-and-roll"), so each part keeps its own letters.
  const whole = plain.includes('-') ? undefined : voiced(lookupPhones(plain.toLowerCase()));
  const parts: (Part | string)[] =
    whole !== undefined ? [{ text: cleaned, phones: parsePhones(whole), guessed: false }] : splitParts(plain);
  const syllables: Syllable[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      // A separator ("-", " ", "/") rides on the previous syllable so the texts still join into the word.
      if (syllables.length > 0) last(syllables).text += part;
      continue;
    }
    const phoneSyllables = syllabifyPhones(part.phones);
    const texts = sliceLetters(part.text, phoneSyllables);
    for (const [k, s] of phoneSyllables.entries()) syllables.push({ ...s, text: at(texts, k) });
  }
  const text = syllables.map((s) => s.text).join('');
  if (syllables.length === 1 && FUNCTION_WORDS.has(text.toLowerCase())) at(syllables, 0).stress = 0;
  return { text, syllables, guessed: parts.some((p) => typeof p !== 'string' && p.guessed) };
}

/** A dictionary entry with a vowel; a few have none ("hm" HH M, "sh" SH), and a syllable needs one, so those are spelled. */
const voiced = (phones: string | undefined): string | undefined =>
  phones !== undefined && /[012]/.test(phones) ? phones : undefined;

/** Splits "rock-and-roll", "24/7" or "4ever" into pronounced parts and the separators between them. */
function splitParts(text: string): (Part | string)[] {
  const out: (Part | string)[] = [];
  for (const token of text.match(/\d+|[\p{L}']+|[^\p{L}\d']+/gu) ?? []) {
    if (/^\d+$/.test(token)) {
      spellNumber(token).forEach((spelled, k) => {
        if (k > 0) out.push(' ');
        out.push({ text: spelled, phones: parsePhones(lookupPhones(spelled) ?? ''), guessed: false });
      });
    } else if (/[\p{L}]/u.test(token)) {
      out.push(pronouncePart(token));
    } else if (out.length > 0) {
      out.push(token === '-' ? '-' : ' ');
    }
  }
  // Separators only ride on a previous part; drop a trailing one so the word does not end in "-".
  while (typeof out[out.length - 1] === 'string') out.pop();
  return out;
}

function pronouncePart(text: string): Part {
  const lower = text.toLowerCase();
  const known = voiced(lookupPhones(lower));
  if (known !== undefined) return { text, phones: parsePhones(known), guessed: false };
  const letters = lower.replace(/[^a-z]/g, '');
  if (letters.length > 0 && (!/[aeiouy]/.test(letters) || (text === text.toUpperCase() && letters.length <= 3))) {
    return { text, phones: spellLetters(letters), guessed: true };
  }
  const phones = fromKnownPieces(lower) ?? withStress(lettersToPhones(lower), lower);
  if (!phones.some((p) => p.stress !== null)) return { text, phones: spellLetters(letters), guessed: true };
  return { text, phones, guessed: true };
}

/** A compound of two dictionary words ("tune|smith") or a known stem plus a suffix ("blog|ging" aside). */
function fromKnownPieces(word: string): StressedPhone[] | null {
  for (const suffix of SUFFIXES) {
    if (!word.endsWith(suffix.letters) || word.length - suffix.letters.length < 3) continue;
    const stem = word.slice(0, -suffix.letters.length);
    const stemPhones = lookupPhones(stem) ?? (suffix.stemE === true ? lookupPhones(`${stem}e`) : undefined);
    if (stemPhones !== undefined)
      return [...parsePhones(stemPhones), ...parsePhones(suffixPhones(suffix.phones, stemPhones))];
  }
  let best: { first: string; second: string; balance: number } | null = null;
  for (let cut = 3; cut <= word.length - 3; cut++) {
    const first = lookupPhones(word.slice(0, cut));
    const second = lookupPhones(word.slice(cut));
    const balance = Math.min(cut, word.length - cut);
    if (first !== undefined && second !== undefined && (best === null || balance > best.balance))
      best = { first, second, balance };
  }
  if (best === null) return null;
  // The second half of a compound takes secondary stress ("TUNE-smith").
  const second = parsePhones(best.second).map((p) => (p.stress === 1 ? { ...p, stress: 2 as const } : p));
  return [...parsePhones(best.first), ...second];
}

/** Voicing agreement for -s and -ed after the stem's last sound ("cats" S, "wished" T, "tuned" D). */
function suffixPhones(phones: string, stem: string): string {
  const last = stem.split(' ').pop() ?? '';
  if (phones === 'Z')
    return ['S', 'Z', 'SH', 'ZH', 'CH', 'JH'].includes(last)
      ? 'IH0 Z'
      : ['P', 'T', 'K', 'F', 'TH'].includes(last)
        ? 'S'
        : 'Z';
  if (phones === 'D')
    return ['T', 'D'].includes(last) ? 'IH0 D' : ['P', 'K', 'F', 'TH', 'S', 'SH', 'CH'].includes(last) ? 'T' : 'D';
  return phones;
}

/** Letter names, for acronyms and vowel-less strings ("DJ", "brr"): every letter is in the dictionary. */
function spellLetters(letters: string): StressedPhone[] {
  return [...letters].flatMap((letter) => parsePhones(lookupPhones(letter) ?? 'AH1'));
}

/**
 * Stress for rule-spelled phones: English content words mostly stress the first syllable, except after an
 * unstressed prefix ("be-", "re-", "de-", "a-") where the second takes it.
 */
function withStress(phones: readonly Phone[], word: string): StressedPhone[] {
  const vowelCount = phones.filter(isVowel).length;
  const stressed = vowelCount >= 2 && /^(be|re|de|a)[^aeiou]/.test(word) ? 1 : 0;
  let v = -1;
  return phones.map((phone) => {
    if (!isVowel(phone)) return { phone, stress: null };
    v++;
    return { phone, stress: v === stressed ? 1 : 0 };
  });
}
