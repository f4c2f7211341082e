/**
 * Written lyrics: seeded, within each section's syllable range, rhymed by the CMU rhyme part (computed here
 * from the dictionary, not by the writer), a chorus that opens on its hook, verses that differ, clean words.
 * The subject table (lyrics-subjects.test.ts) checks that each prompt's own subject is sung.
 */
import test from 'ava';
import { dictionary } from 'cmu-pronouncing-dictionary';
import { countSyllables, lyricsText, writeLyrics, type LyricPlan } from '../../engine/lyrics/index.ts';
import { fitLine } from '../../engine/lyrics/fit.ts';
import { createRandom } from '../../engine/random.ts';
import type { LyricLine, Lyrics, Subjects } from '../../engine/types.ts';
import { endRhyme, isRhyme } from './lyrics-rhyme.ts';

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
const NOBODY: Subjects = { names: [], relation: null, occasion: null, places: [] };
const write = (
  prompt: string,
  seed: number,
  plan = SONG,
  valence = 0.5,
  arousal = 0.3,
  subjects: Subjects = NOBODY,
): Lyrics =>
  writeLyrics(
    { prompt, valence, arousal, plan, subjects: { ...subjects, topic: /about (.+)$/.exec(prompt)?.[1] ?? null } },
    createRandom(seed, 'lyrics'),
  );
/** Many songs across prompts, seeds and moods, written once for the property tests. */
const SONGS = PROMPTS.flatMap((prompt, p) =>
  [1, 2, 3].map((seed) => write(prompt, seed, SONG, ((p % 3) - 1) * 0.7, (seed - 2) * 0.6)),
);
const lines = (lyrics: Lyrics): LyricLine[] => lyrics.sections.flatMap((s) => s.lines);
const words = (lyrics: Lyrics): string[] => lines(lyrics).flatMap((l) => l.words.map((w) => w.text.toLowerCase()));

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
      const { lines: count, syllables } = SONG.sections[i]!;
      t.is(section.lines.length, count);
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

test('tight and loose ranges, long sections and odd line counts are met too', (t) => {
  const plan: LyricPlan = {
    sections: [
      { kind: 'intro', lines: 2, syllables: { min: 3, max: 4 } },
      { kind: 'verse', lines: 5, syllables: { min: 10, max: 12 } },
      { kind: 'chorus', lines: 3, syllables: { min: 2, max: 3 } },
      { kind: 'verse', lines: 8, syllables: { min: 4, max: 6 } },
      { kind: 'outro', lines: 0, syllables: { min: 4, max: 6 } },
    ],
  };
  for (const seed of [1, 2, 3, 4]) {
    const lyrics = write('winter night', seed, plan);
    lyrics.sections.forEach((section, i) => {
      const spec = plan.sections[i]!;
      t.is(section.lines.length, spec.lines, `${section.kind} ${i}`);
      for (const line of section.lines) {
        const n = countSyllables(line);
        t.true(n >= spec.syllables.min && n <= spec.syllables.max, `${line.text}: ${n}`);
      }
    });
    t.false(lyricsText(lyrics).includes('[Outro]'), 'an empty section is not shown');
    // Long lines are written out, not padded: never three fillers in a row.
    for (const line of lines(lyrics)) t.notRegex(line.text.toLowerCase(), /\b(?:(?:oh|and|so|now),? ){3}/, line.text);
  }
});

test('verse and bridge lines rhyme in pairs (AABB or ABAB) by the CMU rhyme part, with different words', (t) => {
  for (const lyrics of SONGS) {
    for (const section of lyrics.sections.filter((s) => s.kind !== 'chorus')) {
      const [a, b, c, d] = section.lines as [LyricLine, LyricLine, LyricLine, LyricLine];
      t.true(
        (isRhyme(a, b) && isRhyme(c, d)) || (isRhyme(a, c) && isRhyme(b, d)),
        section.lines.map((l) => `${l.text} (${endRhyme(l)})`).join(' / '),
      );
    }
  }
});

test('the chorus is the same in every chorus section; its hook opens it, closes it, and is marked', (t) => {
  for (const lyrics of SONGS) {
    const choruses = lyrics.sections.filter((s) => s.kind === 'chorus');
    t.is(choruses.length, 3);
    t.deepEqual(choruses[1]!.lines, choruses[0]!.lines);
    t.deepEqual(choruses[2]!.lines, choruses[0]!.lines);
    const chorus = choruses[0]!.lines;
    t.true(chorus[0]!.hook === true && chorus[3]!.hook === true, chorus.map((l) => l.text).join(' / '));
    t.is(chorus[3]!.text, chorus[0]!.text);
    // More than one line: the lines between the hooks are not the hook again, and they rhyme with it or with each other.
    const [hook, x, y] = chorus as [LyricLine, LyricLine, LyricLine];
    t.true(x.text !== hook.text && y.text !== hook.text && x.text !== y.text, chorus.map((l) => l.text).join(' / '));
    t.true(
      isRhyme(x, y) || (isRhyme(hook, x) && isRhyme(hook, y)),
      chorus.map((l) => `${l.text} (${endRhyme(l)})`).join(' / '),
    );
    t.false(
      lines(lyrics).some((l) => l.hook === true && !choruses.some((c) => c.lines.includes(l))),
      'only chorus lines are hooks when there is a chorus',
    );
  }
});

test('a two-line chorus is the hook and a line answering it, not the hook twice', (t) => {
  const plan: LyricPlan = {
    sections: [
      { kind: 'verse', lines: 4, syllables: { min: 7, max: 9 } },
      { kind: 'chorus', lines: 2, syllables: { min: 7, max: 9 } },
    ],
  };
  for (const prompt of PROMPTS) {
    for (const seed of [1, 2, 3]) {
      const [hook, answer] = write(prompt, seed, plan).sections[1]!.lines as [LyricLine, LyricLine];
      t.true(hook.hook === true && answer.hook !== true);
      t.not(answer.text, hook.text);
    }
  }
});

test('a chorus of any length answers its hook on the next line, so a chorus sung short still rhymes', (t) => {
  for (const lines of [2, 3, 4, 5, 6, 8]) {
    const plan: LyricPlan = {
      sections: [
        { kind: 'verse', lines: 4, syllables: { min: 7, max: 10 } },
        { kind: 'chorus', lines, syllables: { min: 7, max: 10 } },
      ],
    };
    for (const prompt of PROMPTS) {
      const [hook, answer] = write(prompt, lines, plan).sections[1]!.lines as [LyricLine, LyricLine];
      t.true(isRhyme(hook, answer), `${lines} lines, ${prompt}: ${hook.text} / ${answer.text}`);
    }
  }
});

test('a form without a chorus ends its verses on the hook, as a refrain', (t) => {
  const plan: LyricPlan = {
    sections: [1, 2, 3].map(() => ({ kind: 'verse' as const, lines: 4, syllables: { min: 4, max: 6 } })),
  };
  for (const seed of [1, 2]) {
    const verses = write('a calm song about the sea', seed, plan).sections;
    const hooks = verses.map((v) => v.lines.at(-1)!);
    t.true(
      hooks.every((h) => h.hook === true),
      hooks.map((h) => h.text).join(' / '),
    );
    t.is(new Set(hooks.map((h) => h.text)).size, 1);
  }
});

test('no line is sung three times in a row, across sections', (t) => {
  const plan: LyricPlan = {
    sections: [
      { kind: 'chorus', lines: 1, syllables: { min: 4, max: 7 } },
      { kind: 'chorus', lines: 1, syllables: { min: 4, max: 7 } },
      { kind: 'verse', lines: 2, syllables: { min: 4, max: 7 } },
      ...SONG.sections,
    ],
  };
  for (const lyrics of [...SONGS, ...PROMPTS.map((p) => write(p, 5, plan))]) {
    const sung = lines(lyrics).map((l) => l.text);
    for (let i = 2; i < sung.length; i++)
      t.false(sung[i] === sung[i - 1] && sung[i] === sung[i - 2], `${sung[i]} three times`);
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
    const [first, second] = lyrics.sections
      .filter((s) => s.kind === 'verse')
      .map((s) => s.lines.map((l) => l.text)) as [string[], string[]];
    t.true(first.filter((line) => second.includes(line)).length === 0, `${first.join(' / ')} || ${second.join(' / ')}`);
  }
});

test('stress mostly alternates: few stressed syllables side by side', (t) => {
  let pairs = 0;
  let clashes = 0;
  for (const line of SONGS.flatMap(lines)) {
    const stressed = line.words.flatMap((w) => w.syllables.map((s) => s.stress > 0));
    for (let i = 1; i < stressed.length; i++) {
      pairs++;
      if (stressed[i] && stressed[i - 1]) clashes++;
    }
  }
  // Random English word strings clash about a third of the time; the songbook's lines are written to be sung.
  t.true(clashes / pairs < 0.2, `${clashes}/${pairs}`);
});

test('a prompt with no known subject is sung about its own words, or about what its mood suggests', (t) => {
  const bookkeeping = write('a song about quantum bookkeeping', 3, SONG, -0.8, -0.5);
  t.true(words(bookkeeping).includes('bookkeeping'), lyricsText(bookkeeping));
  const plain = write('xylophone jazz', 3, SONG, -0.8, -0.5);
  t.is(lines(plain).length, 24);
});

test("written words are all in the pronouncing dictionary, but for the prompt's own names and topic", (t) => {
  for (const lyrics of SONGS) {
    for (const word of lines(lyrics).flatMap((l) => l.words)) {
      if (word.text.toLowerCase() === 'quantum' || word.text.toLowerCase() === 'bookkeeping') continue;
      t.false(word.guessed, word.text);
      t.true(Object.hasOwn(dictionary, word.text.toLowerCase()), word.text);
    }
  }
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
  for (const word of blocked) t.false(all.has(word), word);
});

test('a plan with impossible syllable ranges is a programming error', (t) => {
  t.throws(() => write('summer', 1, { sections: [{ kind: 'verse', lines: 2, syllables: { min: 8, max: 4 } }] }), {
    instanceOf: RangeError,
  });
  t.throws(() => write('summer', 1, { sections: [{ kind: 'verse', lines: 1.5, syllables: { min: 4, max: 8 } }] }), {
    instanceOf: RangeError,
  });
});

const MOODS = [-0.7, 0.7].flatMap((valence) =>
  PROMPTS.flatMap((prompt) => [4, 5].map((seed) => ({ valence, lyrics: write(prompt, seed, SONG, valence, 0) }))),
);

test('"a" and "an" follow the next word\'s first sound, also where an adjective was left out', (t) => {
  for (const line of MOODS.flatMap(({ lyrics }) => lines(lyrics))) {
    const tokens = line.text
      .toLowerCase()
      .replace(/[^a-z' ]/g, '')
      .split(' ');
    tokens.forEach((word, i) => {
      const next = tokens[i + 1];
      if ((word !== 'a' && word !== 'an') || next === undefined) return;
      t.is(word, /^[AEIOU]/.test(dictionary[next] ?? '') ? 'an' : 'a', line.text);
    });
  }
});

test("happy songs never sing the songbook's sad-only couplets, nor sad songs its happy-only ones", (t) => {
  const heartbreak = write('a sad song about a breakup', 2, SONG, 0.8, 0.5);
  t.false(lyricsText(heartbreak).includes('Your coffee cup is sitting by the sink'), 'a "-|" couplet in a happy song');
  const summer = lines(write('a happy summer song', 2, SONG, -0.8, -0.2)).map((l) => l.text);
  t.false(
    summer.some((l) => /Sandals slapping|ice cream melts/.test(l)),
    summer.join(' / '),
  );
});

test('at most half the lines of a section open with a filler ("oh", "so", "now", "and"), never two side by side, the hook aside', (t) => {
  for (const lyrics of [...SONGS, ...MOODS.map((m) => m.lyrics)]) {
    for (const section of lyrics.sections) {
      const opens = section.lines.map((l) => l.hook !== true && /^(?:oh|so|now|and)\b/i.test(l.text));
      const shown = section.lines.map((l) => l.text).join(' / ');
      t.true(opens.filter(Boolean).length <= Math.max(1, Math.floor(section.lines.length / 2)), shown);
      t.false(
        opens.some((open, i) => open && opens[i + 1] === true),
        shown,
      );
    }
  }
});

const EMMA: Subjects = { names: ['Emma'], relation: 'my daughter', occasion: 'birthday', places: [] };
const writeFor = (subjects: Subjects, seed = 1, prompt = 'happy birthday song', title?: string): Lyrics =>
  writeLyrics(
    { prompt, valence: 0.6, arousal: 0.4, plan: SONG, subjects, ...(title ? { title } : {}) },
    createRandom(seed, 'lyrics'),
  );

test('a name and an occasion are the hook, sung in every chorus: "Happy birthday, dear Emma"', (t) => {
  for (const seed of [1, 2, 3]) {
    const lyrics = writeFor(EMMA, seed, 'happy birthday song', "Emma's Birthday");
    for (const chorus of lyrics.sections.filter((s) => s.kind === 'chorus')) {
      const hook = chorus.lines[0]!;
      t.true(
        hook.hook === true && hook.text.includes('Emma') && hook.text.toLowerCase().includes('birthday'),
        hook.text,
      );
    }
  }
});

test('a place opens the first verse: "about Lisbon"', (t) => {
  const lyrics = writeFor({ ...NOBODY, places: ['Lisbon'] }, 1, 'a folk song about Lisbon');
  t.true(lyrics.sections[0]!.lines[0]!.text.includes('Lisbon'), lyrics.sections[0]!.lines[0]!.text);
});

test('a name without an occasion is sung too', (t) => {
  const text = lyricsText(writeFor({ ...NOBODY, names: ['Sam'] }, 1, 'a song for Sam', 'For Sam'));
  t.true(text.includes('Sam'), text);
});

test('a name the singer cannot read is not sung, and the song is still written', (t) => {
  const lyrics = writeFor(
    { ...NOBODY, names: ['Маша'], occasion: 'birthday' },
    1,
    'a birthday song for Маша',
    "Маша's Birthday",
  );
  t.false(lyricsText(lyrics).includes('Маша'));
  t.is(lines(lyrics).length, 24);
});

test('subject lines fit the section syllable range', (t) => {
  const lyrics = writeFor(EMMA, 2);
  SONG.sections.forEach((plan, i) => {
    for (const line of lyrics.sections[i]!.lines)
      t.true(countSyllables(line) >= plan.syllables.min && countSyllables(line) <= plan.syllables.max, line.text);
  });
});

test('without subjects the lyrics are as with empty subjects', (t) => {
  const plain = writeLyrics(
    { prompt: 'a happy acoustic folk song about summer', valence: 0.5, arousal: 0.3, plan: SONG },
    createRandom(4, 'lyrics'),
  );
  const empty = writeLyrics(
    { prompt: 'a happy acoustic folk song about summer', valence: 0.5, arousal: 0.3, plan: SONG, subjects: NOBODY },
    createRandom(4, 'lyrics'),
  );
  t.deepEqual(empty, plain);
});

test('a line that repeats itself is not sung twice over, and "and" never opens on a verb that goes on from the line before', (t) => {
  const symbols = new Map<string, string[]>();
  const fill = { filler: 'and', proper: new Set<string>() };
  t.deepEqual(
    fitLine('Here it comes, here it comes', { min: 10, max: 12 }, symbols, fill).map((l) => l.text),
    [],
  );
  t.true(fitLine('Let it snow', { min: 6, max: 8 }, symbols, fill).some((l) => l.doubled));
  t.deepEqual(
    fitLine('Is a story that is yours and mine', { min: 10, max: 11 }, symbols, fill).map((l) => l.text),
    [],
  );
  t.deepEqual(
    fitLine('We sing a story that is yours', { min: 9, max: 9 }, symbols, fill).map((l) => l.text),
    ['And we sing a story that is yours'],
  );
});

test("a pre-chorus sings its song's subject, not the same general lines in every song", (t) => {
  const plan: LyricPlan = {
    sections: [
      { kind: 'verse', lines: 4, syllables: { min: 7, max: 10 } },
      { kind: 'prechorus', lines: 2, syllables: { min: 7, max: 10 } },
      { kind: 'chorus', lines: 4, syllables: { min: 7, max: 10 } },
    ],
  };
  const subjects = ['the sea', 'rain', 'my dog', 'christmas', 'a road trip', 'summer', 'the city at night', 'hope'];
  const pres = subjects.map((s) => write(`a song about ${s}`, 1, plan).sections[1]!.lines[0]!.text);
  t.true(new Set(pres).size >= subjects.length - 1, pres.join(' | '));
});

test('a verse or bridge sings a line twice over ("The wind is blowing in, the wind is blowing in") only once fresh lines have run out', (t) => {
  // Long phrases (a slow song's) that many of a subject's lines are too short for.
  const long: LyricPlan = {
    sections: [
      { kind: 'verse', lines: 4, syllables: { min: 9, max: 12 } },
      { kind: 'chorus', lines: 4, syllables: { min: 9, max: 12 } },
      { kind: 'verse', lines: 4, syllables: { min: 9, max: 12 } },
      { kind: 'bridge', lines: 4, syllables: { min: 9, max: 12 } },
    ],
  };
  const twice = (line: LyricLine) => {
    const parts = line.text
      .toLowerCase()
      .split(',')
      .map((p) => p.replace(/^\s*(?:oh|and)\s+/, '').trim())
      .filter((p) => p !== '');
    return parts.length >= 2 && new Set(parts).size < parts.length;
  };
  for (const prompt of ['an autumn song', 'a song about rain', 'a song about the sea', 'a winter song'])
    for (const seed of [1, 2]) {
      const lyrics = write(prompt, seed, long, 0, -0.5);
      const sung = lyrics.sections.filter((s) => s.kind !== 'chorus').flatMap((s) => s.lines);
      t.deepEqual(
        sung.filter(twice).map((l) => l.text),
        [],
        `${prompt}, seed ${seed}`,
      );
    }
});

test('a line that goes on from the one before ("Will find a way to grow") is not padded with "and"', (t) => {
  const proper = { has: () => false };
  const padded = fitLine('Will find a way to grow', { min: 7, max: 7 }, new Map(), { filler: 'and', proper });
  t.deepEqual(
    padded.map((l) => l.text),
    [],
  );
  t.deepEqual(
    fitLine('The lights are on tonight', { min: 7, max: 7 }, new Map(), { filler: 'and', proper }).map((l) => l.text),
    ['And the lights are on tonight'],
  );
});
