/**
 * compose(spec) -> Score, judged symbolically (reference study 4.3-A) over several styles × 2 seeds ×
 * 30/60/180 s. The metrics live in test/helpers/score-metrics.ts and read only the Score.
 */
import test from 'ava';
import { compose, composeWith } from '../../engine/compose/index.ts';
import { getPreset, listStyles } from '../../engine/presets.ts';
import { createRandom } from '../../engine/random.ts';
import type { Preset, Score, Section } from '../../engine/types.ts';
import * as m from '../helpers/score-metrics.ts';
import { EDM_LIKE, LOFI_LIKE, specFor } from './compose-fixtures.ts';

const STYLES: Preset[] = [
  LOFI_LIKE,
  EDM_LIKE,
  ...['lofi', 'pop', 'house', 'orchestral', 'ambient', 'jazz', 'waltz', 'piano'].map(getPreset),
];
const DURATIONS = [30, 60, 180];
const SEEDS = [1, 2];

interface Case {
  name: string;
  preset: Preset;
  score: Score;
}

const CASES: Case[] = STYLES.flatMap((preset) =>
  DURATIONS.flatMap((duration) =>
    SEEDS.map((seed) => ({
      name: `${preset.name} ${duration}s seed ${seed}`,
      preset,
      score: composeWith(specFor(preset, { duration, seed }), preset),
    })),
  ),
);

const hasLead = (score: Score) => (m.part(score, 'lead')?.notes.length ?? 0) > 0;
/** Melody comparisons stop before the cadence into the final chord (the ending may vary a repeat). */
const comparableUntil = (score: Score) => score.chords[score.chords.length - 2]?.beat ?? Infinity;
const sectionLength = (s: Section) => s.bars;

test('every score lasts exactly the requested duration and its sections tile every bar', (t) => {
  for (const { name, score } of CASES) {
    t.is(score.duration, score.spec.duration, name);
    const bars = (score.duration * score.bpm) / (60 * score.beatsPerBar);
    const total = score.sections.reduce((sum, s) => sum + s.bars, 0);
    t.true(Math.abs(total - bars) < 1e-9, `${name}: ${total} bars of ${bars}`);
    score.sections.forEach((s, i) => {
      if (i > 0) t.is(s.startBar, score.sections[i - 1]!.startBar + score.sections[i - 1]!.bars, name);
      t.true(Math.abs(s.time - (s.startBar * score.beatsPerBar * 60) / score.bpm) < 1e-9, name);
    });
    const lastChord = score.chords[score.chords.length - 1]!;
    const quarterBeats = ((score.duration * score.bpm) / 60) * (4 / score.spec.meter.beatUnit);
    t.true(
      Math.abs(lastChord.beat + lastChord.beats - quarterBeats) < 1e-9,
      `${name}: the last chord rings to the end`,
    );
  }
});

test('no note starts before 0 or ends later than 50 ms before the end', (t) => {
  for (const { name, score } of CASES) {
    t.true(m.latestNoteEnd(score) <= score.duration - 0.05 + 1e-9, `${name}: ${m.latestNoteEnd(score)}`);
    t.true(
      score.parts.every((p) => p.notes.every((n) => n.time >= 0 && n.duration > 0)),
      name,
    );
  }
});

test('the score keeps the tempo and meter of the spec', (t) => {
  for (const { name, score } of CASES) {
    t.is(score.bpm, score.spec.bpm, name);
    t.is(score.beatsPerBar, score.spec.meter.beatsPerBar, name);
  }
});

test('at least 95% of pitched notes are in the key or on the sounding chord', (t) => {
  for (const { name, score } of CASES)
    t.true(m.inKeyOrChordRatio(score) >= 0.95, `${name}: ${m.inKeyOrChordRatio(score)}`);
});

test('at least 70% of melody notes on strong beats are chord tones', (t) => {
  for (const { name, score } of CASES.filter((c) => hasLead(c.score))) {
    const ratio = m.strongBeatChordToneRatio(score);
    t.true(ratio >= 0.7, `${name}: ${ratio}`);
  }
});

test('repeats of a section play the same melody (similarity >= 0.8 when equally long)', (t) => {
  let pairs = 0;
  for (const { name, score } of CASES.filter((c) => hasLead(c.score))) {
    for (const [i, a] of score.sections.entries()) {
      for (const b of score.sections.slice(i + 1)) {
        if (
          a.label !== b.label ||
          sectionLength(a) !== sectionLength(b) ||
          !a.kind.match(/verse|chorus|drop|theme|climax|build|prechorus/)
        )
          continue;
        const similarity = m.sectionMelodySimilarity(score, a, b, comparableUntil(score));
        t.true(similarity >= 0.8, `${name} ${a.label}@${a.startBar} vs @${b.startBar}: ${similarity}`);
        pairs++;
      }
    }
  }
  t.true(pairs >= 20, `only ${pairs} repeated pairs were compared`);
});

test('contrasting sections have different melodies', (t) => {
  const similarities: number[] = [];
  for (const { name, score } of CASES.filter((c) => hasLead(c.score))) {
    const main = score.sections.filter((s) => s.kind !== 'intro' && s.kind !== 'outro');
    for (const a of main) {
      for (const b of main) {
        if (a.label >= b.label) continue;
        const similarity = m.sectionMelodySimilarity(score, a, b, comparableUntil(score));
        t.true(similarity <= 0.6, `${name} ${a.label} vs ${b.label}: ${similarity}`);
        similarities.push(similarity);
      }
    }
  }
  t.true(m.mean(similarities) <= 0.35, `mean similarity of contrasting sections ${m.mean(similarities)}`);
});

test('the bass and the top voice of the chords never move in parallel fifths or octaves', (t) => {
  for (const { name, score } of CASES) t.is(m.parallelPerfectCount(score), 0, name);
});

test('the final chord is the tonic and the last melody note is one of its tones', (t) => {
  for (const { name, score } of CASES) {
    const final = score.chords[score.chords.length - 1]!;
    t.is(final.root, score.scale[0]!, name);
    const last = m.lastLeadNote(score);
    if (last) t.true(final.pitchClasses.includes(last.midi % 12), `${name}: last note ${last.midi}`);
  }
});

test('most melodic leaps are answered by a step back the other way', (t) => {
  const ratios = CASES.map((c) => m.leapRecoveryRatio(c.score)).filter((r) => !Number.isNaN(r));
  t.true(m.mean(ratios) >= 0.7, `mean leap recovery ${m.mean(ratios)}`);
});

test('choruses, drops and climaxes are louder and denser than verses, breakdowns and themes', (t) => {
  let compared = 0;
  for (const { name, score } of CASES) {
    const loud = score.sections.find((s) => ['chorus', 'drop', 'climax'].includes(s.kind));
    const quiet = score.sections.find((s) => ['verse', 'breakdown', 'theme'].includes(s.kind));
    if (!loud || !quiet) continue;
    const a = m.sectionActivity(score, loud);
    const b = m.sectionActivity(score, quiet);
    t.true(a.meanVelocity > b.meanVelocity, `${name}: velocity ${a.meanVelocity} vs ${b.meanVelocity}`);
    t.true(a.notesPerBar > b.notesPerBar, `${name}: notes/bar ${a.notesPerBar} vs ${b.notesPerBar}`);
    compared++;
  }
  t.true(compared >= 20);
});

test('a spec without drums gets no drums part', (t) => {
  const preset = getPreset('pop');
  const score = composeWith(specFor(preset, { excluded: ['drums'] }), preset);
  t.false(score.parts.some((p) => p.role === 'drums'));
  t.true(score.parts.some((p) => p.role === 'chords'));
});

test('parts use the instruments of the spec and leave the vocal role to the vocal stage', (t) => {
  const preset = getPreset('pop');
  const spec = specFor(preset);
  const score = composeWith(
    { ...spec, instruments: [...spec.instruments, { role: 'vocal', instrument: 'voice' }] },
    preset,
  );
  t.false(score.parts.some((p) => p.role === 'vocal'));
  for (const p of score.parts) t.is(p.instrument, spec.instruments.find((c) => c.role === p.role)!.instrument);
});

test('the same spec composes a deep-equal score', (t) => {
  for (const preset of [LOFI_LIKE, EDM_LIKE, getPreset('jazz')]) {
    const spec = specFor(preset, { duration: 90, seed: 1234 });
    t.deepEqual(composeWith(spec, preset), composeWith(structuredClone(spec), preset));
  }
});

test('compose() takes the preset named by spec.genre', (t) => {
  const spec = specFor(getPreset('lofi'), { seed: 9 });
  t.deepEqual(compose(spec), composeWith(spec, getPreset('lofi')));
});

test('other seeds give other melodies and, mostly, other progressions', (t) => {
  for (const preset of [getPreset('pop'), getPreset('lofi'), getPreset('house')]) {
    const base = composeWith(specFor(preset, { seed: 100 }), preset);
    const melody = (s: Score) =>
      m
        .part(s, 'lead')
        ?.notes.map((n) => n.midi)
        .join(',') ?? '';
    const progression = (s: Score) => s.chords.map((c) => c.symbol).join(' ');
    let otherMelodies = 0;
    let otherProgressions = 0;
    for (let seed = 101; seed <= 108; seed++) {
      const score = composeWith(specFor(preset, { seed }), preset);
      if (melody(score) !== melody(base)) otherMelodies++;
      if (progression(score) !== progression(base)) otherProgressions++;
    }
    if (hasLead(base)) t.is(otherMelodies, 8, preset.name);
    t.true(otherProgressions >= 5, `${preset.name}: ${otherProgressions} of 8 seeds changed the progression`);
  }
});

test('swing plays off-beat notes later, lays the backbeat back slightly and leaves other on-beat notes alone', (t) => {
  const preset = getPreset('lofi');
  const straight = composeWith(specFor(preset, { swing: 0, seed: 5 }), preset);
  const swung = composeWith(specFor(preset, { swing: 0.6, seed: 5 }), preset);
  const drumsOf = (s: Score) => m.part(s, 'drums')!.notes;
  const byKey = new Map(drumsOf(straight).map((n) => [`${n.beat}/${n.midi}`, n]));
  let offBeats = 0;
  for (const note of drumsOf(swung)) {
    const twin = byKey.get(`${note.beat}/${note.midi}`)!;
    const offBeat = Math.round(note.beat * 2) % 2 === 1 && Number.isInteger(note.beat * 2); // lo-fi hats are eighths
    if (offBeat) {
      t.true(note.time > twin.time + 0.02, `off-beat at ${note.beat} moved ${note.time - twin.time}s`);
      offBeats++;
    } else if ([38, 39, 37].includes(note.midi)) {
      // The swung groove's backbeat lays back a little (snare, clap, rim): later, but by under 20 ms.
      const late = note.time - twin.time;
      t.true(late > 0.005 && late < 0.02, `backbeat at ${note.beat} moved ${late}s`);
    } else {
      t.true(Math.abs(note.time - twin.time) < 1e-6, `on-beat at ${note.beat} moved`);
    }
  }
  t.true(offBeats > 20);
});

test('very short clips still end on a held tonic inside the duration', (t) => {
  for (const duration of [1, 2.5, 7]) {
    const preset = getPreset('pop');
    const score = composeWith(specFor(preset, { duration }), preset);
    t.is(score.duration, duration);
    t.is(score.chords[score.chords.length - 1]!.root, score.scale[0]!);
    t.true(m.latestNoteEnd(score) <= duration - 0.05 + 1e-9);
    t.true(score.parts.some((p) => p.notes.length > 0));
  }
});

test('the drums stop with one last kick and crash on the final chord', (t) => {
  for (const { name, score } of CASES.filter((c) => c.preset.name === 'pop')) {
    const drums = m.part(score, 'drums')!.notes;
    const final = score.chords[score.chords.length - 1]!;
    const last = drums.filter((n) => n.beat >= final.beat);
    t.deepEqual(last.map((n) => n.midi).sort(), [36, 49], name);
  }
});

test('the final chord is struck again softer when the ending has room: a decrescendo, not a cut', (t) => {
  const score = CASES.find((c) => c.preset.name === 'pop' && c.score.duration === 180)!.score;
  const final = score.chords[score.chords.length - 1]!;
  const hits = m.part(score, 'chords')!.notes.filter((n) => n.beat >= final.beat);
  const onsets = [...new Set(hits.map((n) => n.beat))].sort((a, b) => a - b);
  t.is(onsets.length, 2);
  const level = (beat: number) => m.mean(hits.filter((n) => n.beat === beat).map((n) => n.velocity));
  t.true(level(onsets[1]!) < level(onsets[0]!) * 0.8);
});

test('a blended genre lends its progressions', (t) => {
  const lofi = getPreset('lofi');
  const house = getPreset('house');
  const minor = { tonic: 'A' as const, mode: 'minor' as const };
  const houseOnly = new Set(house.progressions.minor.flat().filter((s) => !lofi.progressions.minor.flat().includes(s)));
  const symbols = (score: Score) => score.chords.map((c) => c.symbol);
  const blended = composeWith(specFor(lofi, { key: minor, blend: { genre: 'house', weight: 1 } }), lofi, {
    preset: house,
    weight: 1,
  });
  const plain = composeWith(specFor(lofi, { key: minor }), lofi);
  t.true(symbols(blended).some((s) => houseOnly.has(s)));
  t.false(symbols(plain).some((s) => houseOnly.has(s)));
});

test('every melody note stays inside the style range', (t) => {
  for (const { name, preset, score } of CASES) {
    const notes = m.part(score, 'lead')?.notes ?? [];
    t.true(
      notes.every((n) => n.midi >= preset.melody.low && n.midi <= preset.melody.high),
      name,
    );
  }
});

test('a denser spec gives a busier melody', (t) => {
  for (const preset of [getPreset('pop'), LOFI_LIKE]) {
    const count = (density: number) => {
      let notes = 0;
      for (const seed of [1, 2, 3, 4])
        notes += m.part(composeWith(specFor(preset, { density, seed }), preset), 'lead')!.notes.length;
      return notes;
    };
    t.true(count(0.9) > count(0.1) * 1.2, preset.name);
  }
});

test('higher arousal plays louder', (t) => {
  const preset = getPreset('pop');
  const loudness = (arousal: number) =>
    m.mean(
      composeWith(specFor(preset, { arousal }), preset)
        .parts.filter((p) => p.role !== 'texture')
        .flatMap((p) => p.notes.map((n) => n.velocity)),
    );
  t.true(loudness(0.8) > loudness(-0.8) + 0.1);
});

test('without swing, humanizing moves notes at most 12 ms, and electronic styles less than acoustic ones', (t) => {
  const spread = (name: string) => {
    const preset = getPreset(name);
    const score = composeWith(specFor(preset, { swing: 0 }), preset);
    const offsets = score.parts.filter((p) => p.role !== 'texture').flatMap((p) => m.timingOffsets(score, p.notes));
    t.true(
      offsets.every((o) => Math.abs(o) <= 0.012 + 1e-6),
      name,
    );
    return Math.sqrt(m.mean(offsets.map((o) => o * o)));
  };
  const pop = spread('pop');
  const house = spread('house');
  t.true(house < pop * 0.6, `house ${house} vs pop ${pop}`);
  t.true(pop > 0.004, `pop jitter ${pop}`);
});

test('voice leading is smooth: voices move on average at most 3 semitones per chord change', (t) => {
  for (const { name, score } of CASES) {
    const movement = m.meanVoiceMovement(score);
    if (!Number.isNaN(movement)) t.true(movement <= 3, `${name}: ${movement}`);
  }
});

test('odd meters, extreme tempos, every mode and lengths from 1 s to 10 min keep the rules', (t) => {
  const random = createRandom(42, 'compose-test-properties');
  const modes = ['major', 'minor', 'dorian', 'mixolydian', 'lydian', 'phrygian', 'harmonicMinor'] as const;
  const meters = [
    [4, 4],
    [3, 4],
    [6, 8],
    [5, 4],
    [7, 8],
    [2, 4],
    [12, 8],
  ] as const;
  const names = listStyles().map((s) => s.name);
  for (let i = 0; i < 80; i++) {
    const preset = getPreset(random.pick(names));
    const [beatsPerBar, beatUnit] = random.pick(meters);
    const spec = specFor(preset, {
      duration: random.pick([1, 3, 5.5, 10, 30, 47.3, 90, 180, 600]),
      seed: random.int(0, 2 ** 31 - 1),
      bpm: random.int(40, 220),
      meter: { beatsPerBar, beatUnit },
      key: { tonic: random.pick(['C', 'Eb', 'F#', 'A'] as const), mode: random.pick(modes) },
      arousal: random.range(-1, 1),
      density: random.next(),
      swing: random.next(),
    });
    const where = `${preset.name} ${spec.duration}s ${spec.bpm}bpm ${beatsPerBar}/${beatUnit} ${spec.key.mode}`;
    const score = composeWith(spec, preset);
    t.is(score.duration, spec.duration, where);
    t.true(m.latestNoteEnd(score) <= spec.duration - 0.05 + 1e-9, where);
    t.true(
      score.parts.every((p) =>
        p.notes.every((n) => n.time >= 0 && n.duration > 0 && n.velocity > 0 && n.velocity <= 1),
      ),
      where,
    );
    t.true(m.inKeyOrChordRatio(score) >= 0.95, where);
    t.is(m.parallelPerfectCount(score), 0, where);
    t.is(score.chords[score.chords.length - 1]!.root, score.scale[0]!, where);
    const bars = (spec.duration * spec.bpm) / 60 / beatsPerBar;
    t.true(Math.abs(score.sections.reduce((sum, s) => sum + s.bars, 0) - bars) < 1e-9, where);
  }
});

test('the held final chord is released before the end so its decay fits inside the track', (t) => {
  const score = CASES.find((c) => c.preset.name === 'pop' && c.score.duration === 180)!.score;
  const final = score.chords[score.chords.length - 1]!;
  const held = score.parts.flatMap((p) => p.notes).filter((n) => n.beat >= final.beat);
  t.true(held.length > 0);
  for (const n of held) t.true(n.time + n.duration <= score.duration - 1, `ends at ${n.time + n.duration}`);
});

test('a piano playing alone adds a left-hand root under each chord, free of parallels with its top voice', (t) => {
  const solo = CASES.filter((c) => !c.score.parts.some((p) => p.role === 'bass') && m.part(c.score, 'chords'));
  t.true(solo.length >= 6);
  for (const { name, score } of solo) {
    const chords = m.part(score, 'chords')!.notes;
    for (const chord of score.chords) {
      const struck = chords.filter((n) => Math.abs(n.beat - chord.beat) < 1e-6);
      if (struck.length === 0) continue;
      const lowest = Math.min(...struck.map((n) => n.midi));
      t.is(lowest % 12, chord.root, `${name} at ${chord.beat}`);
      t.true(lowest < 48, `${name} at ${chord.beat}`);
    }
    t.is(m.parallelPerfectCount(score), 0, name);
  }
});
