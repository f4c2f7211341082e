/**
 * The subject table (issue 23): prompts as people write them, each sung about its own subject. Lyrics come from
 * the whole pipeline (interpret, then compose a 60 s track, seed 1). For each row the table keeps the first lines
 * the old writer sang ("before") and today's ("after"); LYRICS_TABLE=write records today's after a deliberate change.
 */
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { compose, interpret } from '../../engine/index.ts';
import type { LyricLine, Lyrics } from '../../engine/types.ts';
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
}

const FILE = new URL('./lyrics-subjects.json', import.meta.url);
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
  after: { title, verse: first(lyrics, 'verse'), chorus: first(lyrics, 'chorus') },
}));

if (process.env.LYRICS_TABLE === 'write')
  writeFileSync(FILE, `[\n${today.map((row) => `  ${JSON.stringify(row)}`).join(',\n')}\n]\n`);

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

test('no two prompts of different subjects share a verse line', (t) => {
  const seen = new Map<string, string>();
  for (const { row, lyrics } of songs) {
    // Prompts no subject holds share the general couplets among themselves, never a subject's.
    const subject = row.subject ?? 'no subject';
    for (const section of lyrics.sections.filter((s) => s.kind === 'verse')) {
      for (const line of section.lines) {
        const other = seen.get(line.text);
        t.true(other === undefined || other === subject, `"${line.text}" is sung for "${other}" and "${row.prompt}"`);
        seen.set(line.text, subject);
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
