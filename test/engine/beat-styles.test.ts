/**
 * Boom bap and trap as producers make them (issue 28), in the score: boom bap's beat stops on its last hit
 * (Preset.ending "stop") instead of ringing a crash and a held chord; trap's claps double the snare in every
 * groove and its melody is sparse, low and dark (a piano, not bells).
 */
import test from 'ava';
import { compose, interpret, type Score } from '../../engine/index.ts';
import { DRUM_MIDI } from '../../engine/types.ts';

const scoreOf = (prompt: string, seed = 1): Score =>
  compose(interpret({ prompt, duration: 30, style: null, instrumental: true, seed }));

test('a boom bap beat stops on a kick and a short stab; the vinyl runs on', (t) => {
  for (const seed of [1, 2]) {
    const score = scoreOf('boom bap hip hop beat, 90 bpm', seed);
    const lastStart = Math.max(...score.parts.flatMap((p) => p.notes.map((n) => n.time)));
    const drums = score.parts.find((p) => p.role === 'drums')?.notes ?? [];
    t.false(
      drums.some((n) => n.midi === DRUM_MIDI.crash && n.time > 20),
      'no crash at the end',
    );
    const end = score.parts
      .filter((p) => p.role !== 'texture')
      .flatMap((p) => p.notes)
      .filter((n) => n.time >= lastStart - 0.1);
    t.true(end.length > 0);
    t.true(
      end.every((n) => n.duration <= 0.4),
      'the last hit is short',
    );
    t.true(lastStart > 26, `the beat plays on to ${lastStart.toFixed(1)} s of 30`);
    const vinyl = score.parts.find((p) => p.role === 'texture')?.notes ?? [];
    t.true(Math.max(...vinyl.map((n) => n.time + n.duration)) > 29);
  }
  // Other styles still end on a held chord with a crash.
  const pop = scoreOf('upbeat pop song, 116 bpm');
  t.true(pop.parts.find((p) => p.role === 'drums')?.notes.some((n) => n.midi === DRUM_MIDI.crash && n.time > 24));
});

test('trap claps with its snare in every groove; its melody is a sparse, low piano', (t) => {
  const score = scoreOf('dark trap beat with 808s, 140 bpm');
  const drums = score.parts.find((p) => p.role === 'drums')?.notes ?? [];
  // The half-time backbeat: a snare on the bar's third beat (quarter 2 of 4), clapped in every groove.
  const backbeats = drums.filter((n) => n.midi === DRUM_MIDI.snare && n.beat % 4 === 2);
  const clapped = backbeats.filter((s) => drums.some((n) => n.midi === DRUM_MIDI.clap && n.beat === s.beat));
  t.true(backbeats.length >= 6);
  t.is(clapped.length, backbeats.length, `${clapped.length} of ${backbeats.length} backbeats clapped`);
  const lead = score.parts.find((p) => p.role === 'lead');
  t.is(lead?.instrument, 'piano');
  const notes = lead?.notes ?? [];
  t.true(notes.length > 0 && notes.length / 30 < 1.5, `${notes.length} notes in 30 s`);
  t.true(notes.every((n) => n.midi <= 74));
});

test("a trap beat is a loop with a hook, not a dance track's build and drop: no build's snare roll, the beat in from the first verse", (t) => {
  for (const seed of [1, 2]) {
    const score = scoreOf('dark trap beat with 808s, 140 bpm', seed);
    const kinds = score.sections.map((section) => section.kind);
    t.false(kinds.includes('build') || kinds.includes('drop'), kinds.join(' '));
    // A build's roll was eighths and sixteenths of snare for bars on end; trap's snare falls on the half-time backbeat.
    const snares = (score.parts.find((p) => p.role === 'drums')?.notes ?? []).filter((n) => n.midi === DRUM_MIDI.snare);
    const offBackbeat = snares.filter((n) => n.beat % 4 !== 2);
    t.true(
      offBackbeat.length <= snares.length / 4,
      `${offBackbeat.length} of ${snares.length} snares off the backbeat`,
    );
  }
});
