/**
 * The subject table (issue 23): prompts as people write them, each sung about its own subject. Lyrics come from
 * the whole pipeline (interpret, then compose a 60 s track, seed 1). For each row the table keeps the first lines
 * the old writer sang ("before") and today's ("after"); LYRICS_TABLE=write records today's after a deliberate change,
 * and writes the table into docs/songs.md (between its subject-table markers), which a test keeps in step.
 */
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { compose, interpret } from '../../engine/index.ts';
import type { LyricLine, Lyrics } from '../../engine/types.ts';
import { findSubjects, kindOf, loadSongbook } from '../../engine/lyrics/songbook.ts';
import { isRhyme } from './lyrics-rhyme.ts';

interface Row {
  prompt: string;
  /** The songbook subject the prompt is about, or null when it is sung about its own words. */
  subject: string | null;
  /** Words of the subject; a song about it sings some of them. */
  words: string[];
  before: FirstLines;
  after: FirstLines | null;
}
interface FirstLines {
  title: string;
  verse: string | null;
  chorus: string | null;
  /** The chorus's second line, which answers the hook (recorded from this session on). */
  answer?: string | null;
}

const FILE = new URL('./lyrics-subjects.json', import.meta.url);
const DOCS = new URL('../../docs/songs.md', import.meta.url);
const MARKS = ['<!-- subject-table:start -->', '<!-- subject-table:end -->'] as const;
const TABLE = JSON.parse(readFileSync(FILE, 'utf8')) as Row[];
const songs = TABLE.map((row) => {
  const spec = interpret({ prompt: row.prompt, duration: 60, seed: 1, style: null, instrumental: false, lyrics: null });
  const vocal = compose(spec).vocal;
  if (vocal === null) throw new Error(`"${row.prompt}" is not sung`);
  return { row, title: spec.title, lyrics: vocal.lyrics };
});
const lines = (lyrics: Lyrics): LyricLine[] => lyrics.sections.flatMap((s) => s.lines);
const first = (lyrics: Lyrics, kind: string): string | null =>
  lyrics.sections.find((s) => s.kind === kind)?.lines[0]?.text ?? null;
const today = songs.map(({ row, title, lyrics }) => ({
  ...row,
  after: {
    title,
    verse: first(lyrics, 'verse'),
    chorus: first(lyrics, 'chorus'),
    answer: lyrics.sections.find((s) => s.kind === 'chorus')?.lines[1]?.text ?? null,
  },
}));

/** The table as docs/songs.md shows it: the prompt, its title, and the first lines of verse and chorus. */
function docsTable(rows: readonly Row[]): string {
  const cell = (text: string | null | undefined) => (text ?? '—').replace(/\|/g, '\\|');
  return [
    '| Prompt (60 s, seed 1) | Title | Verse opens | Chorus opens (hook / answer) |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) =>
      [
        '',
        cell(r.prompt),
        cell(r.after?.title),
        cell(r.after?.verse),
        r.after?.chorus ? `${cell(r.after.chorus)} / ${cell(r.after.answer)}` : '— (refrain)',
        '',
      ]
        .join(' | ')
        .trim(),
    ),
  ].join('\n');
}

function withDocsTable(docs: string, table: string): string {
  const [start, end] = MARKS;
  const from = docs.indexOf(start);
  const to = docs.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/songs.md has no ${start} ... ${end} markers`);
  return `${docs.slice(0, from + start.length)}\n${table}\n${docs.slice(to)}`;
}

if (process.env.LYRICS_TABLE === 'write') {
  writeFileSync(FILE, `[\n${today.map((row) => `  ${JSON.stringify(row)}`).join(',\n')}\n]\n`);
  writeFileSync(DOCS, withDocsTable(readFileSync(DOCS, 'utf8'), docsTable(today)));
}

test('the table holds at least 20 prompts over at least 15 subjects, and prompts no subject holds', (t) => {
  t.true(TABLE.length >= 20);
  t.true(new Set(TABLE.map((r) => r.subject).filter((s) => s !== null)).size >= 15);
  t.true(TABLE.some((r) => r.subject === null));
});

for (const { row, lyrics } of songs) {
  test(`"${row.prompt}" sings its subject's own words`, (t) => {
    const sung = new Set(lines(lyrics).flatMap((l) => l.words.map((w) => w.text.toLowerCase().replace(/'s$/, ''))));
    const found = row.words.filter((w) => sung.has(w));
    t.true(
      found.length >= Math.min(2, row.words.length),
      `found ${found.join(', ') || 'none'} of ${row.words.join(', ')}`,
    );
  });
}

/** The kind of thing a prompt no subject holds is about ("pizza" is a food), or null. */
function kindName(prompt: string): string | null {
  const found = kindOf(prompt.replace(/^.*?\babout\s+/i, ''));
  return Object.entries(loadSongbook().general.kinds).find(([, kind]) => kind === found?.kind)?.[0] ?? null;
}

test('no two prompts of different subjects (or of different kinds, when no subject holds them) share a verse line, nor a chorus line when no subject holds them', (t) => {
  const seen = new Map<string, { prompt: string; subjects: string[] }>();
  for (const { row, lyrics } of songs) {
    // Prompts no subject holds share the general couplets among themselves, never a subject's; a prompt that calls up
    // two subjects ("a road trip" on "the open road") may sing either's lines. A topic of a known kind (a food, a
    // ride) is sung in its kind's lines and hooks, not in the general ones every such prompt once shared.
    const found = findSubjects(row.prompt).map((s) => s.name);
    const subjects = row.subject === null ? [kindName(row.prompt) ?? 'no subject'] : [row.subject, ...found];
    const sung = row.subject === null ? ['verse', 'chorus'] : ['verse'];
    for (const section of lyrics.sections.filter((s) => sung.includes(s.kind))) {
      for (const line of section.lines) {
        const other = seen.get(line.text);
        t.true(
          other === undefined || other.subjects.some((s) => subjects.includes(s)),
          `"${line.text}" is sung for "${other?.prompt}" and "${row.prompt}"`,
        );
        seen.set(line.text, { prompt: row.prompt, subjects });
      }
    }
  }
});

test('the hook carries the title: every word of it that says something', (t) => {
  for (const { row, title, lyrics } of songs) {
    const hooks = lines(lyrics).filter((l) => l.hook === true);
    t.true(hooks.length > 0, `${row.prompt}: no hook`);
    const words = title
      .toLowerCase()
      .replace(/'s\b/g, '')
      .split(/[^a-z']+/)
      .filter((w) => w.length > 0 && !['a', 'an', 'the', 'to', 'for', 'of', 'and', 'my'].includes(w));
    for (const hook of hooks)
      for (const word of words)
        t.true(hook.text.toLowerCase().includes(word), `${row.prompt}: "${hook.text}" lacks "${word}" of "${title}"`);
    const chorus = lyrics.sections.find((s) => s.kind === 'chorus');
    if (chorus) t.true(chorus.lines[0]?.hook === true, `${row.prompt}: the chorus opens on ${chorus.lines[0]?.text}`);
  }
});

test('verse couplets rhyme by the dictionary', (t) => {
  let pairs = 0;
  let rhymed = 0;
  for (const { lyrics } of songs) {
    for (const section of lyrics.sections.filter((s) => s.kind === 'verse')) {
      const sung = section.lines.filter((l) => l.hook !== true);
      for (let i = 0; i + 1 < sung.length; i += 2) {
        pairs++;
        if (isRhyme(sung[i]!, sung[i + 1]!)) rhymed++;
      }
    }
  }
  // Couplets rhyme; a line left over next to a refrain may not.
  t.true(rhymed / pairs >= 0.9, `${rhymed}/${pairs}`);
});

test('the first lines recorded in the table are the ones sung today (LYRICS_TABLE=write records them)', (t) => {
  for (const row of today) t.deepEqual(TABLE.find((r) => r.prompt === row.prompt)?.after, row.after, row.prompt);
});

test('docs/songs.md shows the table as recorded (LYRICS_TABLE=write writes it)', (t) => {
  const docs = readFileSync(DOCS, 'utf8');
  t.is(withDocsTable(docs, docsTable(TABLE)), docs);
});

test('every chorus opens on its hook and the line after it rhymes with it', (t) => {
  for (const { row, lyrics } of songs) {
    for (const chorus of lyrics.sections.filter((s) => s.kind === 'chorus' && s.lines.length >= 2)) {
      const [hook, answer] = chorus.lines as [LyricLine, LyricLine];
      t.true(isRhyme(hook, answer), `${row.prompt}: "${hook.text}" / "${answer.text}"`);
    }
  }
});

test('no line is sung three times in a row, and the second verse says something new', (t) => {
  for (const { row, lyrics } of songs) {
    const sung = lines(lyrics).map((l) => l.text);
    for (let i = 2; i < sung.length; i++)
      t.false(sung[i] === sung[i - 1] && sung[i] === sung[i - 2], `${row.prompt}: ${sung[i]} three times`);
    // A form without a chorus ends every verse on the same refrain (a line and the hook); the rest must differ.
    const refrain = lyrics.sections.some((s) => s.kind === 'chorus') ? 0 : 2;
    const verses = lyrics.sections
      .filter((s) => s.kind === 'verse')
      .map((s) => s.lines.slice(0, Math.max(0, s.lines.length - refrain)));
    for (const later of verses.slice(1))
      for (const line of later)
        t.false(
          verses[0]!.some((l) => l.text === line.text),
          `${row.prompt}: "${line.text}" in two verses`,
        );
  }
});

test("the form's bridges get words at 60, 120 and 180 s, and the lyrics are the same for the same seed", (t) => {
  for (const [prompt, duration] of [
    ['a house song about dancing', 60],
    ['a pop song about the sea', 120],
    ['a rock song about a road trip', 180],
    ['a country song about coming home', 180],
  ] as const) {
    const request = { prompt, duration, seed: 1, style: null, instrumental: false, lyrics: null };
    const score = compose(interpret(request));
    const bridges = score.sections.filter((s) => s.kind === 'bridge' || s.kind === 'breakdown').length;
    const sung = score.vocal?.lyrics.sections.filter((s) => s.kind === 'bridge' && s.lines.length > 0) ?? [];
    t.true(bridges > 0, `${prompt} at ${duration} s has no bridge`);
    t.is(sung.length, bridges, `${prompt} at ${duration} s`);
    t.deepEqual(compose(interpret(request)).vocal?.lyrics, score.vocal?.lyrics);
  }
});

test('a minute-long song sings its chorus whole (four lines) and, in the song form from 30 bars, a bridge', (t) => {
  for (const prompt of [
    'a love song',
    'a rock anthem',
    'a disco song',
    'a k-pop song about first love',
    'a song about the sea',
  ]) {
    const spec = interpret({ prompt, duration: 60, seed: 1, style: null, instrumental: false, lyrics: null });
    const score = compose(spec);
    const sections = score.vocal?.lyrics.sections ?? [];
    const chorus = sections.find((s) => s.kind === 'chorus');
    t.true((chorus?.lines.length ?? 0) >= 4, `${prompt}: chorus ${chorus?.lines.map((l) => l.text).join(' / ')}`);
    const bars = Math.floor(score.sections.reduce((sum, s) => sum + s.bars, 0));
    if (spec.form === 'song' && bars >= 30)
      t.true(
        sections.some((s) => s.kind === 'bridge' && s.lines.length > 0),
        `${prompt}: ${score.sections.map((s) => s.kind).join(' ')}`,
      );
  }
});

test('no two different lines of a chorus sing the same clause, nor one with a word fewer, but for the title', (t) => {
  const clauses = (text: string) =>
    text
      .toLowerCase()
      .split(',')
      .map((c) =>
        c
          .replace(/[^a-z' ]/g, ' ')
          .trim()
          .replace(/^(?:(?:and|oh|so|now|but)\s+)+/, ''),
      )
      .filter((c) => c.split(' ').length >= 2);
  // "where the leaves are piled" within "where the autumn leaves are piled", word by word in order.
  const within = (short: string, long: string) => {
    const words = short.split(' ');
    let at = 0;
    for (const word of long.split(' ')) if (word === words[at]) at++;
    return at === words.length;
  };
  const mountains = compose(
    interpret({
      prompt: 'a song about the mountains',
      duration: 60,
      seed: 3,
      style: null,
      instrumental: false,
      lyrics: null,
    }),
  );
  const all = [
    ...songs,
    { row: { prompt: 'a song about the mountains, seed 3' }, title: 'Into the Wild', lyrics: mountains.vocal!.lyrics },
  ];
  for (const { row, title, lyrics } of all)
    for (const chorus of lyrics.sections.filter((s) => s.kind === 'chorus')) {
      const texts = [...new Set(chorus.lines.map((l) => l.text))];
      for (const [i, a] of texts.entries())
        for (const b of texts.slice(i + 1))
          for (const x of clauses(a))
            for (const y of clauses(b)) {
              const [short, long] = x.length <= y.length ? [x, y] : [y, x];
              const repeated =
                x === y || (short.split(' ').length >= 3 && short !== title.toLowerCase() && within(short, long));
              t.false(repeated, `${row.prompt}: "${a}" / "${b}"`);
            }
    }
});

test('a two-minute song at a moderate tempo sings its choruses whole (four lines, but the last) and a bridge', (t) => {
  for (const prompt of ['a sad song about a breakup', 'a love song', 'a country song about my truck']) {
    const score = compose(
      interpret({ prompt, duration: 120, seed: 1, style: null, instrumental: false, lyrics: null }),
    );
    const sections = score.vocal?.lyrics.sections ?? [];
    const choruses = sections.filter((s) => s.kind === 'chorus');
    t.true(choruses.length >= 2, prompt);
    // The last may lose a line to the held final chord of a short outro.
    for (const chorus of choruses.slice(0, -1))
      t.true(chorus.lines.length >= 4, `${prompt}: ${chorus.lines.length} lines`);
    t.true(
      sections.some((s) => s.kind === 'bridge' && s.lines.length > 0),
      `${prompt}: ${score.sections.map((s) => s.kind).join(' ')}`,
    );
  }
});

test('a verse or bridge never sings a line the chorus sings (but for its opening "and", "oh" or "but")', (t) => {
  const bare = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z' ]/g, '')
      .replace(/^(?:(?:and|oh|but|so|now)\s+)+/, '');
  const teacher = compose(
    interpret({
      prompt: 'a song about my teacher',
      duration: 120,
      seed: 2,
      style: null,
      instrumental: false,
      lyrics: null,
    }),
  ).vocal?.lyrics;
  const all = [
    ...songs.map((s) => ({ prompt: s.row.prompt, lyrics: s.lyrics })),
    { prompt: 'teacher, 120 s', lyrics: teacher! },
  ];
  for (const { prompt, lyrics } of all) {
    const chorus = new Set(
      lyrics.sections.filter((s) => s.kind === 'chorus').flatMap((s) => s.lines.map((l) => bare(l.text))),
    );
    for (const section of lyrics.sections.filter((s) => s.kind === 'verse' || s.kind === 'bridge'))
      for (const line of section.lines)
        if (line.hook !== true) t.false(chorus.has(bare(line.text)), `${prompt}: "${line.text}"`);
  }
});
