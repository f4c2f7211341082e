/**
 * Words -> syllables: dictionary words keep CMU's phones and stress, syllables split by maximal onset,
 * letters split for karaoke, unknown words spelled by letter-to-sound rules and never dropped.
 */
import test from 'ava';
import { dictionary } from 'cmu-pronouncing-dictionary';
import { pronounceWord, parseLine } from '../../engine/lyrics/index.ts';
import { lettersToPhones } from '../../engine/lyrics/letter-to-sound.ts';
import { isLegalOnset } from '../../engine/lyrics/phones.ts';
import { CONSONANTS, VOWELS, type LyricWord } from '../../engine/types.ts';

const phonesOf = (word: LyricWord): string =>
  word.syllables.flatMap((s) => [...s.onset, s.nucleus, ...s.coda]).join(' ');
const split = (word: LyricWord): string[] =>
  word.syllables.map((s) => `${s.onset.join(' ')}-${s.nucleus}-${s.coda.join(' ')}`);
const KNOWN_PHONES = new Set<string>([...VOWELS, ...CONSONANTS]);
/** Every 211th plain dictionary word: a fixed, spread-out sample of ~600 words. */
const SAMPLE = Object.keys(dictionary)
  .filter((w) => /^[a-z]{2,}$/.test(w))
  .filter((_, i) => i % 211 === 0);

test('dictionary words keep CMU phones, and stress digits move to the syllables', (t) => {
  for (const w of ['summer', 'beautiful', 'extreme', 'ocean', 'tomorrow', 'highway']) {
    const word = pronounceWord(w);
    t.false(word.guessed, w);
    t.is(phonesOf(word), dictionary[w]!.replace(/\d/g, ''), w);
    t.deepEqual(
      word.syllables.map((s) => s.stress),
      [...dictionary[w]!.matchAll(/\d/g)].map((m) => Number(m[0])),
      w,
    );
  }
});

test('every sampled dictionary word keeps its phones and one syllable per vowel', (t) => {
  for (const w of SAMPLE) {
    const word = pronounceWord(w);
    t.is(phonesOf(word), dictionary[w]!.replace(/\d/g, ''), w);
    t.is(word.syllables.length, dictionary[w]!.split(' ').filter((p) => /\d$/.test(p)).length, w);
  }
});

test('syllables split by maximal onset within legal English onsets', (t) => {
  t.deepEqual(split(pronounceWord('summer')), ['S-AH-', 'M-ER-']);
  t.deepEqual(split(pronounceWord('extreme')), ['-EH-K', 'S T R-IY-M']);
  t.deepEqual(split(pronounceWord('constructor')), ['K-AH-N', 'S T R-AH-K', 'T-ER-']);
  t.deepEqual(split(pronounceWord('hamster')), ['HH-AE-M', 'S T-ER-']);
  for (const w of SAMPLE) {
    for (const s of pronounceWord(w).syllables.slice(1)) t.true(isLegalOnset(s.onset), `${w}: ${s.onset.join(' ')}`);
  }
});

test('syllable letters join back into the word and split where a reader would', (t) => {
  t.deepEqual(
    pronounceWord('summer').syllables.map((s) => s.text),
    ['sum', 'mer'],
  );
  t.deepEqual(
    pronounceWord('happy').syllables.map((s) => s.text),
    ['hap', 'py'],
  );
  t.deepEqual(
    pronounceWord('beautiful').syllables.map((s) => s.text),
    ['beau', 'ti', 'ful'],
  );
  t.deepEqual(
    pronounceWord('Tomorrow').syllables.map((s) => s.text),
    ['To', 'mor', 'row'],
  );
  for (const w of [...SAMPLE, 'zorbify', 'Tunesmith', 'blorp', 'rock-and-roll', "don't", 'rhythm', 'idea']) {
    const word = pronounceWord(w);
    t.is(word.syllables.map((s) => s.text).join(''), word.text, w);
    t.is(word.text, w, w);
  }
});

test('one-syllable function words are unstressed, content words keep their stress', (t) => {
  for (const w of ['the', 'a', 'an', 'to', 'of', 'and', 'in', 'on', 'my', 'your', 'I', 'we'])
    t.is(pronounceWord(w).syllables[0]!.stress, 0, w);
  for (const w of ['sun', 'light', 'run', "don't"]) t.is(pronounceWord(w).syllables[0]!.stress, 1, w);
});

test('made-up words are spelled by rules with plausible phones', (t) => {
  const blorp = pronounceWord('blorp');
  t.true(blorp.guessed);
  t.is(phonesOf(blorp), 'B L AO R P');
  const zorbify = pronounceWord('zorbify');
  t.true(zorbify.guessed);
  t.is(zorbify.syllables.length, 3);
  t.is(zorbify.syllables[0]!.stress, 1);
  t.deepEqual(zorbify.syllables[0]!.onset, ['Z']);
  // A compound of two known words is read as them: TUNE-smith.
  const tunesmith = pronounceWord('Tunesmith');
  t.true(tunesmith.guessed);
  t.is(phonesOf(tunesmith), 'T UW N S M IH TH');
  t.deepEqual(
    tunesmith.syllables.map((s) => s.stress),
    [1, 2],
  );
  for (const w of ['glimmerous', 'kwazzle', 'flurbington', 'shmoo', 'brr', 'xyzzy', 'QQ']) {
    const word = pronounceWord(w);
    t.true(word.syllables.length >= 1, w);
    for (const p of word.syllables.flatMap((s) => [...s.onset, s.nucleus, ...s.coda]))
      t.true(KNOWN_PHONES.has(p), `${w}: ${p}`);
    t.true(VOWELS.includes(word.syllables[0]!.nucleus as (typeof VOWELS)[number]), w);
  }
});

test('letter-to-sound rules get the syllable count of most dictionary words right', (t) => {
  const vowels = (phones: readonly string[]) =>
    phones.filter((p) => KNOWN_PHONES.has(p) && (VOWELS as readonly string[]).includes(p)).length;
  const agree = SAMPLE.filter(
    (w) => vowels(lettersToPhones(w)) === vowels(dictionary[w]!.replace(/\d/g, '').split(' ')),
  ).length;
  // Measured 0.91 on a wider sample; names and loan words make up most of the misses.
  t.true(agree / SAMPLE.length > 0.8, `${agree}/${SAMPLE.length}`);
});

test('digits are spelled, contractions and hyphenated words are pronounced', (t) => {
  t.is(pronounceWord('2').text, 'two');
  t.is(phonesOf(pronounceWord('2')), 'T UW');
  t.is(pronounceWord('17').syllables.length, 3);
  t.is(pronounceWord('1999').text, 'one thousand nine hundred ninety nine');
  t.is(phonesOf(pronounceWord("don't")), 'D OW N T');
  t.false(pronounceWord("don't").guessed);
  const rock = pronounceWord('rock-and-roll');
  t.deepEqual(
    rock.syllables.map((s) => s.text),
    ['rock-', 'and-', 'roll'],
  );
  t.false(rock.guessed);
  t.is(pronounceWord('“Summer!”').text, 'Summer');
});

test('a line keeps its punctuation in the text and never drops a word', (t) => {
  const line = parseLine('Hello, zorbify the qwrtz at 42!');
  t.is(line.text, 'Hello, zorbify the qwrtz at 42!');
  t.deepEqual(
    line.words.map((w) => w.text),
    ['Hello', 'zorbify', 'the', 'qwrtz', 'at', 'forty two'],
  );
  t.true(line.words.every((w) => w.syllables.length > 0));
  t.deepEqual(parseLine('  -- !! ').words, []);
});

test('a word with nothing to pronounce is refused', (t) => {
  t.throws(() => pronounceWord('?!'), { instanceOf: RangeError });
});
