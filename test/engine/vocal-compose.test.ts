/**
 * The sung line as a score: when a track sings, one syllable per note, stress on strong beats, the range, the
 * hook repeating, given lyrics sung in order and refused when too long, and the lyric timing the API shows.
 * Checked on the composed notes against rules computed here, not against the composer's own bookkeeping.
 */
import test from 'ava';
import {
  checkRequest,
  compose,
  interpret,
  LyricsTooLongError,
  type GenerationRequest,
  type Score,
} from '../../engine/index.ts';
import { trackMetadata } from '../../engine/track.ts';
import { VOCAL_RANGE } from '../../engine/compose/vocal/index.ts';

const request = (prompt: string, extra: Partial<GenerationRequest> = {}): GenerationRequest => ({
  prompt,
  duration: 60,
  style: null,
  instrumental: false,
  seed: 7,
  ...extra,
});
const scoreOf = (prompt: string, extra: Partial<GenerationRequest> = {}): Score =>
  compose(interpret(request(prompt, extra)));

const FOLK = scoreOf('a happy acoustic folk song about summer');
const POP = scoreOf('an upbeat pop song about the city at night', { duration: 90, seed: 3 });
const SCORES = [
  FOLK,
  POP,
  scoreOf('a sad slow piano ballad about rain', { seed: 11 }),
  scoreOf('female vocals over a house groove', { seed: 4 }),
];

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/\[[^\]]*\]/g, ' ')
    .match(/[a-z0-9']+/g) ?? [];

test('a song prompt is sung: a vocal part, lyrics and timing in the metadata', (t) => {
  t.truthy(FOLK.vocal);
  t.true(FOLK.parts.some((part) => part.role === 'vocal' && part.notes.length > 10));
  const metadata = trackMetadata(FOLK.spec, FOLK);
  t.true(metadata.vocals);
  t.regex(metadata.lyrics ?? '', /^\[Verse\]\n/);
  t.regex(metadata.lyrics ?? '', /\[Chorus\]/);
  t.true((metadata.lyrics_timing ?? []).length >= 4);
});

test('instrumental requests and instrumental-natured prompts are not sung', (t) => {
  for (const score of [
    scoreOf('a happy acoustic folk song about summer', { instrumental: true }),
    scoreOf('ambient soundscape'),
    scoreOf('lo-fi beat to study to'),
    scoreOf('orchestral battle theme'),
  ]) {
    t.is(score.vocal, null, score.spec.prompt);
    t.false(score.parts.some((part) => part.role === 'vocal'));
    const metadata = trackMetadata(score.spec, score);
    t.false(metadata.vocals);
    t.is(metadata.lyrics, null);
  }
});

test('one syllable per note: every syllable of every sung line has its own note, melismas only at line ends, on open vowels', (t) => {
  for (const score of SCORES) {
    const vocal = score.vocal!;
    const starts = vocal.notes.filter((note) => !note.continuation);
    const expected = vocal.lines.flatMap((line) => words(line.text));
    // Each sung word is sung, in order (the notes' words, rebuilt from their syllables).
    const sungWords: string[] = [];
    starts.forEach((note, i) => {
      const previous = starts[i - 1];
      if (!previous || previous.line !== note.line || previous.word !== note.word) sungWords.push('');
      sungWords[sungWords.length - 1] += note.syllable.text.toLowerCase();
    });
    t.deepEqual(
      sungWords.map((w) => w.replace(/[^a-z0-9']/g, '')),
      expected,
      score.spec.prompt,
    );
    vocal.notes.forEach((note, i) => {
      if (!note.continuation) return;
      const next = vocal.notes[i + 1];
      t.true(next === undefined || next.line !== note.line, 'a melisma continuation ends its line');
      t.false(['IY', 'IH', 'UW', 'UH', 'ER'].includes(note.syllable.nucleus), `a melisma on ${note.syllable.text}`);
    });
  }
});

test('the lead line is monophonic and in time order', (t) => {
  for (const score of SCORES) {
    const notes = score.vocal!.notes;
    for (let i = 1; i < notes.length; i++) t.true(notes[i]!.time >= notes[i - 1]!.time + notes[i - 1]!.duration - 1e-6);
  }
});

test('stressed syllables fall on beats: at least 75% of stressed syllables of multi-syllable words start on a beat', (t) => {
  for (const score of SCORES) {
    const vocal = score.vocal!;
    const quarterPerBeat = 4 / score.spec.meter.beatUnit;
    const multi = new Set<string>();
    for (const note of vocal.notes) if (!note.continuation) multi.add(`${note.line}/${note.word}`);
    const counts = new Map<string, number>();
    for (const note of vocal.notes)
      if (!note.continuation)
        counts.set(`${note.line}/${note.word}`, (counts.get(`${note.line}/${note.word}`) ?? 0) + 1);
    const stressed = vocal.notes.filter(
      (n) => !n.continuation && n.syllable.stress === 1 && (counts.get(`${n.line}/${n.word}`) ?? 0) > 1,
    );
    // note.beat counts quarter notes; on a beat of the meter means a whole number of meter beats.
    const onBeat = stressed.filter(
      (n) => Math.abs(n.beat / quarterPerBeat - Math.round(n.beat / quarterPerBeat)) < 1e-6,
    );
    t.true(stressed.length >= 3, `${score.spec.prompt}: ${stressed.length} stressed syllables`);
    t.true(
      onBeat.length / stressed.length >= 0.75,
      `${score.spec.prompt}: ${onBeat.length}/${stressed.length} on the beat (quarter/beat ${quarterPerBeat})`,
    );
  }
});

test('the voice stays in its range: male A2–E4, female G3–D5', (t) => {
  for (const score of SCORES) {
    const { low, high } = VOCAL_RANGE[score.vocal!.gender];
    for (const note of [...score.vocal!.notes, ...score.vocal!.backing])
      t.true(note.midi >= low && note.midi <= high, `${note.midi} outside ${low}–${high}`);
  }
  t.is(scoreOf('a pop song with a male singer').vocal!.gender, 'male');
  t.is(scoreOf('a pop song with female vocals').vocal!.gender, 'female');
});

/** Duration-weighted median MIDI of the notes. */
function weightedMedian(notes: readonly { midi: number; duration: number }[]): number {
  const sorted = [...notes].sort((a, b) => a.midi - b.midi);
  const half = sorted.reduce((sum, n) => sum + n.duration, 0) / 2;
  let running = 0;
  for (const note of sorted) {
    running += note.duration;
    if (running >= half) return note.midi;
  }
  return Number.NaN;
}

test("a female lead sits where a pop singer's does: verses at or below E4, the chorus higher, no octave folds in a line", (t) => {
  for (const [prompt, seed] of [
    ['an upbeat pop song with female vocals', 13],
    ['a warm folk song with a female singer', 11],
    ['a sad soul song with a female singer', 15],
  ] as const) {
    const vocal = scoreOf(prompt, { seed }).vocal!;
    t.is(vocal.gender, 'female');
    const bySection = (kind: string) =>
      vocal.notes.filter((n) => vocal.lines[n.line]?.section === kind && !n.continuation);
    const verse = weightedMedian(bySection('verse'));
    const chorus = weightedMedian(bySection('chorus'));
    t.log(`${prompt}: verse median ${verse}, chorus ${chorus}`);
    // E4 is 330 Hz: a female singer's verse in chest voice, below her first passaggio.
    t.true(verse <= 64, `${prompt}: verse median ${verse}`);
    t.true(chorus >= verse, `${prompt}: chorus ${chorus} under the verse ${verse}`);
    // A line's neighbouring notes never leap more than a ninth (a note folded an octave at the range's edge would).
    for (const [k, note] of vocal.notes.entries()) {
      const next = vocal.notes[k + 1];
      if (next && next.line === note.line)
        t.true(Math.abs(next.midi - note.midi) <= 14, `${note.midi} -> ${next.midi}`);
    }
  }
});

test('the chorus repeats: the same chorus line gets the same tune and rhythm every time', (t) => {
  const vocal = POP.vocal!;
  const byText = new Map<string, { midi: number; at: number }[][]>();
  vocal.lines.forEach((line, index) => {
    if (line.section !== 'chorus') return;
    const shape = vocal.notes.filter((n) => n.line === index).map((n) => ({ midi: n.midi, at: n.time - line.start }));
    byText.set(line.text, [...(byText.get(line.text) ?? []), shape]);
  });
  const repeated = [...byText.values()].filter((shapes) => shapes.length > 1);
  t.true(repeated.length > 0, 'some chorus line is sung more than once');
  // The same pitches at the same offsets; a millisecond apart is the float rounding of where in the track the line starts.
  const same = (a: { midi: number; at: number }[], b: { midi: number; at: number }[]) =>
    a.length === b.length && a.every((n, k) => n.midi === b[k]!.midi && Math.abs(n.at - b[k]!.at) < 0.002);
  for (const shapes of repeated) t.true(shapes.every((s) => same(s, shapes[0]!)));
});

test('lyric timing: lines in order, each word inside its line, matching the notes', (t) => {
  for (const score of SCORES) {
    const { lines, notes } = score.vocal!;
    lines.forEach((line, index) => {
      t.true(line.end > line.start);
      if (index > 0) t.true(line.start >= lines[index - 1]!.end - 1e-6);
      t.deepEqual(
        line.words.map((w) => words(w.text)[0]),
        words(line.text),
      );
      for (const word of line.words)
        t.true(word.start >= line.start - 1e-6 && word.end <= line.end + 1e-6 && word.end > word.start);
      const own = notes.filter((n) => n.line === index);
      t.is(Math.round(line.start * 1000), Math.round(own[0]!.time * 1000));
    });
  }
});

test('the lead instrument rests while the voice sings', (t) => {
  const lead = FOLK.parts.find((part) => part.role === 'lead');
  for (const line of FOLK.vocal!.lines) {
    const clash = (lead?.notes ?? []).filter((n) => n.time < line.end && n.time + n.duration > line.start);
    t.is(clash.length, 0);
  }
});

const GIVEN = `[Verse]
Morning light upon the window
Coffee steaming in my hand
Every little thing is easy
Nothing here I had to plan

[Chorus]
Sing it out, sing it loud
Dancing in the summer crowd`;

test('given lyrics are sung word for word, in order, with their section tags', (t) => {
  const score = scoreOf('a folk song', { lyrics: GIVEN });
  const vocal = score.vocal!;
  t.is(vocal.lyrics.source, 'given');
  t.deepEqual(
    vocal.lines.flatMap((line) => words(line.text)),
    words(GIVEN),
  );
  t.deepEqual([...new Set(vocal.lines.map((line) => line.section))], ['verse', 'chorus']);
  const metadata = trackMetadata(score.spec, score);
  t.regex(
    metadata.lyrics!,
    /\[Verse\][\s\S]*Morning light upon the window[\s\S]*\[Chorus\][\s\S]*Dancing in the summer crowd/,
  );
});

test('a given line too long for one phrase is split in two, never dropped', (t) => {
  const long = 'Running through the fields of yellow flowers in the early morning sunshine every day';
  const score = scoreOf('a pop song', { lyrics: long });
  const lines = score.vocal!.lines;
  t.true(lines.length >= 2);
  t.deepEqual(
    lines.flatMap((line) => words(line.text)),
    words(long),
  );
});

test('lyrics too long for the duration are refused, saying how many lines fit; a longer track takes them', (t) => {
  const lyrics = Array.from({ length: 40 }, (_, i) => `This is the line number ${i + 1} of my song`).join('\n');
  const error = t.throws(() => checkRequest(request('a pop song', { lyrics, duration: 30 })), {
    instanceOf: LyricsTooLongError,
  });
  t.is(error!.lines, 40);
  t.true(error!.linesThatFit > 0 && error!.linesThatFit < 40);
  t.true(error!.message.includes(`room for ${error!.linesThatFit}`));
  const fits = Array.from(
    { length: error!.linesThatFit },
    (_, i) => `This is the line number ${i + 1} of my song`,
  ).join('\n');
  t.notThrows(() => checkRequest(request('a pop song', { lyrics: fits, duration: 30 })));
});

test('the same request composes the same vocal; another seed writes other lyrics', (t) => {
  const again = scoreOf('a happy acoustic folk song about summer');
  t.deepEqual(again.vocal, FOLK.vocal);
  const other = scoreOf('a happy acoustic folk song about summer', { seed: 8 });
  t.notDeepEqual(
    other.vocal!.lines.map((l) => l.text),
    FOLK.vocal!.lines.map((l) => l.text),
  );
});
