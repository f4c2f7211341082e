/**
 * Written lyrics: seeded, within each section's syllable range, rhymed by the CMU rhyme part (computed
 * here from the dictionary, not by the writer), a repeating hook, the prompt's themes, clean words only.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { dictionary } from 'cmu-pronouncing-dictionary';
import { countSyllables, lyricsText, writeLyrics, type LyricPlan } from '../../engine/lyrics/index.ts';
import { createRandom } from '../../engine/random.ts';
import type { LyricLine, Lyrics } from '../../engine/types.ts';

/** A 180 s song: verse, chorus, verse, chorus, bridge, chorus. */
const SONG: LyricPlan = {
  sections: [
    { kind: 'verse', lines: 4, syllables: { min: 6, max: 9 } },
    { kind: 'chorus', lines: 4, syllables: { min: 5, max: 8 } },
    { kind: 'verse', lines: 4, syllables: { min: 6, max: 9 } },
    { kind: 'chorus', lines: 4, syllables: { min: 5, max: 8 } },
    { kind: 'bridge', lines: 4, syllables: { min: 4, max: 7 } },
    { kind: 'chorus', lines: 4, syllables: { min: 5, max: 8 } },
  ],
};
const PROMPTS = [
  'a happy acoustic folk song about summer',
  'a sad ballad about the ocean',
  'energetic rock song about the open road',
  'a song about quantum bookkeeping',
  'dreamy pop with female vocals',
  'angry punk anthem',
];
const write = (prompt: string, seed: number, plan = SONG, valence = 0.5, arousal = 0.3): Lyrics =>
  writeLyrics({ prompt, valence, arousal, plan }, createRandom(seed, 'lyrics'));
/** Many songs across prompts, seeds and moods, written once for the property tests. */
const SONGS = PROMPTS.flatMap((prompt, p) =>
  [1, 2, 3].map((seed) => write(prompt, seed, SONG, ((p % 3) - 1) * 0.7, (seed - 2) * 0.6)),
);

/** CMU rhyme part: the last vowel with stress 1 or 2, to the end, digits dropped. */
function rhymePart(word: string): string {
  const phones = dictionary[word.toLowerCase()]!.split(' ');
  let start = phones.length - 1;
  while (start > 0 && !/[12]$/.test(phones[start]!)) start--;
  return phones.slice(start).join(' ').replace(/\d/g, '');
}
const endRhyme = (line: LyricLine): string => rhymePart(line.words[line.words.length - 1]!.text);
const rhymes = (a: LyricLine, b: LyricLine): boolean => endRhyme(a) === endRhyme(b);
const words = (lyrics: Lyrics): string[] =>
  lyrics.sections.flatMap((s) => s.lines.flatMap((l) => l.words.map((w) => w.text.toLowerCase())));
const bank = JSON.parse(readFileSync(new URL('../../engine/lyrics/banks.json', import.meta.url), 'utf8')) as {
  themes: Record<string, { N: string[]; A: string[]; ends: Record<string, string[]> }>;
};

test('the same seed writes the same lyrics; other seeds write others', (t) => {
  const prompt = 'a happy acoustic folk song about summer';
  t.is(lyricsText(write(prompt, 7)), lyricsText(write(prompt, 7)));
  const texts = new Set([1, 2, 3, 4, 5].map((seed) => lyricsText(write(prompt, seed))));
  t.is(texts.size, 5);
});

test('written lyrics follow the plan: sections, line counts and syllables per line in range', (t) => {
  for (const lyrics of SONGS) {
    t.is(lyrics.source, 'written');
    t.deepEqual(
      lyrics.sections.map((s) => s.kind),
      SONG.sections.map((s) => s.kind),
    );
    lyrics.sections.forEach((section, i) => {
      const { lines, syllables } = SONG.sections[i]!;
      t.is(section.lines.length, lines);
      for (const line of section.lines) {
        const n = countSyllables(line);
        t.true(
          n >= syllables.min && n <= syllables.max,
          `${line.text}: ${n} not in ${syllables.min}..${syllables.max}`,
        );
      }
    });
  }
});

test('tight and loose ranges and odd line counts are met too', (t) => {
  const plan: LyricPlan = {
    sections: [
      { kind: 'intro', lines: 2, syllables: { min: 3, max: 4 } },
      { kind: 'verse', lines: 5, syllables: { min: 10, max: 12 } },
      { kind: 'chorus', lines: 3, syllables: { min: 2, max: 3 } },
      { kind: 'outro', lines: 0, syllables: { min: 4, max: 6 } },
    ],
  };
  for (const seed of [1, 2, 3, 4]) {
    const lyrics = write('winter night', seed, plan);
    lyrics.sections.forEach((section, i) => {
      t.is(section.lines.length, plan.sections[i]!.lines);
      for (const line of section.lines) {
        const n = countSyllables(line);
        t.true(n >= plan.sections[i]!.syllables.min && n <= plan.sections[i]!.syllables.max, `${line.text}: ${n}`);
      }
    });
    t.false(lyricsText(lyrics).includes('[Outro]'), 'an empty section is not shown');
    // Long lines are written out, not padded: never three fillers in a row.
    for (const line of lyrics.sections.flatMap((s) => s.lines))
      t.notRegex(line.text.toLowerCase(), /\b(?:(?:oh|and|so|now),? ){3}/, line.text);
  }
});

test('line ends rhyme in pairs (AABB or ABAB) by the CMU rhyme part', (t) => {
  for (const lyrics of SONGS) {
    for (const section of lyrics.sections) {
      const [a, b, c, d] = section.lines;
      t.true(
        (rhymes(a!, b!) && rhymes(c!, d!)) || (rhymes(a!, c!) && rhymes(b!, d!)),
        section.lines.map((l) => l.text).join(' / '),
      );
    }
  }
});

test('the chorus is the same in every chorus section, and its hook line opens and closes it', (t) => {
  for (const lyrics of SONGS) {
    const choruses = lyrics.sections.filter((s) => s.kind === 'chorus').map((s) => s.lines.map((l) => l.text));
    t.is(choruses.length, 3);
    t.deepEqual(choruses[1], choruses[0]);
    t.deepEqual(choruses[2], choruses[0]);
    const chorus = choruses[0]!;
    const [hook] = chorus;
    t.is(chorus[chorus.length - 1], hook);
    t.true(chorus.filter((line) => line === hook).length >= 2);
    // The chorus rhymes with different words, not one word four times.
    t.true(
      new Set(lyrics.sections[1]!.lines.map((l) => l.words[l.words.length - 1]!.text.toLowerCase())).size >= 2,
      chorus.join(' / '),
    );
  }
});

test('choruses planned with different ranges get lines that fit all of them', (t) => {
  const plan: LyricPlan = {
    sections: [
      { kind: 'chorus', lines: 4, syllables: { min: 4, max: 8 } },
      { kind: 'verse', lines: 4, syllables: { min: 6, max: 9 } },
      { kind: 'chorus', lines: 4, syllables: { min: 6, max: 10 } },
    ],
  };
  for (const seed of [1, 2, 3]) {
    const lyrics = write('city lights', seed, plan);
    for (const line of lyrics.sections[0]!.lines)
      t.true(countSyllables(line) >= 6 && countSyllables(line) <= 8, line.text);
    t.deepEqual(lyrics.sections[2]!.lines, lyrics.sections[0]!.lines);
  }
});

test('verses differ from each other', (t) => {
  for (const lyrics of SONGS) {
    const [first, second] = lyrics.sections.filter((s) => s.kind === 'verse').map((s) => s.lines.map((l) => l.text));
    t.true(
      first!.filter((line) => second!.includes(line)).length === 0,
      `${first!.join(' / ')} || ${second!.join(' / ')}`,
    );
  }
});

test('stress mostly alternates: few stressed syllables side by side', (t) => {
  let pairs = 0;
  let clashes = 0;
  for (const lyrics of SONGS) {
    for (const line of lyrics.sections.flatMap((s) => s.lines)) {
      const stressed = line.words.flatMap((w) => w.syllables.map((s) => s.stress > 0));
      for (let i = 1; i < stressed.length; i++) {
        pairs++;
        if (stressed[i] && stressed[i - 1]) clashes++;
      }
    }
  }
  // Random English word strings clash about a third of the time; the writer picks the smoothest lines.
  t.true(clashes / pairs < 0.2, `${clashes}/${pairs}`);
});

test("the prompt's theme shows up in the words, and another theme gives other words", (t) => {
  const themeWords = (name: string) => {
    const theme = bank.themes[name]!;
    return new Set([...theme.N, ...theme.A, ...Object.values(theme.ends).flat()]);
  };
  const summer = themeWords('summer');
  const ocean = themeWords('ocean');
  for (const seed of [1, 2, 3]) {
    const summerSong = words(write('a happy acoustic folk song about summer', seed));
    const oceanSong = words(write('a happy acoustic folk song about the ocean', seed));
    t.true(summerSong.filter((w) => summer.has(w) && !ocean.has(w)).length >= 5, summerSong.join(' '));
    t.true(oceanSong.filter((w) => ocean.has(w) && !summer.has(w)).length >= 5, oceanSong.join(' '));
    t.notDeepEqual(summerSong, oceanSong);
  }
});

test('a prompt with no known theme is still sung, from the mood banks', (t) => {
  const lyrics = write('xylophone quantum bookkeeping', 3, SONG, -0.8, -0.5);
  t.is(lyrics.sections.flatMap((s) => s.lines).length, 24);
  t.true(words(lyrics).length > 80);
});

test('written words are all in the pronouncing dictionary', (t) => {
  for (const lyrics of SONGS) {
    for (const word of lyrics.sections.flatMap((s) => s.lines.flatMap((l) => l.words))) {
      t.false(word.guessed, word.text);
      t.true(Object.hasOwn(dictionary, word.text.toLowerCase()), word.text);
    }
  }
});

test('every word in the banks is in the pronouncing dictionary', (t) => {
  const raw = JSON.parse(readFileSync(new URL('../../engine/lyrics/banks.json', import.meta.url), 'utf8')) as unknown;
  const strings: string[] = [];
  const walk = (value: unknown, key = ''): void => {
    if (key === 'triggers' || key === 'moods') return;
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) for (const v of value) walk(v);
    else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(raw);
  const bankWords = strings.flatMap((s) =>
    s
      .replace(/^[+-]\|/, '')
      .replace(/\{[NPAVG]\}|\bE\b|[?,]/g, ' ')
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean),
  );
  t.true(bankWords.length > 500);
  for (const word of bankWords) t.true(Object.hasOwn(dictionary, word), word);
});

test('lyrics are family-friendly', (t) => {
  const blocked = [
    'kill',
    'killed',
    'die',
    'dead',
    'death',
    'blood',
    'hate',
    'damn',
    'hell',
    'sex',
    'sexy',
    'drug',
    'drugs',
    'drunk',
    'gun',
    'guns',
    'beer',
    'whiskey',
    'suicide',
    'naked',
  ];
  const all = new Set(SONGS.flatMap(words));
  const bankText = readFileSync(new URL('../../engine/lyrics/banks.json', import.meta.url), 'utf8').toLowerCase();
  for (const word of blocked) {
    t.false(all.has(word), word);
    t.false(new RegExp(`\\b${word}\\b`).test(bankText), word);
  }
});

test('a plan with impossible syllable ranges is a programming error', (t) => {
  t.throws(() => write('summer', 1, { sections: [{ kind: 'verse', lines: 2, syllables: { min: 8, max: 4 } }] }), {
    instanceOf: RangeError,
  });
  t.throws(() => write('summer', 1, { sections: [{ kind: 'verse', lines: 1.5, syllables: { min: 4, max: 8 } }] }), {
    instanceOf: RangeError,
  });
});

/** Nouns that cannot be counted: never after "a", "an", "every" or "each", with or without an adjective between. */
const MASS = [
  'sand',
  'sunshine',
  'music',
  'water',
  'laughter',
  'silence',
  'snow',
  'rain',
  'love',
  'freedom',
  'heat',
  'coffee',
  'thunder',
  'moonlight',
  'gold',
];
const lines = (lyrics: Lyrics): string[] => lyrics.sections.flatMap((s) => s.lines.map((l) => l.text.toLowerCase()));
const MOODS = [-0.7, 0, 0.7].flatMap((valence) =>
  PROMPTS.flatMap((prompt) => [4, 5].map((seed) => ({ valence, lyrics: write(prompt, seed, SONG, valence, 0) }))),
);

test('nouns agree with their articles: no "every sand", and "a"/"an" by the next sound', (t) => {
  const massAfterCounting = new RegExp(`\\b(?:a|an|every|each) (?:[a-z]+ )?(?:${MASS.join('|')})\\b`);
  for (const { lyrics } of MOODS) {
    for (const line of lines(lyrics)) {
      t.notRegex(line, massAfterCounting, line);
      const words = line.replace(/[^a-z' ]/g, '').split(' ');
      words.forEach((word, i) => {
        if ((word !== 'a' && word !== 'an') || i + 1 >= words.length) return;
        const startsWithVowel = /^[AEIOU]/.test(dictionary[words[i + 1]!]!);
        t.is(word, startsWithVowel ? 'an' : 'a', line);
      });
    }
  }
});

test('words follow the mood: no bright adjectives in a sad song, no gloomy ones in a happy song', (t) => {
  const bright = [
    'happy',
    'sunny',
    'bright',
    'golden',
    'sweet',
    'lovely',
    'electric',
    'colorful',
    'hopeful',
    'fearless',
    'proud',
    'warm',
    'laughing',
  ];
  const gloomy = [
    'lonely',
    'gray',
    'cold',
    'empty',
    'broken',
    'faded',
    'dark',
    'gone',
    'alone',
    'lost',
    'heavy',
    'frozen',
    'crying',
    'cry',
  ];
  for (const { valence, lyrics } of MOODS) {
    const sung = new Set(words(lyrics));
    const wrong = valence < -0.5 ? bright : valence > 0.5 ? gloomy : [];
    for (const word of wrong)
      t.false(sung.has(word), `${word} in a song of valence ${valence}: ${lines(lyrics).join(' / ')}`);
  }
});

test('adjectives joined in one line never contradict each other ("gentle and cold", "warm and gray")', (t) => {
  const positive = new Set([
    'happy',
    'sunny',
    'bright',
    'golden',
    'sweet',
    'lovely',
    'warm',
    'gentle',
    'tender',
    'young',
    'new',
    'free',
    'alive',
  ]);
  const negative = new Set([
    'lonely',
    'gray',
    'cold',
    'empty',
    'broken',
    'faded',
    'dark',
    'gone',
    'lost',
    'heavy',
    'old',
    'frozen',
  ]);
  for (const { lyrics } of MOODS) {
    for (const line of lines(lyrics)) {
      for (const [, a, b] of line.matchAll(/([a-z]+) and ([a-z]+)/g)) {
        t.false((positive.has(a!) && negative.has(b!)) || (negative.has(a!) && positive.has(b!)), line);
      }
    }
  }
});

test('at most one line in four of a section opens with a filler ("oh", "so", "now", "and")', (t) => {
  for (const lyrics of [...SONGS, ...MOODS.map((m) => m.lyrics)]) {
    for (const section of lyrics.sections) {
      const fillers = section.lines.filter((l) => /^(?:oh|so|now|and)\b/i.test(l.text)).length;
      t.true(fillers <= Math.floor(section.lines.length / 4), section.lines.map((l) => l.text).join(' / '));
    }
  }
});

test('a section keeps one voice: "I" lines and "we" lines are not mixed', (t) => {
  for (const { lyrics } of MOODS) {
    for (const section of lyrics.sections) {
      const voices = new Set(
        section.lines
          .map((l) => l.text.toLowerCase())
          .flatMap((l) => {
            const tokens = l.replace(/[^a-z' ]/g, '').split(' ');
            if (tokens.some((w) => ['i', 'me', 'my', "i'm"].includes(w))) return ['I'];
            if (tokens.some((w) => ['we', 'us', 'our', "let's"].includes(w))) return ['we'];
            return [];
          }),
      );
      t.true(voices.size <= 1, section.lines.map((l) => l.text).join(' / '));
    }
  }
});

test('rhyme-filler nouns ("sign", "floor", "line") do not end lines in songs whose themes do not use them', (t) => {
  // "The dance floor" means something; "the floor" alone is there for the rhyme.
  const fillerEnd = /(?<!dance )\b(?:sign|floor|line|side|view|yard|pane)\W*$/i;
  for (const lyrics of [...SONGS, ...MOODS.map((m) => m.lyrics)]) {
    for (const line of lyrics.sections.flatMap((s) => s.lines)) t.notRegex(line.text, fillerEnd);
  }
});

const EMMA = { names: ['Emma'], relation: 'my daughter', occasion: 'birthday', places: [] };
const writeFor = (subjects: typeof EMMA, seed = 1): Lyrics =>
  writeLyrics(
    { prompt: 'happy birthday song', valence: 0.6, arousal: 0.4, plan: SONG, subjects },
    createRandom(seed, 'lyrics'),
  );

test('a name and an occasion are sung in every chorus: "Happy birthday, dear Emma"', (t) => {
  const lyrics = writeFor(EMMA);
  for (const chorus of lyrics.sections.filter((s) => s.kind === 'chorus')) {
    t.true(chorus.lines.some((l) => l.text.includes('Emma') && l.text.toLowerCase().includes('birthday')));
  }
});

test('the dedication keeps the hook opening and closing the chorus', (t) => {
  const chorus = writeFor(EMMA).sections.find((s) => s.kind === 'chorus')!;
  t.is(chorus.lines[0]!.text, chorus.lines.at(-1)!.text);
  t.false(chorus.lines[0]!.text.includes('Emma'));
});

test('a place opens the first verse: "about Lisbon"', (t) => {
  const lyrics = writeFor({ names: [], relation: null, occasion: null, places: ['Lisbon'] } as never);
  t.true(lyrics.sections[0]!.lines[0]!.text.includes('Lisbon'));
});

test('a name without an occasion is sung too', (t) => {
  const text = lyricsText(writeFor({ names: ['Sam'], relation: null, occasion: null, places: [] } as never));
  t.true(text.includes('Sam'));
});

test('subject lines fit the section syllable range', (t) => {
  const lyrics = writeFor(EMMA, 2);
  SONG.sections.forEach((plan, i) => {
    for (const line of lyrics.sections[i]!.lines)
      t.true(countSyllables(line) >= plan.syllables.min && countSyllables(line) <= plan.syllables.max, line.text);
  });
});

test('without subjects the lyrics are as before (no dedication line)', (t) => {
  const plain = write('a happy acoustic folk song about summer', 4);
  const empty = writeLyrics(
    {
      prompt: 'a happy acoustic folk song about summer',
      valence: 0.5,
      arousal: 0.3,
      plan: SONG,
      subjects: { names: [], relation: null, occasion: null, places: [] },
    },
    createRandom(4, 'lyrics'),
  );
  t.deepEqual(empty, plain);
});
