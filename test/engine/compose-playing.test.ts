/**
 * Playing that sounds played (issue 10, item 3): strummed guitars, palm mutes, drum ghost notes and hands,
 * the piano's sustain pedal, pizzicato and tremolo strings, per-instrument humanizing. Judged on the Score.
 */
import test from 'ava';
import tonejsMidi from '@tonejs/midi';
import { composeWith } from '../../engine/compose/index.ts';
import { encodeMidi } from '../../engine/encode/index.ts';
import { familyOf } from '../../engine/families.ts';
import { getPreset } from '../../engine/presets.ts';
import type { Note, Part, Role, Score, Section } from '../../engine/types.ts';
import * as m from '../helpers/score-metrics.ts';
import { specFor } from './compose-fixtures.ts';

const SNARE = 38;

function scoreOf(style: string, overrides: Parameters<typeof specFor>[1] = {}): Score {
  const preset = getPreset(style);
  return composeWith(specFor(preset, { duration: 90, seed: 7, ...overrides }), preset);
}

function withInstrument(style: string, role: Role, instrument: string): Score {
  const preset = getPreset(style);
  const spec = specFor(preset, { duration: 90, seed: 7 });
  return composeWith(
    { ...spec, instruments: [...spec.instruments.filter((c) => c.role !== role), { role, instrument }] },
    preset,
  );
}

const secondsPerQuarter = (score: Score) => (60 / score.bpm) * (score.spec.meter.beatUnit / 4);

/** Notes grouped by grid beat, each group in played order. */
function strokes(part: Part): Note[][] {
  const groups = new Map<number, Note[]>();
  for (const note of part.notes) groups.set(note.beat, [...(groups.get(note.beat) ?? []), note]);
  return [...groups.values()].map((g) => g.sort((a, b) => a.time - b.time));
}

function sectionEnd(score: Score, section: Section): number {
  const next = score.sections[score.sections.indexOf(section) + 1];
  return next ? next.beat : Infinity;
}

function notesIn(score: Score, part: Part, section: Section): Note[] {
  return part.notes.filter((n) => n.beat >= section.beat - 1e-6 && n.beat < sectionEnd(score, section) - 1e-6);
}

test('a strummed guitar sweeps down low→high from the grid time and up high→low, lighter and on fewer strings, 8–30 ms per stroke', (t) => {
  const score = scoreOf('folk');
  const guitar = m.part(score, 'chords')!;
  t.is(guitar.instrument, 'guitar');
  const ending = score.chords[score.chords.length - 1]!.beat;
  const down: Note[][] = [];
  const up: Note[][] = [];
  for (const stroke of strokes(guitar).filter((s) => s.length > 1 && s[0]!.beat < ending)) {
    const pitches = stroke.map((n) => n.midi);
    const ascending = pitches.every((p, i) => i === 0 || p > pitches[i - 1]!);
    const descending = pitches.every((p, i) => i === 0 || p < pitches[i - 1]!);
    t.true(ascending || descending, `stroke at ${stroke[0]!.beat}: ${pitches.join(' ')}`);
    const spread = stroke[stroke.length - 1]!.time - stroke[0]!.time;
    t.true(spread >= 0.008 - 1e-6 && spread <= 0.03 + 1e-6, `stroke at ${stroke[0]!.beat} spreads ${spread}s`);
    // The first string is on the grid (give or take the part's humanizing); the others follow it.
    t.true(Math.abs(stroke[0]!.time - stroke[0]!.beat * secondsPerQuarter(score)) <= 0.012 + 1e-6);
    (ascending ? down : up).push(stroke);
  }
  t.true(down.length > 50 && up.length > 20, `${down.length} downstrokes, ${up.length} upstrokes`);
  const size = (s: Note[][]) => m.mean(s.map((x) => x.length));
  const level = (s: Note[][]) => m.mean(s.flatMap((x) => x.map((n) => n.velocity)));
  t.true(size(up) < size(down), `strings per stroke: up ${size(up)}, down ${size(down)}`);
  t.true(level(up) < level(down), `velocity: up ${level(up)}, down ${level(down)}`);
  // An upstroke catches the higher strings: its lowest note is above the downstroke's lowest.
  for (const stroke of up) {
    const previousDown = down.filter((d) => d[0]!.beat < stroke[0]!.beat).at(-1);
    if (previousDown && m.chordAtBeat(score, previousDown[0]!.beat) === m.chordAtBeat(score, stroke[0]!.beat)) {
      t.true(Math.min(...stroke.map((n) => n.midi)) > previousDown[0]!.midi);
    }
  }
});

test('a guitar chord is a guitar shape: up to six notes, one per string, within the guitar range', (t) => {
  const score = scoreOf('folk');
  for (const stroke of strokes(m.part(score, 'chords')!)) {
    t.true(stroke.length <= 6);
    t.true(
      stroke.every((n) => n.midi >= 40 && n.midi <= 40 + 24 + 12),
      `${stroke.map((n) => n.midi)}`,
    );
    t.is(new Set(stroke.map((n) => n.midi)).size, stroke.length);
  }
});

test('overdriven rock guitars chug palm-muted eighths in verses and ring open in choruses', (t) => {
  const score = scoreOf('rock');
  const guitar = m.part(score, 'chords')!;
  const verse = score.sections.find((s) => s.kind === 'verse')!;
  const chorus = score.sections.find((s) => s.kind === 'chorus')!;
  const verseNotes = notesIn(score, guitar, verse);
  const chorusNotes = notesIn(score, guitar, chorus);
  t.true(verseNotes.length > 0 && verseNotes.every((n) => n.articulation === 'muted' && n.duration < 0.2));
  t.true(chorusNotes.length > 0 && chorusNotes.every((n) => n.articulation === undefined));
  t.true(m.mean(chorusNotes.map((n) => n.duration)) > m.mean(verseNotes.map((n) => n.duration)) * 1.5);
  // Steady eighths: every eighth of a verse bar is struck, downstrokes only (the lowest string leads).
  const onsets = new Set(verseNotes.map((n) => n.beat));
  t.true(onsets.size >= verse.bars * score.beatsPerBar * 2 * 0.9);
  for (const stroke of strokes({ ...guitar, notes: verseNotes }))
    t.is(stroke[0]!.midi, Math.min(...stroke.map((n) => n.midi)));
});

/** Snare hits (below 0.3) away from the grid's snare steps, outside builds (whose roll starts soft). */
function ghostNotes(score: Score): Note[] {
  const grid = getPreset(score.spec.genre).drums!;
  const stepQuarters = (score.beatsPerBar * (4 / score.spec.meter.beatUnit)) / grid.stepsPerBar;
  const barQuarters = score.beatsPerBar * (4 / score.spec.meter.beatUnit);
  const gridSnare = new Set(
    [grid.main, grid.half, grid.fill].flatMap((g) => [...(g.snare ?? '')].flatMap((c, i) => (c === '.' ? [] : [i]))),
  );
  return m.part(score, 'drums')!.notes.filter((n) => {
    if (n.midi !== SNARE || n.velocity >= 0.3) return false;
    if (score.sections.some((s) => s.kind === 'build' && n.beat >= s.beat && n.beat < sectionEnd(score, s)))
      return false;
    const step = Math.round((n.beat % barQuarters) / stepQuarters);
    return !gridSnare.has(step) || Math.abs((n.beat % barQuarters) / stepQuarters - step) > 1e-6;
  });
}

test('drummers ghost soft snare notes between the backbeats in rock and soul grooves, a techno grid never does', (t) => {
  // Swung grooves (jazz) ghost only on the swung eighths, so fewer.
  for (const [style, perBar] of [
    ['rock', 0.5],
    ['soul', 0.5],
    ['hiphop', 0.5],
    ['jazz', 0.2],
  ] as const) {
    const score = scoreOf(style);
    const ghosts = ghostNotes(score);
    const bars = score.sections.reduce((sum, s) => sum + s.bars, 0);
    t.true(ghosts.length >= bars * perBar, `${style}: ${ghosts.length} ghost notes in ${bars} bars`);
    t.true(ghosts.every((n) => n.velocity < 0.3));
  }
  for (const style of ['techno', 'house']) t.is(ghostNotes(scoreOf(style)).length, 0, style);
});

test("time-keeping hats never repeat a bar's velocities: accented on the beat, varied from bar to bar", (t) => {
  for (const style of ['rock', 'house']) {
    const score = scoreOf(style);
    const barQuarters = score.beatsPerBar * (4 / score.spec.meter.beatUnit);
    const hats = m.part(score, 'drums')!.notes.filter((n) => n.midi === 42);
    const bars = new Map<number, string>();
    for (const hat of hats) {
      const bar = Math.floor(hat.beat / barQuarters + 1e-9);
      bars.set(bar, `${bars.get(bar) ?? ''}${(hat.beat % barQuarters).toFixed(2)}:${hat.velocity};`);
    }
    const patterns = [...bars.values()];
    t.true(patterns.length > 8);
    t.is(new Set(patterns).size, patterns.length, `${style}: a bar repeats the velocities of another`);
    const onBeat = hats.filter((n) => Number.isInteger(n.beat));
    const offBeat = hats.filter((n) => !Number.isInteger(n.beat));
    t.true(m.mean(onBeat.map((n) => n.velocity)) > m.mean(offBeat.map((n) => n.velocity)), style);
  }
});

test('a piano holds its chord notes with the pedal until the chord changes, never past the change', (t) => {
  for (const style of ['piano', 'pop']) {
    const score = scoreOf(style);
    const piano = m.part(score, 'chords')!;
    // Pop's chords are a bright piano: a piano all the same, pedalled as one.
    t.is(familyOf(piano.instrument), 'piano', style);
    let held = 0;
    score.chords.slice(0, -1).forEach((chord, i) => {
      const change = score.chords[i + 1]!.beat * secondsPerQuarter(score);
      const inside = piano.notes.filter((n) => n.beat >= chord.beat - 1e-6 && n.beat < chord.beat + chord.beats - 1e-6);
      const nextOnset = Math.min(
        ...piano.notes.filter((n) => Math.abs(n.beat - score.chords[i + 1]!.beat) < 1e-6).map((n) => n.time),
      );
      for (const note of inside) {
        const end = note.time + note.duration;
        t.true(
          end <= Math.min(change, nextOnset) + 1e-6,
          `${style}: note at ${note.beat} ends ${end}, after the change at ${change}`,
        );
        // Unless its key is struck again in the chord, it rings to the pedal lift just before the change.
        const restruck = inside.some((o) => o.midi === note.midi && o.time > note.time);
        if (!restruck && inside.length > 0) {
          t.true(
            end >= change - 0.05,
            `${style}: note at ${note.beat} ends ${end}, ${change - end}s before the change`,
          );
          held++;
        }
      }
    });
    t.true(held > 20, `${style}: ${held} notes held to a chord change`);
  }
});

test('staccato stabs are not pedalled', (t) => {
  const score = scoreOf('house');
  const piano = m.part(score, 'chords')!;
  t.is(piano.instrument, 'piano');
  t.true(m.mean(piano.notes.map((n) => n.duration)) < 0.3);
});

test('a quiet orchestral ostinato is plucked pizzicato and the climax bows it again', (t) => {
  const score = scoreOf('orchestral', { duration: 120 });
  const strings = m.part(score, 'chords')!;
  t.is(strings.instrument, 'strings');
  const theme = score.sections.find((s) => s.kind === 'theme')!;
  const climax = score.sections.find((s) => s.kind === 'climax')!;
  t.true(theme.energy <= 0.55 && climax.energy === 1);
  const themeNotes = notesIn(score, strings, theme);
  t.true(themeNotes.length > 0 && themeNotes.every((n) => n.articulation === 'pizzicato'));
  t.true(notesIn(score, strings, climax).every((n) => n.articulation === undefined));
});

test('sustained string chords under an orchestral climax are bowed tremolo; elsewhere, and outside orchestral music, legato', (t) => {
  const score = withInstrument('orchestral', 'pad', 'strings');
  const pad = m.part(score, 'pad')!;
  for (const section of score.sections) {
    const notes = notesIn(score, pad, section);
    if (section.kind === 'climax') t.true(notes.length > 0 && notes.every((n) => n.articulation === 'tremolo'));
    else
      t.true(
        notes.every((n) => n.articulation !== 'tremolo'),
        section.kind,
      );
  }
  const soul = scoreOf('soul');
  t.is(m.part(soul, 'pad')!.instrument, 'strings');
  t.true(m.part(soul, 'pad')!.notes.every((n) => n.articulation === undefined));
});

test('each instrument has its own feel: the bass sits behind the beat, drums are tight, pads loose', (t) => {
  const score = scoreOf('soul', { swing: 0 });
  const offsets = (role: Role) => m.timingOffsets(score, m.part(score, role)!.notes);
  const rms = (values: number[]) => Math.sqrt(m.mean(values.map((v) => v * v)));
  t.true(m.mean(offsets('bass')) > 0.003, `bass ${m.mean(offsets('bass'))}`);
  t.true(Math.abs(m.mean(offsets('drums'))) < 0.002);
  t.true(rms(offsets('drums')) > 0.001, 'drums are not quantized');
  t.true(
    rms(offsets('pad')) > rms(offsets('drums')) * 1.5,
    `pad ${rms(offsets('pad'))} vs drums ${rms(offsets('drums'))}`,
  );
});

test('the same seed plays the same strums, ghosts, pedalling and articulations', (t) => {
  for (const style of ['folk', 'rock', 'soul', 'orchestral', 'piano']) {
    const preset = getPreset(style);
    const spec = specFor(preset, { duration: 60, seed: 31 });
    t.deepEqual(composeWith(spec, preset), composeWith(structuredClone(spec), preset), style);
  }
});

test('MIDI export keeps every played note (strummed, muted, plucked) and leaves the articulation to the audio', (t) => {
  for (const style of ['rock', 'orchestral']) {
    const score = scoreOf(style, { duration: 30 });
    t.true(
      score.parts.some((p) => p.notes.some((n) => n.articulation !== undefined)),
      style,
    );
    const midi = new tonejsMidi.Midi(encodeMidi(score));
    t.deepEqual(
      midi.tracks.map((track) => track.notes.length),
      score.parts.map((p) => p.notes.length),
      style,
    );
  }
});
