/**
 * Lyrics in scripts the singer cannot read (issue 29): refused with a sentence that names the word, its line and
 * its script, at every engine entry point that reads lyrics (the request's lyrics, a plan's section lyrics,
 * parsing), never a RangeError; Latin letters of any alphabet and digits of any script are sung. A seeded sweep
 * over odd Unicode checks the rule holds for text nobody wrote by hand.
 */
import test from 'ava';
import {
  checkRequest,
  compose,
  interpret,
  InvalidLyricsError,
  LyricsTooLongError,
  planDuration,
  type GenerationRequest,
} from '../../engine/index.ts';
import { parseLyrics } from '../../engine/lyrics/index.ts';
import { createRandom } from '../../engine/random.ts';

const request = (extra: Partial<GenerationRequest>): GenerationRequest => ({
  prompt: 'pop song',
  duration: 30,
  style: null,
  instrumental: false,
  seed: 1,
  lyrics: null,
  ...extra,
});
const sung = (text: string): string[] =>
  parseLyrics(text).sections.flatMap((s) => s.lines.flatMap((l) => l.words.map((w) => w.text)));

/** The probe's inputs: each word, the line it is on, and the script the message names. */
const UNREADABLE: [string, number, string, string][] = [
  ['привет мир\nsecond line', 1, 'привет', 'Cyrillic'],
  ['first line\nשלום עולם', 2, 'שלום', 'Hebrew'],
  ['مرحبا', 1, 'مرحبا', 'Arabic'],
  ['Καλημέρα κόσμε', 1, 'Καλημέρα', 'Greek'],
  ['hello 世界', 1, '世界', 'Chinese'],
  ['[Chorus]\nla la\nこんにちは', 3, 'こんにちは', 'Japanese hiragana'],
  ['カタカナ', 1, 'カタカナ', 'Japanese katakana'],
  ['사랑해 baby', 1, '사랑해', 'Korean'],
  ['mixed line with слово inside', 1, 'слово', 'Cyrillic'],
];

for (const [text, line, word, script] of UNREADABLE) {
  test(`lyrics with "${word}" are refused: line ${line}, the word, its script and what to do`, (t) => {
    const error = t.throws(() => parseLyrics(text), { instanceOf: InvalidLyricsError });
    t.regex(error.message, new RegExp(`^Line ${line}: "${word}" is written in ${script} script`));
    t.regex(error.message, /Write it in Latin letters or leave it out\.$/);
  });
}

test('every entry point that reads lyrics gives the same refusal: request lyrics, section lyrics, a plan measured', (t) => {
  const lyrics = 'привет мир\nsecond line';
  const message = /^Line 1: "привет" is written in Cyrillic script/;
  t.throws(() => checkRequest(request({ lyrics })), { instanceOf: InvalidLyricsError, message });
  t.throws(
    () =>
      planDuration(
        request({
          plan: [
            { kind: 'verse', bars: 8, lyrics },
            { kind: 'chorus', bars: 8 },
          ],
        }),
      ),
    { instanceOf: InvalidLyricsError, message },
  );
});

test('Latin letters of any alphabet are sung as their nearest English spelling; accents stay in the text', (t) => {
  t.deepEqual(sung('ß'), ['ss']);
  t.deepEqual(sung('Straße'), ['Strasse']);
  t.deepEqual(sung('café naïve İstanbul'), ['café', 'naïve', 'İstanbul']);
  t.deepEqual(sung('smørrebrød Łódź'), ['smorrebrod', 'Lodz']);
  t.deepEqual(sung('Ærø'), ['AEro']);
});

test('digits of any script are sung as numbers', (t) => {
  t.deepEqual(sung('٣ little birds'), ['three', 'little', 'birds']);
  t.deepEqual(sung('۷'), ['seven']);
  t.deepEqual(sung('१२'), ['twelve']);
  t.deepEqual(sung('２０'), ['twenty']);
});

test('a word with no letter the singer can say is refused, not sung as silence', (t) => {
  const error = t.throws(() => parseLyrics('oh ʔ oh'), { instanceOf: InvalidLyricsError });
  t.regex(error.message, /^Line 1: "ʔ" has no letter the singer can pronounce/);
});

test('a word the dictionary lists without a vowel ("hm", "sh") is still sung, and the track composes', (t) => {
  for (const word of parseLyrics('hm sh ths').sections[0]!.lines[0]!.words)
    t.true(word.syllables.length > 0, word.text);
  const lyrics = 'hm sh hm\nths';
  checkRequest(request({ lyrics }));
  const vocal = compose(interpret(request({ lyrics }))).vocal;
  t.is(vocal?.lines.length, 2);
});

/** Code points from many scripts and odd corners: letters, marks, digits, symbols, emoji, format and space characters. */
const RANGES: [number, number][] = [
  [0x20, 0x7e],
  [0xa0, 0x24f],
  [0x250, 0x2af],
  [0x300, 0x36f],
  [0x370, 0x3ff],
  [0x400, 0x4ff],
  [0x590, 0x5ff],
  [0x600, 0x6ff],
  [0x900, 0x97f],
  [0x9e6, 0x9ef],
  [0xe00, 0xe7f],
  [0x1e00, 0x1eff],
  [0x2000, 0x206f],
  [0x2070, 0x209f],
  [0x2150, 0x218f],
  [0x2460, 0x24ff],
  [0x3040, 0x30ff],
  [0x4e00, 0x4e80],
  [0xac00, 0xac80],
  [0xfb00, 0xfb4f],
  [0xfe00, 0xfe0f],
  [0xff00, 0xffef],
  [0x1d400, 0x1d7ff],
  [0x1f300, 0x1f64f],
];

/** Latin-script and ASCII ranges, drawn more often so that readable text is common too. */
const LATIN = RANGES.filter(([low]) => low === 0x20 || low === 0xa0 || low === 0x1e00);

function oddText(random: ReturnType<typeof createRandom>): string {
  const length = random.int(1, 24);
  let text = '';
  for (let i = 0; i < length; i++) {
    if (random.chance(0.15)) text += random.pick([' ', '\n', '\n\n', '[Chorus]\n', '-', "'"]);
    const [low, high] = random.pick(random.chance(0.85) ? LATIN : RANGES);
    text += String.fromCodePoint(random.int(low, high));
  }
  return text;
}

test('odd Unicode never breaks the parser: lyrics whose every word has syllables, or InvalidLyricsError', (t) => {
  const random = createRandom(29, 'unicode-sweep');
  let refused = 0;
  let read = 0;
  for (let i = 0; i < 3000; i++) {
    const text = oddText(random);
    try {
      for (const word of parseLyrics(text).sections.flatMap((s) => s.lines.flatMap((l) => l.words))) {
        t.true(
          word.syllables.length > 0 && word.syllables.every((s) => s.nucleus !== undefined),
          `${JSON.stringify(text)}: "${word.text}"`,
        );
      }
      read++;
    } catch (error) {
      if (!(error instanceof InvalidLyricsError)) t.fail(`${JSON.stringify(text)}: ${String(error)}`);
      refused++;
    }
  }
  // Both outcomes are exercised, so the sweep is not only ever taking one path.
  t.true(refused > 100 && read > 100, `${refused} refused, ${read} read`);
});

test('odd Unicode through checkRequest: accepted, InvalidLyricsError or LyricsTooLongError, nothing else', (t) => {
  const random = createRandom(29, 'unicode-check');
  for (let i = 0; i < 150; i++) {
    const lyrics = oddText(random);
    try {
      checkRequest(request({ lyrics }));
    } catch (error) {
      t.true(
        error instanceof InvalidLyricsError || error instanceof LyricsTooLongError,
        `${JSON.stringify(lyrics)}: ${String(error)}`,
      );
    }
  }
  t.pass();
});

test('a lyrics refusal names the track length rounded, not a raw float', (t) => {
  const error = new LyricsTooLongError(12, 8, 41.29032258064516);
  t.regex(error.message, /a 41\.3-second track of this style has room for 8/);
  t.regex(new LyricsTooLongError(3, 0, 29.999999).message, /^A 30-second track/);
});
