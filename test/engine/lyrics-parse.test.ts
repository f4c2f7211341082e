/**
 * User lyrics -> sections: tags, untagged blocks with a repeated block as the chorus, and errors a person
 * can act on.
 */
import test from 'ava';
import { InvalidLyricsError } from '../../engine/errors.ts';
import { countSyllables, lyricsText, parseLyrics } from '../../engine/lyrics/index.ts';
import type { Lyrics } from '../../engine/types.ts';

const shape = (lyrics: Lyrics): string[] =>
  lyrics.sections.map((s) => `${s.kind}:${s.lines.map((l) => l.text).join('/')}`);

test('tagged lyrics become sections of those kinds, tags read case-insensitively with numbers', (t) => {
  const lyrics = parseLyrics(
    '[Verse 1]\nWalking down the road\nSinging all the way\n\n[PRE-CHORUS]\nHere it comes\n[chorus]\nOh la la\n\n[Bridge]\nQuiet now\n[Intro]\nHey\n[Outro]\nBye now',
  );
  t.is(lyrics.source, 'given');
  t.deepEqual(shape(lyrics), [
    'verse:Walking down the road/Singing all the way',
    'prechorus:Here it comes',
    'chorus:Oh la la',
    'bridge:Quiet now',
    'intro:Hey',
    'outro:Bye now',
  ]);
});

test('"[Chorus x2]" sings the chorus twice and a bare "[Chorus]" repeats the last one', (t) => {
  const lyrics = parseLyrics('[Verse]\nOne line here\n[Chorus x2]\nWe sing it loud\n[Verse 2]\nAnother line\n[Chorus]');
  t.deepEqual(
    lyrics.sections.map((s) => s.kind),
    ['verse', 'chorus', 'chorus', 'verse', 'chorus'],
  );
  t.deepEqual(lyrics.sections[4]!.lines, lyrics.sections[1]!.lines);
});

test('untagged blocks become verses and a block that repeats verbatim is the chorus', (t) => {
  const text =
    'The morning sun is here\nIt wakes the sleepy town\n\nSing it out, sing it out\nLet the world hear\n\nThe evening falls again\nThe lights come on\n\nSing it out, sing it out\nLet the world hear\n';
  t.deepEqual(
    parseLyrics(text).sections.map((s) => s.kind),
    ['verse', 'chorus', 'verse', 'chorus'],
  );
});

test('blank lines and punctuation-only lines are dropped, punctuation stays in the shown text', (t) => {
  const lyrics = parseLyrics('\n\n[Verse]\n\nHello, world!\n  ...  \n\nSecond line\n\n');
  t.deepEqual(shape(lyrics), ['verse:Hello, world!/Second line']);
  t.deepEqual(
    lyrics.sections[0]!.lines[0]!.words.map((w) => w.text),
    ['Hello', 'world'],
  );
  t.is(countSyllables(lyrics.sections[0]!.lines[0]!), 3);
});

test('lyricsText shows tags and lines, and parses back to the same sections', (t) => {
  const lyrics = parseLyrics('[Verse]\nA line\nAnother line\n[Chorus]\nHook line\n[Pre-Chorus]\nRising up');
  const text = lyricsText(lyrics);
  t.is(text, '[Verse]\nA line\nAnother line\n\n[Chorus]\nHook line\n\n[Pre-Chorus]\nRising up');
  t.deepEqual(shape(parseLyrics(text)), shape(lyrics));
});

test('an unknown tag is refused with the line and the tags that work', (t) => {
  const error = t.throws(() => parseLyrics('[Verse]\nHello\n[Guitar Solo]\nNo words'), {
    instanceOf: InvalidLyricsError,
  });
  t.regex(error.message, /Line 3: unknown section tag "\[Guitar Solo\]"/);
  t.regex(error.message, /\[Verse\], \[Chorus\]/);
});

test('lyrics with nothing singable are refused', (t) => {
  for (const text of ['', '   \n\n', '[Verse]\n...\n!!!', '[Chorus]']) {
    const error = t.throws(() => parseLyrics(text), { instanceOf: InvalidLyricsError }, JSON.stringify(text));
    t.regex(error.message, /no words to sing/);
  }
});

test('lyrics over 3000 characters are refused with the length and the limit', (t) => {
  const error = t.throws(() => parseLyrics('la '.repeat(1001)), { instanceOf: InvalidLyricsError });
  t.regex(error.message, /3003 characters long; the limit is 3000/);
  t.notThrows(() => parseLyrics('la '.repeat(1000)));
});

test('the limit counts characters as the API does (code points): 3000 emoji-bearing characters pass', (t) => {
  // '🎵' is one character but two UTF-16 units; the API's 3000-character check counts it once.
  const text = 'la 🎵\n'.repeat(600);
  t.is([...text].length, 3000);
  t.true(text.length > 3000);
  t.notThrows(() => parseLyrics(text));
});
