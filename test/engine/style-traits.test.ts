/**
 * The everyday styles play what defines them (issue 28), checked on the score of a prompt as people write it:
 * reggae's skank on the off-beats over the organ's bubble, trap's hat rolls and sliding 808, funk's ghost notes
 * and a bass locked to the kick, boom bap's swung hats and drums in front, blues' shuffle, and no strummed
 * steel-string guitar in styles that do not ask for one.
 */
import test from 'ava';
import { compose, interpret } from '../../engine/index.ts';
import { DRUM_MIDI, type Part, type Score } from '../../engine/types.ts';

const scoreOf = (prompt: string, seed: number): Score =>
  compose(interpret({ prompt, duration: 60, style: null, instrumental: true, seed }));

const SEEDS = [1, 2, 3];

function part(score: Score, role: Part['role']): Part {
  const found = score.parts.find((p) => p.role === role);
  if (!found) throw new Error(`no ${role} part in the ${score.spec.genre} score`);
  return found;
}

/** Grid beats (quarter notes) of the distinct onsets of a part, before the final chord. */
function onsets(score: Score, p: Part, midi?: number): number[] {
  const end = score.chords.at(-1)?.beat ?? Infinity;
  const beats = p.notes.filter((n) => (midi === undefined || n.midi === midi) && n.beat < end).map((n) => n.beat);
  return [...new Set(beats.map((b) => Math.round(b * 48) / 48))].sort((a, b) => a - b);
}

const frac = (beat: number) => beat - Math.floor(beat + 1e-6);

test('boom bap: swung hats on the eighths, the snare on 2 and 4, drums in front of the loop', (t) => {
  for (const seed of SEEDS) {
    const score = scoreOf('boom bap hip hop beat, 90 bpm', seed);
    t.is(score.spec.genre, 'hiphop');
    const drums = part(score, 'drums');
    t.true(drums.gainDb > part(score, 'chords').gainDb);
    const secondsPerBeat = 60 / score.bpm;
    const offHats = drums.notes.filter((n) => n.midi === DRUM_MIDI.hat && Math.abs(frac(n.beat) - 0.5) < 0.01);
    const late = offHats.map((n) => n.time / secondsPerBeat - n.beat);
    const mean = late.reduce((s, v) => s + v, 0) / late.length;
    t.true(mean > 0.04, `seed ${seed}: off-beat hats ${mean.toFixed(3)} beats late`);
    // Outside a build's snare roll.
    const rolling = (b: number) =>
      score.sections.some((s) => s.kind === 'build' && b >= s.beat && b < s.beat + s.bars * score.beatsPerBar);
    const backbeats = onsets(score, drums, DRUM_MIDI.snare).filter(
      (b) => !rolling(b) && drums.notes.some((n) => n.midi === DRUM_MIDI.snare && n.beat === b && n.velocity > 0.5),
    );
    const onTwoAndFour = backbeats.filter((b) => Math.abs(frac(b)) < 0.01 && Math.round(b) % 2 === 1);
    t.true(onTwoAndFour.length >= backbeats.length * 0.85, `seed ${seed}: loud snares off 2 and 4`);
  }
});

test('trap: the hats roll in 32nds or sixteenth triplets and the 808 slides between its notes', (t) => {
  for (const seed of SEEDS) {
    const score = scoreOf('dark trap beat with 808s, 140 bpm', seed);
    t.is(score.spec.genre, 'trap');
    const hats = onsets(score, part(score, 'drums'), DRUM_MIDI.hat);
    const gaps = hats.slice(1).map((b, i) => b - hats[i]!);
    const rolled = gaps.filter(
      (g) => Math.abs(g - 1 / 8) < 0.01 || Math.abs(g - 1 / 6) < 0.01 || Math.abs(g - 1 / 12) < 0.01,
    );
    t.true(rolled.length >= 8, `seed ${seed}: ${rolled.length} hat gaps shorter than a sixteenth`);
    const bass = part(score, 'bass');
    t.is(bass.instrument, 'tr808Bass');
    t.true(
      bass.notes.some((n) => (n.glide ?? 0) !== 0),
      `seed ${seed}: no 808 glide`,
    );
  }
});

test('funk: ghost notes under the backbeat, a bass locked to the kick, and scratched chords', (t) => {
  for (const seed of SEEDS) {
    const score = scoreOf('funk groove, 110 bpm', seed);
    t.is(score.spec.genre, 'funk');
    const drums = part(score, 'drums');
    const snares = drums.notes.filter((n) => n.midi === DRUM_MIDI.snare);
    const ghosts = snares.filter((n) => n.velocity < 0.35 && frac(n.beat) > 0.1);
    t.true(ghosts.length >= 8, `seed ${seed}: ${ghosts.length} ghost notes`);
    t.true(
      Math.max(...snares.map((n) => n.velocity)) - Math.max(...ghosts.map((n) => n.velocity)) > 0.3,
      `seed ${seed}: ghosts not softer than the backbeat`,
    );
    const kicks = onsets(score, drums, DRUM_MIDI.kick);
    const bass = new Set(onsets(score, part(score, 'bass')));
    const locked = kicks.filter((k) => bass.has(k));
    t.true(
      locked.length / kicks.length >= 0.8,
      `seed ${seed}: ${locked.length} of ${kicks.length} kicks with the bass`,
    );
    const chords = part(score, 'chords');
    t.true(
      chords.notes.filter((n) => n.articulation === 'muted').length >= chords.notes.length * 0.4,
      `seed ${seed}: the guitar does not scratch`,
    );
  }
});

test('reggae: the guitar skanks on beats 2 and 4 and the organ bubbles off the beat', (t) => {
  for (const seed of SEEDS) {
    const score = scoreOf('roots reggae song', seed);
    t.is(score.spec.genre, 'reggae');
    const chords = onsets(score, part(score, 'chords'));
    // On 2 or 4, or the sixteenth after (the doubled skank).
    const skank = chords.filter((b) => Math.floor(b + 1e-6) % 2 === 1 && frac(b) < 0.3);
    t.true(chords.length > 0);
    t.true(
      skank.length / chords.length >= 0.9,
      `seed ${seed}: ${skank.length} of ${chords.length} skank onsets on 2 and 4`,
    );
    const bubble = onsets(score, part(score, 'pad'));
    t.true(bubble.length > 0);
    t.true(
      bubble.every((b) => frac(b) > 0.1),
      `seed ${seed}: an organ bubble note on the beat`,
    );
  }
});

test('blues: the hi-hat shuffles on triplets and the bass boogies up to the sixth and the seventh', (t) => {
  for (const seed of SEEDS) {
    const score = scoreOf('blues shuffle, 96 bpm', seed);
    t.is(score.spec.genre, 'blues');
    const drums = part(score, 'drums');
    const hat = onsets(score, drums, DRUM_MIDI.hat);
    t.true(hat.length > 0);
    t.true(
      hat.filter((b) => Math.abs(frac(b) - 2 / 3) < 0.01).length >= hat.length * 0.4,
      `seed ${seed}: the hi-hat does not shuffle`,
    );
    const bass = part(score, 'bass');
    const intervals = new Set(
      bass.notes.map((n) => {
        const chord = score.chords.findLast((c) => c.beat <= n.beat + 1e-6) ?? score.chords[0]!;
        return (((n.midi - chord.root) % 12) + 12) % 12;
      }),
    );
    t.true(intervals.has(9) && intervals.has(10), `seed ${seed}: no boogie sixth and seventh in the bass`);
  }
});

test('no strummed steel-string guitar in styles that do not ask for one', (t) => {
  const prompts = [
    'boom bap hip hop beat, 90 bpm',
    'dark trap beat with 808s, 140 bpm',
    'funk groove, 110 bpm',
    'roots reggae song, 76 bpm',
    'blues shuffle, 96 bpm',
    'afrobeat groove, 112 bpm',
    'disco track, 120 bpm',
    'upbeat pop song, 116 bpm',
  ];
  for (const prompt of prompts) {
    for (const seed of SEEDS) {
      const score = scoreOf(prompt, seed);
      const steel = score.parts.filter((p) => ['guitar', 'banjo', 'mandolin'].includes(p.instrument));
      t.deepEqual(
        steel.map((p) => p.role),
        [],
        `${prompt} (seed ${seed})`,
      );
    }
  }
});
