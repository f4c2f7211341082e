/**
 * ARPAbet phone strings -> syllables. CMU gives phones with stress digits on vowels ("S AH1 M ER0");
 * syllable boundaries are not given, so consonants between two vowels are split by the maximal onset
 * principle: the next syllable takes the longest run of them that can begin an English word.
 */
import { at } from '../checked.ts';
import { VOWELS, type Phone } from '../types.ts';

const VOWEL_SET: ReadonlySet<string> = new Set(VOWELS);

/** One phone with the stress of its vowel (consonants carry null). */
export interface StressedPhone {
  phone: Phone;
  stress: 0 | 1 | 2 | null;
}

/** A syllable before its letters are known. */
export interface PhoneSyllable {
  onset: Phone[];
  nucleus: Phone;
  coda: Phone[];
  stress: 0 | 1 | 2;
}

export const isVowel = (phone: Phone): boolean => VOWEL_SET.has(phone);

/** "S AH1 M ER0" -> [{S,null},{AH,1},{M,null},{ER,0}]. */
export function parsePhones(text: string): StressedPhone[] {
  return text
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((token) => {
      const match = /^([A-Z]+)([012])?$/.exec(token);
      if (match === null) throw new RangeError(`Not an ARPAbet phone: "${token}"`);
      const phone = match[1] as Phone;
      if (!isVowel(phone)) return { phone, stress: null };
      return { phone, stress: match[2] === undefined ? 0 : (Number(match[2]) as 0 | 1 | 2) };
    });
}

/**
 * Onsets English allows word-initially (the test for "can this cluster start a syllable").
 * Rare loan clusters (SH M, V L ...) are left out on purpose: splitting them keeps syllables singable.
 */
const ONSETS: ReadonlySet<string> = new Set([
  // singles: every consonant but NG (never starts an English syllable)
  'B',
  'CH',
  'D',
  'DH',
  'F',
  'G',
  'HH',
  'JH',
  'K',
  'L',
  'M',
  'N',
  'P',
  'R',
  'S',
  'SH',
  'T',
  'TH',
  'V',
  'W',
  'Y',
  'Z',
  'ZH',
  // stop or fricative + liquid
  'P R',
  'P L',
  'B R',
  'B L',
  'T R',
  'D R',
  'K R',
  'K L',
  'G R',
  'G L',
  'F R',
  'F L',
  'TH R',
  'SH R',
  // + W
  'T W',
  'D W',
  'K W',
  'G W',
  'TH W',
  'S W',
  // + Y (cute, music, few, view, huge)
  'P Y',
  'B Y',
  'F Y',
  'V Y',
  'M Y',
  'K Y',
  'G Y',
  'HH Y',
  'N Y',
  'L Y',
  // S + consonant
  'S P',
  'S T',
  'S K',
  'S M',
  'S N',
  'S L',
  'S F',
  // three-consonant onsets
  'S P R',
  'S P L',
  'S T R',
  'S K R',
  'S K W',
  'S K L',
  'S P Y',
  'S K Y',
  'S M Y',
]);

export const isLegalOnset = (cluster: readonly Phone[]): boolean =>
  cluster.length === 0 || ONSETS.has(cluster.join(' '));

/** Splits a phone sequence into syllables, one per vowel. A sequence without a vowel yields no syllables. */
export function syllabifyPhones(phones: readonly StressedPhone[]): PhoneSyllable[] {
  const vowelAt = phones.flatMap((p, i) => (p.stress === null ? [] : [i]));
  if (vowelAt.length === 0) return [];
  return vowelAt.map((v, k) => {
    const previousVowel = k === 0 ? -1 : at(vowelAt, k - 1);
    const nextVowel = k === vowelAt.length - 1 ? phones.length : at(vowelAt, k + 1);
    const onsetStart =
      k === 0 ? 0 : previousVowel + 1 + codaLength(phones.slice(previousVowel + 1, v).map((p) => p.phone));
    const codaEnd =
      k === vowelAt.length - 1 ? phones.length : v + 1 + codaLength(phones.slice(v + 1, nextVowel).map((p) => p.phone));
    return {
      onset: phones.slice(onsetStart, v).map((p) => p.phone),
      nucleus: at(phones, v).phone,
      coda: phones.slice(v + 1, codaEnd).map((p) => p.phone),
      stress: at(phones, v).stress ?? 0,
    };
  });
}

/** Of the consonants between two vowels, how many stay with the first: all but the longest legal onset. */
function codaLength(cluster: readonly Phone[]): number {
  for (let split = 0; split < cluster.length; split++) {
    if (isLegalOnset(cluster.slice(split))) return split;
  }
  return cluster.length;
}

/** The rhyming part: the last primary-or-secondary-stressed vowel to the end, stress digits removed ("AH M ER"). */
export function rhymePart(phones: readonly StressedPhone[]): string {
  let start = -1;
  for (let i = phones.length - 1; i >= 0; i--) {
    const { stress } = at(phones, i);
    if (stress === 1 || stress === 2) {
      start = i;
      break;
    }
  }
  if (start === -1)
    start = Math.max(
      0,
      phones.findLastIndex((p) => p.stress !== null),
    );
  return phones
    .slice(start)
    .map((p) => p.phone)
    .join(' ');
}
