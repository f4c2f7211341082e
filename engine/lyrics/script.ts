/**
 * Which written words the singer can read. It sings English from Latin letters and digits: a Latin letter with
 * an accent is read as its plain letter ("café"), one of another Latin alphabet as the nearest English spelling
 * ("ß" as "ss", "ø" as "o", "æ" as "ae"), a digit of any script as that digit ("٣" as "3"). A word with a letter
 * of another script (Cyrillic, Greek, Hebrew, Arabic, Chinese, Japanese kana, ...) cannot be sung: the lyrics are
 * refused with the word, its line and what to do, before anything is rendered, rather than sung with words
 * silently left out.
 */

/** Latin letters that no accent-stripping turns into a-z. */
const LATIN_SPELLINGS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  œ: 'oe',
  Œ: 'OE',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'th',
  Ð: 'Th',
  þ: 'th',
  Þ: 'Th',
  ħ: 'h',
  Ħ: 'H',
  ı: 'i',
  ŋ: 'ng',
  Ŋ: 'Ng',
  ĸ: 'k',
  ſ: 's',
  ŀ: 'l',
  Ŀ: 'L',
  ƒ: 'f',
  ə: 'e',
  Ə: 'E',
  ɛ: 'e',
  ɔ: 'o',
  ʃ: 'sh',
  ʒ: 'zh',
  ɲ: 'ny',
  ɾ: 'r',
  ʔ: '',
};

/** Scripts named in the message, tried in this order; a letter of none of them is "non-Latin". */
const SCRIPTS: readonly string[] = [
  'Cyrillic',
  'Greek',
  'Hebrew',
  'Arabic',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Thai',
  'Devanagari',
  'Bengali',
  'Tamil',
  'Armenian',
  'Georgian',
  'Ethiopic',
  'Syriac',
  'Thaana',
  'Khmer',
  'Lao',
  'Tibetan',
  'Sinhala',
  'Gujarati',
  'Gurmukhi',
  'Kannada',
  'Malayalam',
  'Telugu',
  'Myanmar',
  'Mongolian',
];
const SCRIPT_TESTS = SCRIPTS.map((name) => ({ name, test: new RegExp(`\\p{Script=${name}}`, 'u') }));
const NAMES: Readonly<Record<string, string>> = {
  Han: 'Chinese',
  Hiragana: 'Japanese hiragana',
  Katakana: 'Japanese katakana',
  Hangul: 'Korean',
};

export type Reading = { readable: true; text: string } | { readable: false; script: string };

/** A word as the singer reads it, or the script it is written in when the singer cannot read it. */
export function readWord(word: string): Reading {
  let text = '';
  for (const char of word.normalize('NFKC')) {
    if (/\p{Nd}/u.test(char)) text += String(digitValue(char));
    else if (/\p{L}/u.test(char) && !/\p{Script=Latin}/u.test(char)) return { readable: false, script: scriptOf(char) };
    else text += LATIN_SPELLINGS[char] ?? char;
  }
  // Accents off ("café" -> "cafe"); a Latin letter still outside a-z after that is left out of the reading.
  const plain = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\P{L}a-zA-Z]/gu, '');
  if (!/[a-z0-9]/i.test(plain)) return { readable: false, script: 'unknown' };
  // A word that only has accents keeps them: the pronouncer takes them off itself and shows "café" as written.
  const accentsOnly = word.normalize('NFKC').normalize('NFD').replace(/\p{M}/gu, '') === plain;
  return { readable: true, text: accentsOnly ? word : plain };
}

/** Whether a token is a word at all (has a letter or a digit); punctuation and emoji are not sung. */
export const isWord = (token: string): boolean => /[\p{L}\p{N}]/u.test(token);

/** The digit a decimal digit of any script stands for: its distance from the zero of its run of ten. */
function digitValue(char: string): number {
  let code = char.codePointAt(0) ?? 0;
  let steps = 0;
  while (steps < 9 && /\p{Nd}/u.test(String.fromCodePoint(code - 1))) {
    code--;
    steps++;
  }
  return steps;
}

function scriptOf(char: string): string {
  const found = SCRIPT_TESTS.find((s) => s.test.test(char))?.name;
  return found === undefined ? 'non-Latin' : (NAMES[found] ?? found);
}

/** The sentence for a word the singer cannot read, with where it is when the line is known. */
export function unreadableMessage(word: string, script: string, line?: number): string {
  const where = line === undefined ? '' : `Line ${line}: `;
  const written =
    script === 'unknown'
      ? 'has no letter the singer can pronounce'
      : `is written in ${script} script, which the singer cannot pronounce`;
  return `${where}"${word}" ${written}: it sings English words written in Latin letters. Write it in Latin letters or leave it out.`;
}
