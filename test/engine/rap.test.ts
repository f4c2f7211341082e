/**
 * The rapped delivery (compose/vocal/rap.ts): a hip hop or trap song, or any prompt asking for a rapper, says its
 * words on a sixteenth grid, a bar a line, at a speaking pitch that falls at the end of each line; beats stay
 * instrumental. Checked on the composed notes and on the singer's pitch contour.
 */
import test from 'ava';
import { compose, interpret, type GenerationRequest, type Score } from '../../engine/index.ts';
import type { SungNote } from '../../engine/types.ts';
import { planVoice } from '../../engine/render/singer/plan.ts';
import { PitchContour } from '../../engine/render/singer/pitch.ts';
import { createRandom } from '../../engine/random.ts';

const request = (prompt: string, seed = 1): GenerationRequest => ({
  prompt,
  duration: 60,
  style: null,
  instrumental: false,
  seed,
});
const scoreOf = (prompt: string, seed?: number): Score => compose(interpret(request(prompt, seed)));

const BOOM_BAP = scoreOf('boom bap hip hop song, 90 bpm');
const TRAP = scoreOf('trap song with a rapper, 140 bpm', 2);
const RAPPED = [BOOM_BAP, TRAP, scoreOf('a rapper over a funk groove', 3)];

const linesOf = (notes: readonly SungNote[]): SungNote[][] => {
  const lines = new Map<number, SungNote[]>();
  for (const note of notes) lines.set(note.line, [...(lines.get(note.line) ?? []), note]);
  return [...lines.values()];
};

test('beats stay instrumental; songs and rappers are rapped, every note spoken', (t) => {
  for (const prompt of ['boom bap hip hop beat, 90 bpm', 'dark trap beat with 808s, 140 bpm', 'hip hop'])
    t.is(scoreOf(prompt).vocal, null, prompt);
  for (const score of RAPPED) {
    const notes = score.vocal?.notes ?? [];
    t.true(notes.length > 20, score.spec.prompt);
    t.true(
      notes.every((n) => n.spoken === true),
      score.spec.prompt,
    );
  }
  t.true((scoreOf('a happy acoustic folk song about summer').vocal?.notes ?? []).every((n) => n.spoken !== true));
});

test('a line is a bar of sixteenths: dense, on the grid, with rests and varied rhythm', (t) => {
  for (const score of [BOOM_BAP, TRAP]) {
    const beatsPerBar = score.spec.meter.beatsPerBar;
    const lines = linesOf(score.vocal?.notes ?? []);
    const patterns = new Set<string>();
    for (const line of lines) {
      const first = line[0]?.beat ?? 0;
      const last = line[line.length - 1]?.beat ?? 0;
      t.true(last - first < beatsPerBar, `${score.spec.prompt}: a line within a bar`);
      for (const note of line) t.true(Math.abs(note.beat * 4 - Math.round(note.beat * 4)) < 1e-6, 'on sixteenths');
      patterns.add(line.map((n) => (n.beat - Math.floor(first / beatsPerBar) * beatsPerBar).toFixed(2)).join(' '));
    }
    t.true(lines.length >= 8);
    t.true(
      patterns.size >= lines.length / 3,
      `${score.spec.prompt}: ${patterns.size} rhythms in ${lines.length} lines`,
    );
    const sixteenths = lines.flatMap((line) => line.slice(1).map((n, k) => n.beat - (line[k]?.beat ?? 0)));
    t.true(
      sixteenths.some((gap) => gap === 0.25),
      'sixteenths',
    );
    t.true(
      sixteenths.some((gap) => gap >= 0.5),
      'longer gaps',
    );
  }
  const seconds = BOOM_BAP.vocal?.notes.length ?? 0;
  const span = (BOOM_BAP.vocal?.lines ?? []).reduce((sum, line) => sum + line.end - line.start, 0);
  t.true(seconds / span > 3, `${(seconds / span).toFixed(1)} syllables a second`);
});

test('speech pitch: narrow, around the speaking pitch, falling at the end of each line', (t) => {
  for (const score of RAPPED) {
    const notes = score.vocal?.notes ?? [];
    const midis = notes.map((n) => n.midi);
    t.true(Math.max(...midis) - Math.min(...midis) <= 9, score.spec.prompt);
    for (const line of linesOf(notes)) {
      const last = line[line.length - 1];
      t.true((last?.glide ?? 0) >= 3, 'the line ends on a fall');
      t.true(line.slice(0, -1).every((n) => (n.glide ?? 0) < (last?.glide ?? 0)));
    }
  }
});

test('the singer says a spoken note without vibrato, falling from its glide to its pitch', (t) => {
  const note: SungNote = {
    ...(BOOM_BAP.vocal?.notes[0] as SungNote),
    time: 1,
    duration: 0.6,
    midi: 50,
    glide: 3,
    spoken: true,
  };
  const contour = new PitchContour(planVoice([note], 'male').notes, createRandom(1, 'rap'));
  const at = (t: number) => contour.midiAt(t);
  const start = at(1.01);
  const middle = at(1.3);
  const end = at(1.59);
  t.true(start > 52.5 && middle > 51 && middle < 52 && end < 50.3, `${start} ${middle} ${end}`);
});

test("the beat's melody plays on under the rap, softer; a sung melody's lead still rests under the voice", (t) => {
  const overlapping = (score: Score) => {
    const lines = linesOf(score.vocal?.notes ?? []).map(
      (line) => [line[0]?.time ?? 0, Math.max(...line.map((n) => n.time + n.duration))] as const,
    );
    const lead = score.parts.find((p) => p.role === 'lead')?.notes ?? [];
    return lead.filter((n) => lines.some(([a, b]) => n.time + n.duration > a && n.time < b));
  };
  const under = overlapping(TRAP);
  t.true(under.length >= 8, `${under.length} melody notes under the rap`);
  const sung = scoreOf('a pop song with a female singer, 110 bpm');
  t.is(overlapping(sung).length, 0);
});
